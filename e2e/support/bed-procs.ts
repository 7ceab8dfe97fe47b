/**
 * Which K2s DNS processes in the sandbox belong to which e2e file. Every sandbox e2e file of a run
 * shares the run's PID namespace, so a /proc walk also sees what an earlier file left running.
 * Each file is tagged by an environment variable (E2E_FILE_VAR, set by leak-setup.ts before its
 * tests): every process it starts inherits it (/proc/PID/environ is the environment a process
 * was exec'd with, proc(5)), unless given an environment of its own — the capture's parser is
 * (capture/pipeline.ts), and it is then owned through its parent, or through its session
 * (proc(5) stat field 6, kept when the parent dies and it is handed to PID 1) shared with a tagged
 * process; a process with no tagged relative (a booted Debian host's, whose commands run with a
 * clean environment) is this file's when it started after the file began (`since`).
 */
import { readFile, readdir } from 'node:fs/promises';
import { captureChildRole } from '../../electron/core/host/capture-children';
import { isKeeperArgv } from '../../electron/core/host/keeper-name';
import { isCaptureArgv, PARSER_RUN_PATH } from '../../electron/core/capture/capture-args';
import { isFollowerArgv } from '../../electron/core/host/follower';
import { WATCHDOG_NAME } from '../../electron/core/host/supervisor-script';

/** The variable naming the e2e file a process was started for (its path under the repo). */
export const E2E_FILE_VAR = 'K2S_DNS_E2E_FILE';

/** What a process is, by its argv (never by name alone, except the engines' own binaries). */
export type BedRole = 'keeper' | 'companion' | 'tcpdump' | 'parser' | 'follower' | 'watchdog' | 'engine';

/** One live (not zombie) process of the sandbox's PID namespace that has a BedRole. */
export interface BedProc {
  pid: number;
  ppid: number;
  /** Session id (proc(5) stat field 6). */
  sid: number;
  /** Start time (stat field 22, clock ticks after boot): with pid, one process for good. */
  startTime: number;
  role: BedRole;
  argv: string[];
  /** E2E_FILE_VAR of the process, or of the relative it is owned through; null when none says. */
  file: string | null;
}

/** The engines' binaries (e2e/bed/engines.ts), by the base name of argv[0]. */
const ENGINE_BINARIES = new Set(['dnsproxy', 'dnsmasq', 'coredns']);

/** The BedRole of `argv`, null for any other program. */
export function bedRole(argv: readonly string[]): BedRole | null {
  if (isKeeperArgv(argv)) return 'keeper';
  if (isCaptureArgv(argv)) return 'companion';
  const child = captureChildRole(argv, PARSER_RUN_PATH);
  if (child !== null) return child;
  if (argv[1] === '-c' && argv[3] === WATCHDOG_NAME) return 'watchdog';
  if (isFollowerArgv(argv)) return 'follower';
  if (ENGINE_BINARIES.has((argv[0] ?? '').split('/').at(-1)!)) return 'engine';
  return null;
}

interface Raw { pid: number; ppid: number; sid: number; startTime: number; argv: string[]; tag: string | null }

/** One /proc/PID read: stat fields after the command name, argv, and its E2E_FILE_VAR; null for a zombie or a gone pid. */
async function readProc(pid: number): Promise<Raw | null> {
  const [stat, cmdline, environ] = await Promise.all([
    readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''),
    readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
    readFile(`/proc/${pid}/environ`, 'utf8').catch(() => ''),
  ]);
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (f[0] === undefined || f[0] === '' || f[0] === 'Z') return null;
  const tagLine = environ.split('\0').find((e) => e.startsWith(`${E2E_FILE_VAR}=`));
  return { pid, ppid: Number(f[1]), sid: Number(f[3]), startTime: Number(f[19]), argv: cmdline.split('\0').filter(Boolean), tag: tagLine ? tagLine.slice(E2E_FILE_VAR.length + 1) : null };
}

/** Every live process with a BedRole, each with the file it was started for (see the file comment), by pid. */
export async function bedProcs(): Promise<BedProc[]> {
  const raws = (await Promise.all((await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map((d) => readProc(Number(d))))).filter((r): r is Raw => r !== null);
  const byPid = new Map(raws.map((r) => [r.pid, r]));
  // A session a tagged process leads or shares, away from this worker's own (the sandbox's one, where untagged processes live too).
  const ownSid = byPid.get(process.pid)?.sid;
  const sessionTag = new Map<number, string>();
  for (const r of raws) if (r.tag !== null && r.sid !== ownSid && !sessionTag.has(r.sid)) sessionTag.set(r.sid, r.tag);
  const fileOf = (r: Raw): string | null => {
    for (let p: Raw | undefined = r, hops = 0; p !== undefined && hops < 64; p = byPid.get(p.ppid), hops++) if (p.tag !== null) return p.tag;
    return sessionTag.get(r.sid) ?? null;
  };
  const out: BedProc[] = [];
  for (const r of raws) {
    const role = bedRole(r.argv);
    if (role !== null) out.push({ pid: r.pid, ppid: r.ppid, sid: r.sid, startTime: r.startTime, role, argv: r.argv, file: fileOf(r) });
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/** `pid:startTime` of every live process now: what a file found running when it began. */
export async function liveKeys(): Promise<Set<string>> {
  const raws = await Promise.all((await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map((d) => readProc(Number(d))));
  return new Set(raws.filter((r): r is Raw => r !== null).map((r) => `${r.pid}:${r.startTime}`));
}

/** The key liveKeys gives a process. */
export const procKey = (p: { pid: number; startTime: number }) => `${p.pid}:${p.startTime}`;

/** The key set of the processes that ran when this file began (leak-setup.ts), shared with the file's own module graph. */
const BASELINE = Symbol.for('k2s-dns.e2e.baseline');

/** Records what runs now as this file's beginning (once per file). */
export async function recordBaseline(): Promise<void> {
  (globalThis as Record<symbol, unknown>)[BASELINE] = await liveKeys();
}

/**
 * This file's processes: started for it (its E2E_FILE_VAR, or a relative's), or with no tagged
 * relative and not running when the file began. `file`: this file's tag (process.env's).
 */
export function isThisFiles(p: BedProc, file: string | undefined = process.env[E2E_FILE_VAR]): boolean {
  if (p.file !== null) return p.file === file;
  const base = (globalThis as Record<symbol, unknown>)[BASELINE] as Set<string> | undefined;
  return base === undefined || !base.has(procKey(p));
}

/** This file's live processes with a BedRole (isThisFiles). */
export async function ownBedProcs(): Promise<BedProc[]> {
  return (await bedProcs()).filter((p) => isThisFiles(p));
}
