/**
 * The capture companion's own children — tcpdump (capture/tcpdump-argv.ts) and the packet parser
 * (capture/parser-program.ts) — found before a stop and ended after it when the companion did not
 * take them down itself (it did not end on SIGTERM: stopped, hung; its keeper and then the
 * companion were SIGKILLed, capture-companion.ts). Without systemd no cgroup ends them: the kernel
 * hands orphans to PID 1 and they would go on capturing as nobody beside the next start's.
 *
 * Each child is recorded by identity — pid, start time (proc(5) /proc/PID/stat field 22,
 * `starttime`, clock ticks since boot: a pid and its start time name one process for the whole
 * boot) and argv — and SIGKILLed only while /proc/PID still shows that same start time and argv,
 * read just before the kill. Never by name, never a pid another process has taken since.
 *
 * Not the tree's process group, though the keeper is started detached (it leads its own session
 * and group, and the companion and its children inherit that group: credentials(7) "Process
 * groups and sessions"): by the time a leftover is ended the keeper, whose pid is the group's id,
 * has been SIGKILLed, so nothing of ours vouches for the group any more; kill(-PGID) reaches every
 * member, whatever it is (the keeper's `sleep`, a chrt, or — for a companion run by hand, which
 * writes the same ready file — the rest of the job of the root shell it was typed into); and once
 * its last member ends, the id is free for reuse like any pid (credentials(7)), so a group named
 * by number has the same reuse window as a pid, for every member at once. A recorded child is one
 * process checked by its own start time and argv; the one window left is that process ending, being
 * reaped and its pid handed to a new process between the check and kill(2).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PARSER_VERB } from '../capture/capture-args';
import { TCPDUMP_PATHS } from '../capture/tcpdump-path';
import { parentOf } from '../capture/go-idle';
import { processStartTime } from '../capture/hold-wait';
import { parseCmdline } from './own-proxy';
import { cksumOf, type RecordedChild } from '../capture/recorded-child';

/** One child of the companion as read from /proc before the stop. */
export interface CaptureChild {
  pid: number;
  /** /proc/PID/stat field 22 (proc(5)), as text. */
  startTime: string;
  argv: string[];
  /** What it is: the packet reader (tcpdump) or the parser. */
  role: 'tcpdump' | 'parser';
}

/**
 * What `argv` is of the companion's children, or null for anything else: tcpdump at one of its
 * fixed paths (TCPDUMP_PATHS) writing pcap to stdout as tcpdumpArgv has it (`-w -`, `-Z USER`);
 * the parser as parserProgram starts it, `NODE RUN_PATH` (`parserRunPath`: the real path of
 * PARSER_RUN_PATH) or `NODE --snapshot-blob BLOB -- PARSER_VERB`.
 */
export function captureChildRole(argv: readonly string[], parserRunPath: string): CaptureChild['role'] | null {
  const has = (a: string, b: string) => argv.some((w, i) => w === a && argv[i + 1] === b);
  if ((TCPDUMP_PATHS as readonly string[]).includes(argv[0] ?? '') && has('-w', '-') && argv.includes('-Z')) return 'tcpdump';
  if (argv.length === 2 && argv[1] === parserRunPath) return 'parser';
  if (argv.length === 5 && argv[1] === '--snapshot-blob' && argv[3] === '--' && argv[4] === PARSER_VERB) return 'parser';
  return null;
}

/** argv of `pid` from `procDir` ([] when gone or unreadable). */
const argvOf = (pid: number, procDir: string) => readFile(path.join(procDir, String(pid), 'cmdline')).then(parseCmdline, () => [] as string[]);

/**
 * The pids whose parent is `pid`: /proc/PID/task/TID/children of each of its threads (proc(5);
 * CONFIG_PROC_CHILDREN), or, on a kernel without those files, every /proc/N/stat whose field 4
 * (ppid) is `pid`. [] for a pid that is gone.
 */
async function childPids(pid: number, procDir: string): Promise<number[]> {
  const tids = await readdir(path.join(procDir, String(pid), 'task')).catch(() => null);
  if (tids === null) return [];
  const lists = await Promise.all(tids.map((t) => readFile(path.join(procDir, String(pid), 'task', t, 'children'), 'utf8').catch(() => null)));
  if (lists.some((l) => l !== null)) return lists.flatMap((l) => (l ?? '').split(/\s+/).filter((w) => /^\d+$/.test(w)).map(Number));
  const all = (await readdir(procDir).catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
  const parents = await Promise.all(all.map((n) => readFile(path.join(procDir, n, 'stat'), 'utf8').then(parentOf, () => null)));
  return all.filter((_, i) => parents[i] === pid).map(Number);
}

/**
 * The tcpdump and parser children (captureChildRole) of each of `companions` (pids already known
 * to be capture companions), with their start times, read from `procDir`. Never rejects: a child
 * gone meanwhile is left out.
 */
export async function captureChildren(companions: readonly number[], procDir: string, parserRunPath: string): Promise<CaptureChild[]> {
  const out: CaptureChild[] = [];
  for (const companion of new Set(companions)) {
    for (const pid of await childPids(companion, procDir)) {
      const [stat, argv] = await Promise.all([readFile(path.join(procDir, String(pid), 'stat'), 'utf8').catch(() => ''), argvOf(pid, procDir)]);
      const role = captureChildRole(argv, parserRunPath);
      const startTime = await processStartTime(pid, procDir);
      if (role === null || startTime === null || parentOf(stat) !== companion) continue;
      out.push({ pid, startTime, argv, role });
    }
  }
  return out;
}

/**
 * The children a companion recorded (capture/children-file.ts) that still run as those processes
 * (same start time, not a zombie; the same command line by its recorded cksum, as the keeper
 * checks it) with an argv of that role (captureChildRole): a companion killed
 * without its stop (kill -9) left them to PID 1, where captureChildren cannot find them by their
 * parent. Never rejects: one gone meanwhile is left out.
 */
export async function recordedCaptureChildren(recorded: readonly Pick<RecordedChild, 'pid' | 'startTime' | 'role' | 'cmdlineSum'>[], procDir: string, parserRunPath: string): Promise<CaptureChild[]> {
  const out: CaptureChild[] = [];
  for (const r of recorded) {
    const [startTime, cmdline] = await Promise.all([processStartTime(r.pid, procDir), readFile(path.join(procDir, String(r.pid), 'cmdline')).catch(() => null)]);
    if (startTime !== r.startTime || cmdline === null || cksumOf(cmdline) !== r.cmdlineSum) continue;
    const argv = parseCmdline(cmdline);
    if (captureChildRole(argv, parserRunPath) === r.role) out.push({ pid: r.pid, startTime, argv, role: r.role });
  }
  return out;
}

/** True while `c.pid` is still that child: same start time (not a zombie) and same argv. */
async function stillThere(c: CaptureChild, procDir: string): Promise<boolean> {
  if ((await processStartTime(c.pid, procDir)) !== c.startTime) return false;
  const argv = await argvOf(c.pid, procDir);
  return argv.length === c.argv.length && argv.every((w, i) => w === c.argv[i]);
}

/** ms ended children are waited for after their SIGKILL (a process in uninterruptible sleep dies when it leaves it; a busy 2-core host). */
export const CHILD_KILL_WAIT_MS = 3000;

/** A child endCaptureChildren could not end, and why ("still runs 3 s after SIGKILL", "SIGKILL refused: EPERM"). */
export interface ChildLeft extends CaptureChild {
  why: string;
}

/**
 * SIGKILLs each of `children` (captureChildren, read before the stop) that is still the same
 * process (start time and argv), then waits up to `waitMs` for those to be gone (a zombie counts
 * as gone). Resolves the ones still there after that, or whose kill failed; [] when none was
 * left (the companion's own stop ended them: nothing is signalled and nothing waited for).
 */
export async function endCaptureChildren(children: readonly CaptureChild[], procDir: string, kill: (pid: number, sig: NodeJS.Signals) => void = (p, s) => process.kill(p, s), waitMs = CHILD_KILL_WAIT_MS): Promise<ChildLeft[]> {
  const killed: CaptureChild[] = [];
  const failed: ChildLeft[] = [];
  for (const c of children) {
    if (!(await stillThere(c, procDir))) continue;
    try {
      kill(c.pid, 'SIGKILL');
      killed.push(c);
    } catch (err) {
      // ESRCH: it ended between the check and the kill.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ESRCH') failed.push({ ...c, why: `SIGKILL refused: ${code ?? String(err)}` });
    }
  }
  const deadline = Date.now() + waitMs;
  let left = killed;
  for (let wait = 1; ; wait = Math.min(20, wait * 2)) {
    left = (await Promise.all(left.map(async (c) => ((await stillThere(c, procDir)) ? c : null)))).filter((c): c is CaptureChild => c !== null);
    if (left.length === 0 || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  const secs = `still runs ${Math.round(waitMs / 100) / 10} s after SIGKILL`;
  return [...failed, ...left.map((c) => ({ ...c, why: secs }))];
}

/** The words for children endCaptureChildren could not end: "its tcpdump (PID 4242, /usr/bin/tcpdump) still runs 3 s after SIGKILL; …". */
export function childrenLeftWords(left: readonly ChildLeft[]): string {
  return left.map((c) => `its ${c.role === 'tcpdump' ? 'tcpdump' : 'packet parser'} (PID ${c.pid}, ${c.argv.slice(0, c.role === 'parser' ? 2 : 1).join(' ')}) ${c.why}`).join('; ');
}
