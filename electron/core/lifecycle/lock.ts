/**
 * The lifecycle lock: one k2s-dns start/stop/uninstall/recover at a time, held as an flock(2)
 * on `/run/k2s/dns-lifecycle.lock` that the kernel releases when the holder dies.
 *
 * Why flock(2) through util-linux `flock(1)`: Node has no flock binding. We open the lock file
 * ourselves and hand that descriptor to `flock --nonblock FD` (the `exec 9>f; flock -n 9` idiom,
 * flock(1) man page): an flock lock belongs to the open file description, which our process keeps
 * after flock(1) exits, so the lock lives exactly as long as our fd — a kill -9 or a crash closes
 * it and the kernel releases the lock (flock(2): "released ... when all file descriptors are
 * closed"). No child stays behind, and no PID is ever trusted (PIDs are reused after a reboot).
 * Rejected: an abstract unix socket `\0k2s-dns-lock` is per network namespace, so a helper in
 * another netns (containers, `ip netns exec`) sharing this /etc and /var/lib would not see it;
 * a native module would need a compiler on every install. Node opens files O_CLOEXEC, so the
 * proxy we spawn never inherits the descriptor (it would otherwise hold the lock forever).
 *
 * The file lives in /run (tmpfs: never full, emptied at boot, when no operation can be running)
 * and is never unlinked (unlink + flock races: a waiter could lock a deleted inode).
 */
import { open, readdir, readFile, stat, type FileHandle } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { constants as fsc } from 'node:fs';
import { ensureRootDir, NotRootOwnedError } from '../host/root-dirs';
import type { HostFs } from '../host/host-fs';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { refused } from './errors';
import { isNoRoomError, noRoomMessage } from '../host/mounts';

/** Host path of the lock file (in /run: kernel-released, nothing written under /var/lib). */
export const LOCK_PATH = `${K2S_PATHS.runDir}/dns-lifecycle.lock`;

/** flock(1)'s exit code we ask for when another process holds the lock (EX_TEMPFAIL). */
const CONFLICT = 75;

/** Runs `flock ARGS` with `handle` as its fd 3; resolves the exit code. Throws when flock is missing. */
function flockFd(handle: FileHandle, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', [...args, '3'], { stdio: ['ignore', 'ignore', 'pipe', handle.fd] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err) =>
      reject(new Error(`Cannot run flock(1) for the lifecycle lock (${err.message}); install util-linux (apt-get install util-linux).`)),
    );
    child.once('close', (code) => {
      if (code === 0 || code === CONFLICT) resolve(code);
      else reject(new Error(`flock(1) failed on ${LOCK_PATH} (exit ${code}: ${stderr.trim()}); check that /run/k2s is writable by root.`));
    });
  });
}

/** The lifecycle lock as held by this process. */
export interface HeldLock {
  /** Releases it (idempotent); the kernel releases it anyway if we die. */
  release(): Promise<void>;
  /**
   * Set when the operation goes on WITHOUT the lock because /run has no room for the lock file
   * (only with `goOnWithoutRoom`): one sentence naming the full filesystem and the fix.
   */
  withoutLock: string | null;
}

/** Options of acquireLock. */
export interface LockOptions {
  /**
   * stop/uninstall/recover: when the lock file cannot be created for lack of room (ENOSPC,
   * EDQUOT, EROFS on /run), go on without it instead of failing — restoring the resolver must
   * never wait for free space. A lock file that cannot be created cannot be held
   * by anyone else either. The function gives /proc/self/mountinfo to name the filesystem.
   */
  goOnWithoutRoom?: { mountinfo: () => Promise<string>; op: string };
}

/**
 * Takes the lifecycle lock without waiting. Throws a refused (exit 3) LifecycleError BUSY when
 * another live k2s-dns operation holds it (its own PID record is named for the user, never
 * trusted for the decision). The PID record is written best-effort: a full /run never fails
 * the lock (the kernel lock needs no room once the file exists).
 */
export async function acquireLock(fs: HostFs, opts: LockOptions = {}): Promise<HeldLock> {
  let handle: FileHandle;
  try {
    // /run/k2s root's alone (a symlink into a 1777 directory put the lock where another user chose).
    await ensureRootDir(fs, K2S_PATHS.runDir, 0o755);
    // 'a+' as flags: create if missing, never truncate before we own it (the holder's note stays
    // readable); O_NOFOLLOW: a link planted at the lock's name is never followed.
    handle = await open(fs.real(LOCK_PATH), fsc.O_RDWR | fsc.O_APPEND | fsc.O_CREAT | fsc.O_NOFOLLOW, 0o600);
  } catch (err) {
    const go = opts.goOnWithoutRoom;
    // stop/uninstall restore the resolver without the lock rather than write into someone's directory.
    if (go && err instanceof NotRootOwnedError) return { release: async () => undefined, withoutLock: `Went on without the lifecycle lock: ${err.message}` };
    if (!go || !isNoRoomError(err)) throw err;
    const why = noRoomMessage(LOCK_PATH, fs.real(LOCK_PATH), (err as NodeJS.ErrnoException).code, await go.mountinfo().catch(() => ''), `run k2s-dns ${go.op} again`);
    return { release: async () => undefined, withoutLock: `Went on without the lifecycle lock: ${why}` };
  }
  let code: number;
  try {
    code = await flockFd(handle, ['--exclusive', '--nonblock', '--conflict-exit-code', String(CONFLICT)]);
  } catch (err) {
    await handle.close();
    throw err;
  }
  if (code === CONFLICT) {
    await handle.close();
    const holder = await lockHolderNote(fs);
    const who = holder !== null ? ` (PID ${holder})` : '';
    throw refused('BUSY', `Another k2s-dns operation${who} is running (it holds ${LOCK_PATH}); wait for it to finish, then try again.`);
  }
  // For the BUSY message only: who holds it. Written after locking; the kernel decides, not
  // this. Best-effort: a full /run (ENOSPC) must not fail the operation that holds the lock.
  await handle.truncate(0).catch(() => undefined);
  await fs.append(LOCK_PATH, `${process.pid}\n`, 0o600).catch(() => undefined);
  let released = false;
  return {
    withoutLock: null,
    release: async () => {
      if (released) return;
      released = true;
      await handle.truncate(0).catch(() => undefined);
      await handle.close(); // last fd of the description closed: the kernel drops the lock
    },
  };
}

/**
 * The PID the lock's holder wrote into the lock file (acquireLock), or null when none is noted.
 * A note, not proof: use it to name the holder, or to decide whom to ask to let go — never to
 * decide that the lock is free (the kernel decides that).
 */
export async function lockHolderNote(fs: HostFs): Promise<number | null> {
  const note = (await readFile(fs.real(LOCK_PATH), 'utf8').catch(() => '')).trim();
  return /^\d+$/.test(note) ? Number(note) : null;
}

/** `/proc/locks` rows (proc(5)): whether any lock is held on device `major:minor`, inode `ino`. */
export function locksHold(procLocks: string, dev: number, ino: number): boolean {
  // Linux dev_t: major = bits 8..19 (+ high bits), minor = bits 0..7 and 20..31 (sysmacros.h).
  const major = ((dev >> 8) & 0xfff) | (Math.floor(dev / 2 ** 32) & ~0xfff);
  const minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  for (const line of procLocks.split('\n')) {
    const f = line.trim().split(/\s+/);
    // "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF"; blocked waiters are prefixed "->".
    if (f[1] === '->') continue;
    const id = f.find((x) => /^[0-9a-f]+:[0-9a-f]+:\d+$/i.test(x));
    if (!id) continue;
    const [ma, mi, in_] = id.split(':');
    if (parseInt(ma!, 16) === major && parseInt(mi!, 16) === minor && Number(in_) === ino) return true;
  }
  return false;
}

/**
 * Whether some process holds the lifecycle lock now, read from /proc/locks without taking it
 * (taking it, even briefly, could make a concurrent start fail BUSY). For status only.
 */
export async function lockHeld(fs: HostFs, procLocksPath = '/proc/locks'): Promise<boolean> {
  const st = await stat(fs.real(LOCK_PATH), { bigint: false }).catch(() => null);
  if (!st) return false;
  const text = await readFile(procLocksPath, 'utf8').catch(() => '');
  return locksHold(text, st.dev, st.ino);
}

/**
 * Whether process `pid` (a journal's) holds the lifecycle lock, from the lock lines of its open
 * files (`/proc/PID/fdinfo/N`, proc(5)). Inside a PID namespace (the sandbox, a container)
 * /proc/locks leaves out a lock whose taker — flock(1), which has exited — is not in that
 * namespace, so a live CLI start read as interrupted; fdinfo still shows the lock (with pid 0).
 * The PID only says where to look: the kernel's lock on that open file decides (a reused PID holds
 * none). Another user's process cannot be read (EACCES): false, as before.
 */
export async function lockHeldBy(fs: HostFs, pid: number, procDir = '/proc'): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const st = await stat(fs.real(LOCK_PATH), { bigint: false }).catch(() => null);
  if (!st) return false;
  const dir = `${procDir}/${pid}/fdinfo`;
  for (const fd of await readdir(dir).catch(() => [] as string[])) {
    const text = await readFile(`${dir}/${fd}`, 'utf8').catch(() => '');
    // "lock:\t1: FLOCK  ADVISORY  WRITE 0 00:4a:4 0 EOF": the /proc/locks row after "lock:".
    const rows = text.split('\n').filter((l) => l.startsWith('lock:')).map((l) => l.slice('lock:'.length));
    if (rows.length > 0 && locksHold(rows.join('\n'), st.dev, st.ino)) return true;
  }
  return false;
}
