/**
 * An engine binary's version and whether a running proxy still runs the file on disk — one module
 * for status (`engineVersion`) and doctor's `dnsproxy-version` check. The version is what the
 * binary's `--version` prints: `dnsproxy version v0.83.1` (AdGuard dnsproxy, docs/engines.md
 * "dnsproxy version"), `Dnsmasq version 2.90  Copyright …` (dnsmasq(8) --version). Asked once per
 * binary and proxy PID in this process (a window polls status; a new run or binary asks again).
 * /proc is read through HostFs (proc(5): /proc/PID/exe, /proc/PID/cmdline), so tests use a fake.
 */
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { ENGINES, type EngineName } from '../../../shared/engines/table';
import { parseCmdline } from './own-proxy';

/** The version, or null with why it cannot be known (`unknown`, a sentence fragment). */
export interface EngineVersion {
  version: string | null;
  unknown?: string;
}

/** What `--version` answered: the version (EngineVersion), its first line and exit code. */
export interface VersionAnswer extends EngineVersion {
  /** The first line it printed (stdout, else stderr), control characters as `?`, at most 120 characters; '' when none. */
  line: string;
  /** Its exit code; null when it was killed (deadline, output without end) or could not run. */
  code: number | null;
}

/** Characters a version token may have at most (dnsmasq's `2.90`, a distribution's `2.90-4+deb13u1`). */
const VERSION_MAX = 64;

/**
 * The version token each engine's `--version` prints first: `v0.83.1` (dnsproxy), `2.90`
 * (dnsmasq). Null for a token with control characters, bytes that were no UTF-8 or more than
 * VERSION_MAX characters (dnsmasq's pattern takes any non-space run): status and doctor print it
 * to a terminal as it is, so a binary printing escapes there would have them printed.
 */
export function parseEngineVersion(engine: EngineName, stdout: string): string | null {
  const m = ENGINES[engine].versionPattern.exec(stdout);
  const token = m?.[1];
  return token !== undefined && token.length <= VERSION_MAX && printable(token) === token ? token : null;
}

/** `text` with control characters (C0, DEL, C1) and U+FFFD (bytes that were no UTF-8) as `?`: it is quoted to a terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?');
}

/** The first line of `text`, trimmed, printable, cut at 120 characters. */
function firstLine(text: string): string {
  return printable(text.trim().split('\n')[0]?.trim().slice(0, 120) ?? '');
}

const asked = new Map<string, Promise<VersionAnswer>>();

/**
 * `binary --version` (a real path on this machine, 2 s deadline, 64 KiB of output) parsed for
 * `engine`. With a `pid` the answer is kept for that proxy run (a window polls status); without one
 * (doctor: no proxy runs) it is asked each time. Never rejects: a binary that cannot run or prints
 * no version gives version null with the reason.
 */
export function askEngineVersion(exec: Exec, engine: EngineName, binary: string, pid: number | null): Promise<VersionAnswer> {
  const key = `${engine}\0${binary}\0${pid ?? ''}`;
  const known = pid !== null ? asked.get(key) : undefined;
  if (known) return known;
  // 64 KiB of output at most: a version is one line; a binary printing without end is cut.
  const answer = exec.run(binary, ['--version'], { timeoutMs: 2000, maxOutputChars: 64 * 1024 }).then(
    (r): VersionAnswer => {
      // Killed (nodeExec.run: the deadline, or output without end): what it printed is cut.
      if (r.code === null) return { version: null, unknown: `${binary} --version did not finish (ended after 2 s or 64 KiB of output)`, line: '', code: null };
      const version = r.code === 0 ? parseEngineVersion(engine, r.stdout) : null;
      if (version !== null) return { version, line: firstLine(r.stdout), code: r.code };
      const line = firstLine(r.stderr || r.stdout);
      return { version: null, unknown: `${binary} --version printed no version (${line || `exit ${r.code}`})`, line, code: r.code };
    },
    (err: unknown): VersionAnswer => ({ version: null, unknown: `${binary} --version could not run (${(err as Error).message})`, line: '', code: null }),
  );
  if (pid !== null) {
    asked.clear();
    asked.set(key, answer);
  }
  return answer;
}

/** askEngineVersion's version and reason only (status's `engineVersion`, `engineVersionUnknown`). */
export async function engineVersion(exec: Exec, engine: EngineName, binary: string, pid: number | null): Promise<EngineVersion> {
  const { version, unknown } = await askEngineVersion(exec, engine, binary, pid);
  return unknown !== undefined ? { version, unknown } : { version };
}

/**
 * The file process `pid` runs, as a host path (readlink /proc/PID/exe, proc(5)), and whether the
 * file at that path now is another one: `replaced` (the kernel appends " (deleted)" to the link
 * once the file was unlinked, or the path's inode and birth time differ from the running file's)
 * or `removed` (nothing there). Null when the link cannot be read (the process is gone, or another
 * user's: only root may look) or names no path.
 */
export async function runningExecutable(fs: HostFs, pid: number): Promise<{ path: string; change: 'replaced' | 'removed' | null } | null> {
  const exe = `/proc/${pid}/exe`;
  const link = await fs.readlink(exe).catch(() => null);
  if (!link?.startsWith('/')) return null;
  const deleted = link.endsWith(' (deleted)');
  const file = deleted ? link.slice(0, -' (deleted)'.length) : link;
  const [running, onDisk] = await Promise.all([fs.stat(exe).catch(() => null), fs.stat(file).catch(() => null)]);
  if (onDisk === null) return { path: file, change: 'removed' };
  // The running file's stat needs the link followed (only on a real /proc); without it, the kernel's mark alone tells.
  const other = deleted || (running !== null && (running.ino !== onDisk.ino || (running.birthtimeMs ?? null) !== (onDisk.birthtimeMs ?? null)));
  return { path: file, change: other ? 'replaced' : null };
}

/** argv[0] of process `pid` (/proc/PID/cmdline, readable by any user, proc(5); 64 KiB at most), or null. */
async function argv0Of(fs: HostFs, pid: number): Promise<string | null> {
  return fs.readFile(`/proc/${pid}/cmdline`, { maxBytes: 64 * 1024 }).then((b) => parseCmdline(b)[0] ?? null, () => null);
}

/**
 * How the file at `binary` (a host path; a symlink is followed, as exec(2) did) differs from the
 * file process `pid` runs (runningExecutable, whose path is the resolved one): `replaced`,
 * `removed`, or null when it is that file or the process was not started from `binary`. A process
 * whose /proc/PID/exe is neither `binary` nor where its links lead now is compared only when its
 * argv[0] is `binary` (the units exec the engine as the state names it): then the link was moved
 * to another file since (an upgrade that points it at a new release), or the file is gone.
 */
async function binaryChange(fs: HostFs, binary: string, pid: number): Promise<'replaced' | 'removed' | null> {
  const exe = await runningExecutable(fs, pid);
  if (!exe) return null;
  if (exe.path === binary || exe.path === (await fs.realpath(binary).catch(() => null))) return exe.change;
  // Not that file: a PID now another program's is not compared.
  if ((await argv0Of(fs, pid)) !== binary) return null;
  return (await fs.stat(binary)) === null ? 'removed' : 'replaced';
}

/**
 * The running proxy's version: its binary as the state file records it (`engineBinary`, a host
 * path), else — a user who cannot read root's 0700 state directory — the absolute argv[0] of
 * process `pid`. Null with the reason when neither names the binary, or when the binary is no
 * longer the file process `pid` runs (binaryChange: replaced or removed since it started, also
 * behind a symlink; only root can look, a user's status asks the binary as it is).
 */
export async function runningEngineVersion(fs: HostFs, exec: Exec, engine: EngineName, engineBinary: string | null | undefined, pid: number | null): Promise<EngineVersion> {
  if (engineBinary) {
    const change = pid ? await binaryChange(fs, engineBinary, pid) : null;
    if (change) return { version: null, unknown: `${engineBinary} is not the file the running proxy (PID ${pid}) was started from: it was ${change} since, so its --version would not be the running one's` };
    return engineVersion(exec, engine, fs.real(engineBinary), pid);
  }
  const argv0 = pid ? await argv0Of(fs, pid) : null;
  if (argv0?.startsWith('/')) return engineVersion(exec, engine, fs.real(argv0), pid);
  return { version: null, unknown: 'neither the state file nor the proxy process names its binary' };
}
