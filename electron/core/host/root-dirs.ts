/**
 * Every directory K2s DNS writes as root (shared/root-dir-check.ts ROOT_WRITTEN_DIRS) must be a
 * real directory owned by root and not writable by group or others: a user who can write
 * /etc/k2s can swap the proxy config the watchdog restarts from and redirect the host's DNS; a
 * /run/k2s symlink into /tmp puts root's lock and pid files where that user chooses.
 */
import { spawnSync } from 'node:child_process';
import type { HostFs, HostStat } from './host-fs';
import { ROOT_WRITTEN_DIRS } from '../../../shared/root-dir-check';

/** A directory root would write into is not root's alone; nothing was written there. */
export class NotRootOwnedError extends Error {
  readonly code = 'NOT_ROOT_OWNED';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'NotRootOwnedError';
  }
}

/** `ls -ld -- PATH` of a real path (what the user will see); null when ls cannot run. */
function lsLd(realPath: string): string | null {
  const r = spawnSync('ls', ['-ld', '--', realPath], { encoding: 'utf8', timeout: 5000, env: { ...process.env, LC_ALL: 'C' } });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** `drwxrwxrwt`-style type and permission string of ls(1) for a HostStat. */
export function modeString(st: HostStat): string {
  const type = st.kind === 'dir' ? 'd' : st.kind === 'symlink' ? 'l' : st.kind === 'file' ? '-' : '?';
  const bit = (m: number, c: string) => (st.mode & m ? c : '-');
  const x = (m: number, s: number, on: string, off: string) => (st.mode & s ? (st.mode & m ? on : off) : bit(m, 'x'));
  return type + bit(0o400, 'r') + bit(0o200, 'w') + x(0o100, 0o4000, 's', 'S') + bit(0o040, 'r') + bit(0o020, 'w') + x(0o010, 0o2000, 's', 'S') + bit(0o004, 'r') + bit(0o002, 'w') + x(0o001, 0o1000, 't', 'T');
}

/**
 * Makes `path` safe for root to write into, or refuses: missing → created with `mode` (left
 * missing when `create` is false: a check before anything is written); a real
 * directory owned by root (or by this process's uid, on a test root) that is group/other
 * writable → repaired (chmod go-w on the directory itself, never through a link: only root
 * could have made a root-owned directory so); a symlink, another file type or another owner →
 * NotRootOwnedError naming the path and its `ls -ld` fields (another user made it, so its
 * content cannot be trusted and it is not K2s's to change).
 */
export async function ensureRootDir(fs: HostFs, path: string, mode: number, create = true): Promise<void> {
  let st = await fs.lstat(path);
  if (st === null && !create) return;
  if (st === null) {
    await fs.mkdirp(path, mode);
    st = await fs.lstat(path);
  }
  const euid = process.geteuid?.() ?? 0;
  const problem =
    st === null ? 'vanished while it was created'
    : st.kind !== 'dir' ? `is a ${st.kind === 'symlink' ? `symlink (to ${await fs.readlink(path).catch(() => '?')})` : 'non-directory'}, not a real directory`
    : st.uid !== 0 && st.uid !== euid ? `is owned by uid ${st.uid}, not root`
    : null;
  if (problem !== null || st === null) {
    const ls = st ? ` (ls -ld: ${lsLd(fs.real(path)) ?? `${modeString(st)} uid ${st.uid} gid ${st.gid}`})` : '';
    throw new NotRootOwnedError(path, `${path} ${problem}${ls}; k2s-dns writes there as root, so another user could change what root reads from it. Check it, remove it (k2s-dns creates it root-owned) or chown root:root and chmod go-w, then start again. Nothing was written there.`);
  }
  if ((st.mode & 0o022) !== 0) await fs.chmodNoFollow(path, st.mode & ~0o022 & 0o7777);
}

/**
 * ensureRootDir for every directory in ROOT_WRITTEN_DIRS that exists, in order (missing ones
 * are created root-owned by their writer); stops at the first refusal.
 */
export async function ensureRootDirs(fs: HostFs): Promise<void> {
  for (const d of ROOT_WRITTEN_DIRS) await ensureRootDir(fs, d.path, d.mode, false);
}
