/**
 * Owner and mode of the file a resolver entry names (a saved original, /etc/resolv.conf now), for
 * the network follower's owner rule where status and doctor judge it (shared/writable-resolver.ts,
 * sixth walk M3).
 */
import { posix } from 'node:path';
import type { HostFs } from './host-fs';
import type { ResolverEntry } from '../../../shared/types';
import type { FileOwner } from '../../../shared/writable-resolver';
import { K2S_PATHS } from '../../../shared/k2s-paths';

/**
 * A file entry's own owner and mode (for a saved original: recorded when start saved it, and stop
 * puts it back with them); a symlink's target's now (stat(2) follows it, as start's check of the
 * file did — K2s replaces the link, never its target, so a saved link's target is still there
 * while K2s DNS runs). Null for no file, a dangling link, or a target that is gone or no regular file.
 */
export async function resolverFileOwner(fs: Pick<HostFs, 'stat'>, saved: ResolverEntry): Promise<FileOwner | null> {
  if (saved.kind === 'file') return { uid: saved.uid, gid: saved.gid, mode: saved.mode };
  if (saved.kind !== 'symlink' || saved.dangling) return null;
  const st = await fs.stat(posix.resolve(posix.dirname(K2S_PATHS.resolvConf), saved.target)).catch(() => null);
  return st?.kind === 'file' ? { uid: st.uid, gid: st.gid, mode: st.mode } : null;
}
