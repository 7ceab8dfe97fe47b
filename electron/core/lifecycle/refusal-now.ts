/**
 * The network follower's file and owner rules (follow.ts) applied again, by status, to the file a
 * stored refusal was about, as it is now: a refusal is the follower's judgement of the file as it
 * was then, and its mode, owner or bytes may have changed since (the printed `chmod o-w` fix).
 */
import { createHash } from 'node:crypto';
import type { LifecycleDeps } from './deps';
import type { HostDnsStatus, ResolverEntry } from '../../../shared/types';
import type { ResolverStateFile } from '../../../shared/state-file';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { RESOLVER_READ_BYTES, resolverFileRefusal, resolverOwnerRefusal } from '../../../shared/network-writer';
import { resolverBytes } from '../host/resolver-state';
import { targetPath } from './follow';

/** The follower's verdict on a file now: its refusal reason (null: it would follow it), owner and mode, and the sha256 (hex) of its bytes. */
export interface RefusedFileNow {
  reason: string | null;
  owner: { uid: number; gid: number; mode: number };
  sha256: string;
}

/**
 * Judges the file the last drift refused, as the follower would now (resolverFileRefusal ??
 * resolverOwnerRefusal, follow.ts): /etc/resolv.conf itself (`current`, a file or a link's
 * target) while it is not K2s's (`owner` foreign), or the saved link's target while
 * /etc/resolv.conf stays K2s's (a refused rewrite of that target: its fix names the target's
 * path, as the follower's does). Null when there is no such
 * file to judge (gone, unreadable, not a regular file at the end).
 */
export async function judgeRefusedFile(deps: LifecycleDeps, state: ResolverStateFile, current: ResolverEntry | null, owner: HostDnsStatus['resolverOwner']): Promise<RefusedFileNow | null> {
  let bytes: Buffer | null = null;
  let path: string | null = null;
  if (owner === 'foreign' && current && (current.kind === 'file' || current.kind === 'symlink')) {
    // What the follower reads of it: at most RESOLVER_READ_BYTES (follow.ts READ_BOUND), so the sha compares the same bytes.
    bytes = resolverBytes(current)?.subarray(0, RESOLVER_READ_BYTES) ?? null;
    path = K2S_PATHS.resolvConf;
  } else if (owner === 'k2s' && state.resolvConf.kind === 'symlink') {
    path = targetPath(state.resolvConf.target);
    const st = await deps.fs.stat(path).catch(() => null);
    // Only a regular file is read (a FIFO there would block the read, follow.ts candidate).
    bytes = st?.kind === 'file' ? await deps.fs.readFile(path, { maxBytes: RESOLVER_READ_BYTES }).catch(() => null) : null;
  }
  if (bytes === null || path === null) return null;
  const st = await deps.fs.stat(path).catch(() => null);
  if (st?.kind !== 'file') return null;
  const fileOwner = { uid: st.uid, gid: st.gid, mode: st.mode & 0o7777 };
  return { reason: resolverFileRefusal(bytes) ?? resolverOwnerRefusal(fileOwner, path), owner: fileOwner, sha256: createHash('sha256').update(bytes).digest('hex') };
}
