/**
 * Reads a dns-resolver-state.json written by K2s's own tools, so `k2s-dns stop` can restore what
 * `k2s start` saved. Shapes seen in the K2s native-Linux sources (public repository):
 *
 * - Go CLI (setuporchestration, `resolverState`): `{"mode": <Go os.FileMode>, "linkTarget": "…",
 *   "content": "<base64 of []byte>", "wasImmutable": bool}`; `linkTarget`/`content` are omitempty,
 *   so an empty regular file has neither. Owner is not saved (K2s runs as root: 0:0 assumed).
 * - Shell helper (`k2s_save_resolver`, jq): `{"type":"file","content":"<raw text>","mode":"644",
 *   "immutable":bool}` or `{"type":"symlink","target":"…"}`.
 *
 * Assumptions (documented, not verified against a live K2s host): uid/gid 0, symlink not dangling
 * and target content unknown, and the mode is the permission part of whatever was recorded.
 */
import type { ResolverEntry } from '../../../shared/types';

/** Go's os.ModeSymlink bit (io/fs: ModeSymlink = 1 << 27). */
const GO_MODE_SYMLINK = 2 ** 27;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Converts a K2s CLI state object to a ResolverEntry; null when the shape is not recognised. */
export function fromK2sCliState(v: unknown): ResolverEntry | null {
  if (!isObj(v)) return null;
  // Go CLI shape: numeric os.FileMode plus wasImmutable.
  if (typeof v.mode === 'number' && typeof v.wasImmutable === 'boolean') {
    const isLink = typeof v.linkTarget === 'string' && v.linkTarget !== '';
    if (isLink || (v.mode & GO_MODE_SYMLINK) !== 0) {
      if (!isLink) return null; // symlink bit without a target: nothing to restore
      return { kind: 'symlink', target: v.linkTarget as string, uid: 0, gid: 0, dangling: false, targetContentBase64: null };
    }
    if (v.content !== undefined && typeof v.content !== 'string') return null;
    return {
      kind: 'file',
      // Go marshals []byte as standard base64; re-encode to normalise.
      contentBase64: Buffer.from((v.content as string | undefined) ?? '', 'base64').toString('base64'),
      mode: v.mode & 0o777, // Go keeps setuid/setgid/sticky in high bits, not in 0o7000
      uid: 0,
      gid: 0,
      immutable: v.wasImmutable,
    };
  }
  // Shell (jq) shape.
  if (v.type === 'symlink' && typeof v.target === 'string' && v.target !== '') {
    return { kind: 'symlink', target: v.target, uid: 0, gid: 0, dangling: false, targetContentBase64: null };
  }
  if (v.type === 'file' && typeof v.content === 'string') {
    const mode = typeof v.mode === 'string' && /^[0-7]{3,4}$/.test(v.mode) ? parseInt(v.mode, 8) : 0o644;
    return {
      kind: 'file',
      contentBase64: Buffer.from(v.content, 'utf8').toString('base64'),
      mode,
      uid: 0,
      gid: 0,
      immutable: v.immutable === true,
    };
  }
  return null;
}
