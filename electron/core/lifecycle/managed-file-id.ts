/**
 * What K2s records of the file it wrote at /etc/resolv.conf (start, a follow), so the follower
 * can later tell a write in place from a new file put over it (follow.ts fileWriteHow).
 */
import type { HostFs } from '../host/host-fs';
import { K2S_PATHS } from '../../../shared/k2s-paths';

/** The state file's record of K2s's /etc/resolv.conf: inode number and birth time (ms), null when unknown. */
export interface ManagedFileId {
  managedResolvConfIno?: number | null;
  managedResolvConfBirthMs?: number | null;
}

/**
 * The ManagedFileId of the file at /etc/resolv.conf now (lstat), taken just after K2s wrote it;
 * nulls when there is none, a null birth time where the file system keeps none.
 */
export async function managedFileId(fs: HostFs): Promise<{ managedResolvConfIno: number | null; managedResolvConfBirthMs: number | null }> {
  const st = await fs.lstat(K2S_PATHS.resolvConf);
  return { managedResolvConfIno: st?.ino ?? null, managedResolvConfBirthMs: st?.birthtimeMs ?? null };
}
