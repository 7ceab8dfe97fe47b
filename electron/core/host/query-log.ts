/**
 * The proxy log (/var/log/dnsproxy/dnsproxy.log, every query when query logging is on): private
 * and bounded.
 * - Private: mode 0640 owner root, group `adm` (Debian's group for reading logs, like
 *   /var/log/syslog), or 0600 where no `adm` group exists; an existing file (older versions wrote
 *   0644) is repaired on every start. Opened with O_NOFOLLOW: a symlink planted at the path is
 *   refused, never followed.
 * - Bounded: at LOG_CAP_BYTES the file is copied to `<log>.1` (replacing the older copy) and
 *   truncated ("copytruncate", logrotate(8)): the proxy keeps its O_APPEND descriptor and goes on
 *   writing at the new end, so no restart or reopen signal is needed (AdGuard dnsproxy has none:
 *   SIGHUP kills it, docs/engines.md "dnsproxy signals"). So at most 2 × LOG_CAP_BYTES are
 *   kept. A line written between the copy and the truncate can be lost, as with logrotate.
 * Rotation runs at every start and, in supervised mode, in a small guard process that lives as
 * long as the proxy (LOG_GUARD_SOURCE); on systemd hosts the logrotate snippet does it.
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { tlsFreeNodeEnv } from './child-env';
import { setAutogroupNice } from '../capture/go-idle';
import { constants as fsc, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Where the systemd-host logrotate snippet goes (removed by uninstall). */
export const LOGROTATE_PATH = '/etc/logrotate.d/k2s-dnsproxy';

/** Size at which the log is rotated, bytes (10 MiB ≈ 50,000 logged queries of dnsmasq). */
export const LOG_CAP_BYTES = 10 * 1024 * 1024;
/** How often the supervised guard checks the size, ms. */
export const LOG_GUARD_POLL_MS = 2000;
/** Path of the single rotated copy. */
export const rotatedLogPath = (logPath: string): string => `${logPath}.1`;

/** gid of the `adm` group in an /etc/group text (group(5): name:passwd:gid:members), else null. */
export function admGidFrom(groupText: string): number | null {
  for (const line of groupText.split('\n')) {
    const [name, , gid] = line.split(':');
    if (name === 'adm' && gid !== undefined && /^\d+$/.test(gid)) return Number(gid);
  }
  return null;
}

/** Owner, group and mode the log gets: root:adm 0640, or root:root 0600 without `adm`. */
export function logOwnership(admGid: number | null): { uid: number; gid: number; mode: number } {
  return admGid === null ? { uid: 0, gid: 0, mode: 0o600 } : { uid: 0, gid: admGid, mode: 0o640 };
}

/** Reads the adm gid from `groupFile` (the host's /etc/group, under the HostFs root); null when unreadable. */
export async function readAdmGid(groupFile: string): Promise<number | null> {
  return admGidFrom(await fsp.readFile(groupFile, 'utf8').catch(() => ''));
}

/**
 * Rejects when the log directory at the real path `dir` (/var/log/dnsproxy under the root) is a
 * symlink: O_NOFOLLOW and rename(2) check only the last component, so a symlinked log directory
 * would put root's (and uninstall's) file operations wherever it points (adversarial pass,
 * 2026-12-01). A missing directory is not refused here (the open or write says ENOENT).
 */
export async function refuseSymlinkedLogDir(dir: string): Promise<void> {
  if ((await fsp.lstat(dir).catch(() => null))?.isSymbolicLink()) {
    throw new Error(`The proxy log directory ${dir} is a symlink; remove it (k2s-dns creates the directory itself).`);
  }
}

/**
 * Opens (creating) the log at the real path `logPath` for appending, refusing a symlink or a
 * non-regular file, and sets its owner/group/mode (logOwnership) on the open descriptor.
 * Throws with the path and the fix when the file cannot be made private.
 */
export async function openQueryLog(logPath: string, admGid: number | null): Promise<FileHandle> {
  const want = logOwnership(admGid);
  await refuseSymlinkedLogDir(path.dirname(logPath));
  let fh: FileHandle;
  try {
    fh = await fsp.open(logPath, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT | fsc.O_NOFOLLOW | fsc.O_NONBLOCK, want.mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ELOOP' ? `The proxy log ${logPath} is a symlink; remove it (k2s-dns writes the log itself).` : `Cannot open the proxy log ${logPath} (${code}); check its directory.`);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Error(`The proxy log ${logPath} is not a regular file; remove it.`);
    // Only root can chown; an unprivileged test run keeps its own uid but still gets the mode.
    if (process.geteuid?.() === 0) await fh.chown(want.uid, want.gid);
    await fh.chmod(want.mode);
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/**
 * Rotates `logPath` when it holds `capBytes` or more: copies it to `<log>.1` (same mode and
 * owner, replacing the older copy, never following a symlink there) and truncates it.
 * Resolves true when it rotated. A missing log is not an error.
 */
export async function rotateLogIfOver(logPath: string, capBytes = LOG_CAP_BYTES): Promise<boolean> {
  const st = await fsp.lstat(logPath).catch(() => null);
  if (!st?.isFile() || st.size < capBytes) return false;
  const old = rotatedLogPath(logPath);
  await fsp.rm(old, { force: true });
  await fsp.copyFile(logPath, old, fsc.COPYFILE_EXCL);
  await fsp.chmod(old, st.mode & 0o777);
  if (process.geteuid?.() === 0) await fsp.chown(old, st.uid, st.gid);
  await fsp.truncate(logPath, 0);
  return true;
}

/**
 * Source of the supervised-mode guard, run as `node -e LOG_GUARD_SOURCE <log> <capBytes> <pid>
 * <pollMs>`: the same copytruncate as rotateLogIfOver whenever the log reaches the cap, until
 * process <pid> (the proxy) is gone. Fixed text passed on argv, so no file on disk is executed.
 */
export const LOG_GUARD_SOURCE = `
const fs = require('node:fs');
const [log, cap, pid, poll] = process.argv.slice(1);
const capBytes = Number(cap);
const alive = () => { try { process.kill(Number(pid), 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const tick = () => {
  if (!alive()) process.exit(0);
  try {
    const st = fs.lstatSync(log);
    if (st.isFile() && st.size >= capBytes) {
      const old = log + '.1';
      fs.rmSync(old, { force: true });
      fs.copyFileSync(log, old, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(old, st.mode & 0o777);
      fs.chownSync(old, st.uid, st.gid);
      fs.truncateSync(log, 0);
    }
  } catch {}
  setTimeout(tick, Number(poll));
};
tick();
`;

/**
 * The guard's nice value (setpriority(2)) and its autogroup's: its Node start-up (~60 ms of CPU)
 * begins while start waits for the proxy and the capture companion on the same cores; at 19 it
 * takes the CPU only when they leave it. Its copytruncate every LOG_GUARD_POLL_MS is not in a hurry.
 * Detached, the guard leads a session of its own, and with autogroup on (sched(7) "The autogroup
 * feature"; Debian's default) that session is a scheduling group which competes with the others
 * as an equal whatever its one task's nice value: the group's nice value is what yields (as the
 * capture's, capture/go-idle.ts).
 */
export const LOG_GUARD_NICE = 19;

/** Starts the guard for the proxy `pid` (detached, no stdio, nice LOG_GUARD_NICE for it and its autogroup, no NODE_EXTRA_CA_CERTS: child-env.ts); resolves to the guard's pid. */
export async function startLogGuard(logPath: string, pid: number, capBytes = LOG_CAP_BYTES, pollMs = LOG_GUARD_POLL_MS): Promise<number> {
  const child = spawn(process.execPath, ['-e', LOG_GUARD_SOURCE, logPath, String(capBytes), String(pid), String(pollMs)], { detached: true, stdio: 'ignore', env: tlsFreeNodeEnv() });
  const guardPid = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => resolve(child.pid as number));
  });
  child.unref();
  try {
    setPriority(guardPid, LOG_GUARD_NICE);
  } catch {
    // Gone already (its proxy was), or not allowed: it runs at the default priority.
  }
  // Its session's group (it leads it: detached is setsid). Never rejects: a kernel without
  // autogroup, or a guard gone already, leaves it as it was.
  await setAutogroupNice([guardPid], LOG_GUARD_NICE, '/proc', [guardPid]);
  return guardPid;
}

/**
 * /etc/logrotate.d/k2s-dnsproxy for systemd hosts (the unit appends with StandardOutput=append:,
 * so copytruncate, logrotate(8)): rotate at LOG_CAP_BYTES (checked when logrotate runs, daily on
 * Debian), keep one old copy, no error when missing. The proxy also rotates at every start.
 */
export function renderLogrotate(logPath: string): string {
  return [
    '# Written by k2s-dns: the K2s DNS proxy log (one line per query when query logging is on).',
    `${logPath} {`,
    `  maxsize ${LOG_CAP_BYTES / (1024 * 1024)}M`,
    '  rotate 1',
    '  copytruncate',
    '  missingok',
    '  notifempty',
    '  nocompress',
    '}',
    '',
  ].join('\n');
}
