/**
 * What K2s records of the file it wrote at /etc/resolv.conf (start, a follow), so the follower
 * can later tell a write in place from a new file put over it (fileWriteHow).
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

/**
 * How a regular file came to be at /etc/resolv.conf (`now`, its lstat), against the one K2s
 * wrote (`managed`, the state file). Another inode number is a new file put there (a rename, as
 * NetworkManager and resolvconf write). The same number alone is no proof of a write in place
 * (`printf … > /etc/resolv.conf`, an editor saving in place): a file system may give the number
 * K2s's freed inode had to the next file it makes (a `mv` from another file system unlinks the
 * old file first, then creates the new one). The second sign is the birth time (statx(2)
 * stx_btime), which a write never changes: the same one is K2s's file rewritten in place,
 * another a new file. When either birth time is unknown (a file system that keeps none, a state
 * file of an earlier version, none recorded: managed-file-id.ts), or no inode was recorded, it
 * says only that the file was replaced, never a guess.
 */
export function fileWriteHow(now: { ino: number; birthtimeMs?: number | null } | null, managed: ManagedFileId): string {
  const managedIno = managed.managedResolvConfIno;
  if (now === null || managedIno == null) return '/etc/resolv.conf replaced';
  if (now.ino !== managedIno) return '/etc/resolv.conf replaced by a new file';
  const born = now.birthtimeMs ?? null;
  const bornThen = managed.managedResolvConfBirthMs ?? null;
  if (born === null || bornThen === null) return '/etc/resolv.conf replaced';
  return born === bornThen ? '/etc/resolv.conf rewritten in place' : '/etc/resolv.conf replaced by a new file';
}

/**
 * The verb of a drift by fileWriteHow's `how` (or the follower's `/etc/resolv.conf replaced by a
 * symlink → …`): `rewritten in place` for a write in place, else `replaced`; status's drift note
 * and doctor's K2s DNS state say "/etc/resolv.conf was VERB by WRITER" with it, the verb of the
 * follower's note (walk 11 L10: status said "changed", doctor "replaced", the follower "rewritten in place").
 */
export function driftVerb(how: string): 'rewritten in place' | 'replaced' {
  return how === '/etc/resolv.conf rewritten in place' ? 'rewritten in place' : 'replaced';
}
