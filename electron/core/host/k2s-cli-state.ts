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

/** Go's os.ModeSetuid, os.ModeSetgid and os.ModeSticky (io/fs), where st_mode has 0o4000, 0o2000, 0o1000. */
const GO_MODE_SETUID = 2 ** 23;
const GO_MODE_SETGID = 2 ** 22;
const GO_MODE_STICKY = 2 ** 20;

/**
 * The members K2s's own CLI reads from dns-resolver-state.json (its Go `resolverState`, read
 * above), written beside this app's own so that `k2s stop` and `k2s uninstall`, run while K2s DNS
 * runs, put the user's original back instead of an empty file. K2s's restoreResolverState
 * decodes the file with Go's encoding/json: it ignores every other member, and a missing one is
 * its zero value (no content → an empty file of mode 0000).
 */
export interface K2sCliFields {
  /** Go os.FileMode: the permission bits, setuid/setgid/sticky as Go's flag bits, ModeSymlink|0777 for a link. */
  mode: number;
  /** The exact readlink(2) string of a saved link (K2s then makes that symlink). */
  linkTarget?: string;
  /** A saved file's exact bytes, standard base64 (Go's []byte); absent for an empty file, as Go's omitempty. */
  content?: string;
  /** `chattr +i` was set on the saved file (K2s sets it again). */
  wasImmutable: boolean;
}

/** The K2sCliFields members' names: written by writeState, dropped on read (parseStateText). */
export const K2S_CLI_FIELD_NAMES = ['mode', 'linkTarget', 'content', 'wasImmutable'] as const;

/**
 * K2s's fields for a saved original (fromK2sCliState's inverse for what K2s can hold). An absent
 * original has no such form: K2s then writes an empty 0644 file, which glibc reads as it reads
 * a missing one (no nameserver line: it asks 127.0.0.1, resolv.conf(5)). Owner is not in K2s's
 * shape (its restore leaves root's).
 */
export function toK2sCliFields(entry: ResolverEntry): K2sCliFields {
  if (entry.kind === 'symlink') return { mode: GO_MODE_SYMLINK + 0o777, linkTarget: entry.target, wasImmutable: false };
  if (entry.kind === 'absent') return { mode: 0o644, wasImmutable: false };
  const special = (entry.mode & 0o4000 ? GO_MODE_SETUID : 0) + (entry.mode & 0o2000 ? GO_MODE_SETGID : 0) + (entry.mode & 0o1000 ? GO_MODE_STICKY : 0);
  return { mode: (entry.mode & 0o777) + special, ...(entry.contentBase64 !== '' ? { content: entry.contentBase64 } : {}), wasImmutable: entry.immutable };
}
