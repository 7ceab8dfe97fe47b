/**
 * The running proxy engine's version for status (`engineVersion`): its binary's `--version`
 * output — `dnsproxy version v0.83.1` (AdGuard dnsproxy, docs/engines.md "dnsproxy version"),
 * `Dnsmasq version 2.90  Copyright …` (dnsmasq(8) --version). Asked once per binary and proxy
 * PID in this process (a window polls status; a new run or binary asks again).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { ENGINES, type EngineName } from '../../../shared/engines/table';
import { parseCmdline } from './own-proxy';

/** The version, or null with why it cannot be known (`unknown`, a sentence fragment). */
export interface EngineVersion {
  version: string | null;
  unknown?: string;
}

/** The version token each engine's `--version` prints first: `v0.83.1` (dnsproxy), `2.90` (dnsmasq). */
export function parseEngineVersion(engine: EngineName, stdout: string): string | null {
  const m = ENGINES[engine].versionPattern.exec(stdout);
  return m ? m[1]! : null;
}

/** `text` with control characters (C0, DEL, C1) and U+FFFD (bytes that were no UTF-8) as `?`: it is quoted to a terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?');
}

const asked = new Map<string, Promise<EngineVersion>>();

/**
 * `binary --version` (a real path on this machine, 2 s deadline, 64 KiB of output) parsed for `engine`; the answer
 * is kept for `pid`. Never rejects: a binary that cannot run or prints no version gives null
 * with the reason.
 */
export function engineVersion(exec: Exec, engine: EngineName, binary: string, pid: number | null): Promise<EngineVersion> {
  const key = `${engine}\0${binary}\0${pid ?? ''}`;
  const known = asked.get(key);
  if (known) return known;
  // 64 KiB of output at most: a version is one line; a binary printing without end is cut.
  const answer = exec.run(binary, ['--version'], { timeoutMs: 2000, maxOutputChars: 64 * 1024 }).then(
    (r): EngineVersion => {
      // Killed (nodeExec.run: the deadline, or output without end): what it printed is cut.
      if (r.code === null) return { version: null, unknown: `${binary} --version did not finish (ended after 2 s or 64 KiB of output)` };
      const version = r.code === 0 ? parseEngineVersion(engine, r.stdout) : null;
      return version !== null ? { version } : { version: null, unknown: `${binary} --version printed no version (${printable((r.stderr || r.stdout).trim().split('\n')[0]?.slice(0, 120) ?? '') || `exit ${r.code ?? 'by a signal'}`})` };
    },
    (err: unknown): EngineVersion => ({ version: null, unknown: `${binary} --version could not run (${(err as Error).message})` }),
  );
  asked.clear();
  asked.set(key, answer);
  return answer;
}

/**
 * The running proxy's version: its binary as the state file records it (`engineBinary`, a host
 * path), else — a user who cannot read root's 0700 state directory — the absolute argv[0] of
 * process `pid` (/proc/PID/cmdline, readable by any user, proc(5)). Null with the reason when
 * neither names the binary, or when the binary is no longer the file process `pid` runs
 * (replaced or removed since it started: /proc/PID/exe names another inode, proc(5); only root
 * can look, a user's status asks the binary as it is).
 */
export async function runningEngineVersion(fs: HostFs, exec: Exec, engine: EngineName, engineBinary: string | null | undefined, pid: number | null, procDir = '/proc'): Promise<EngineVersion> {
  if (engineBinary) {
    const binary = fs.real(engineBinary);
    if (pid) {
      // Only a process started from that path (argv[0]) is compared: a PID now another program's is not.
      const dir = path.join(procDir, String(pid));
      const [argv0, running, onDisk] = await Promise.all([
        fsp.readFile(path.join(dir, 'cmdline')).then((b) => parseCmdline(b)[0] ?? null, () => null),
        fsp.stat(path.join(dir, 'exe')).catch(() => null),
        fsp.stat(binary).catch(() => null),
      ]);
      if (argv0 === binary && running && (running.ino !== onDisk?.ino || running.dev !== onDisk.dev)) return { version: null, unknown: `${engineBinary} is not the file the running proxy (PID ${pid}) was started from: it was ${onDisk ? 'replaced' : 'removed'} since, so its --version would not be the running one's` };
    }
    return engineVersion(exec, engine, binary, pid);
  }
  const argv0 = pid ? await fsp.readFile(path.join(procDir, String(pid), 'cmdline')).then((b) => parseCmdline(b)[0] ?? null, () => null) : null;
  if (argv0?.startsWith('/')) return engineVersion(exec, engine, argv0, pid);
  return { version: null, unknown: 'neither the state file nor the proxy process names its binary' };
}
