/**
 * The capture companion's switch to idle priority, once its capture is open: util-linux
 * chrt(1) `--idle -a -p 0 PID` for the companion, tcpdump and the parser (every thread of each;
 * threads and children made later inherit it, sched(7)). SCHED_IDLE runs a task only on CPU
 * nothing else wants, so the log yields the CPU to DNS. Not from the start: a Node start-up under
 * SCHED_IDLE waits behind every other task (`node -e 0` beside two busy loops on 2 cores: 0.10 s
 * normal, 3.7 s idle), which on a busy host would outlast start's wait for the capture (12 s).
 * And back to normal for the stop (goNormal): its drain must hand the last rows over within
 * about a second (pipeline.ts), which an idle-priority tcpdump and parser would not get on a busy host.
 *
 * SCHED_IDLE alone only yields to tasks of the same scheduling group. The companion runs in a
 * session of its own (a detached start, or its own systemd service, which calls setsid), and
 * with autogroup on (sched(7) "The autogroup feature", CONFIG_SCHED_AUTOGROUP, Debian's default)
 * each session is a group that competes with the proxy's session as an equal at nice 0: the
 * kernel compares the groups, not the tasks in them (kernel/sched/fair.c find_matching_se), so
 * a dnsproxy thread woken onto a CPU the tree held waited for it (perf sched, 2,000 qps: ~10 %
 * of such wake-ups waited > 0.1 ms, up to 1.7–3.7 ms; scripts/bench/sched-probe.ts). So the
 * switch also sets the nice value of the tree's autogroup to AUTOGROUP_NICE (proc(5)
 * /proc/PID/autogroup; weight 15 against the proxy's 1,024) and goNormal sets it back.
 * That takes the CPU from the tree's group at the scheduler's next pick, not at a dnsproxy
 * wake-up: since Linux 6.12 a SCHED_IDLE task is preempted at wake-up only by a task of its own
 * group, and between groups EEVDF lets the running one finish its slice (RUN_TO_PARITY; 1.4 ms on
 * 2 CPUs), whatever its weight — measured and explained in docs/query-log.md ("Why the group's nice
 * value is not enough").
 */
import { execFile } from 'node:child_process';
import { constants as fsc, promises as fsp } from 'node:fs';
import { isKeeperArgv } from '../host/keeper-name';
import { isCaptureArgv } from './capture-args';

/** Where chrt is looked for (fixed paths, as tcpdump-path.ts: root never searches a caller's PATH). */
export const CHRT_PATHS = ['/usr/bin/chrt', '/bin/chrt'] as const;

/** What the companion says once when the switch could not be made; null when it was. */
export type GoIdleOutcome = { idle: true; why: null } | { idle: false; why: string };

/** The nice value the tree's autogroup gets while it is idle (sched(7): the group's CPU share; 19 is the least). */
export const AUTOGROUP_NICE = 19;

/** What the companion says, after its time, when chrt is missing. */
export const NO_CHRT_WORDS = 'chrt (util-linux) is not installed: the exact query log runs at normal priority and competes with DNS for the CPU (install util-linux).';

/**
 * Sets SCHED_IDLE on every thread of each of `pids` with the first executable of `paths`.
 * Resolves how it went: `why` names a missing chrt (NO_CHRT_WORDS) or chrt's own error for the
 * first pid it failed on (e.g. a seccomp filter refusing sched_setscheduler). Never rejects.
 */
export async function goIdle(pids: readonly number[], paths: readonly string[] = CHRT_PATHS, proc = '/proc', leaders: readonly number[] = pids): Promise<GoIdleOutcome> {
  await setAutogroupNice(pids, AUTOGROUP_NICE, proc, leaders);
  const chrt = await findChrt(paths);
  if (chrt === null) return { idle: false, why: NO_CHRT_WORDS };
  const errors = await chrtAll(chrt, '--idle', pids);
  const failed = errors.find((e) => e !== null);
  return failed ? { idle: false, why: `chrt could not set idle priority (SCHED_IDLE): ${failed}; the exact query log runs at normal priority and competes with DNS for the CPU.` } : { idle: true, why: null };
}

/** Sets SCHED_OTHER (normal priority) on every thread of each of `pids` again; errors are ignored (the stop goes on). */
export async function goNormal(pids: readonly number[], paths: readonly string[] = CHRT_PATHS, proc = '/proc', leaders: readonly number[] = pids): Promise<void> {
  const chrt = await findChrt(paths);
  await Promise.all([chrt !== null ? chrtAll(chrt, '--other', pids) : null, setAutogroupNice(pids, 0, proc, leaders)]);
}

/**
 * The autogroup of a /proc/PID/autogroup text (proc(5): `/autogroup-ID nice N`): its id and nice
 * value, or null for another text (a kernel without autogroup has no such file).
 */
export function autogroupOf(text: string): { id: string; nice: number } | null {
  const m = /^\/autogroup-(\d+) nice (-?\d+)\s*$/.exec(text);
  return m ? { id: m[1]!, nice: Number(m[2]) } : null;
}

/** The parent's pid in a /proc/PID/stat text (proc(5): field 4, counted after the last `)`), or null. */
export function parentOf(statText: string): number | null {
  const close = statText.lastIndexOf(')');
  const v = close < 0 ? undefined : statText.slice(close + 1).trim().split(/\s+/)[4 - 3];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/** The session id in a /proc/PID/stat text (proc(5): field 6, counted after the last `)` as schedPolicyOf does), or null. */
export function sessionOf(statText: string): number | null {
  const close = statText.lastIndexOf(')');
  const v = close < 0 ? undefined : statText.slice(close + 1).trim().split(/\s+/)[6 - 3];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/**
 * The session leaders whose autogroup is the capture tree's: the companion `pid` itself (its
 * systemd unit makes it one, systemd.exec(5)), and its parent `ppid` only when /proc/PPID/cmdline
 * is its keeper shell (capture-keeper.ts, started detached: a session of its own). Any other parent
 * that leads a session — a root login shell `k2s-dns capture-watch` was typed into, sudo's monitor,
 * PID 1 after the keeper died — is not the tree's: its whole session would go to nice 19. Never rejects.
 */
export async function treeLeaders(pid: number, ppid: number, proc = '/proc'): Promise<number[]> {
  const argv = await fsp.readFile(`${proc}/${ppid}/cmdline`, 'utf8').then((t) => t.split('\0'), () => [] as string[]);
  return ppid > 1 && isKeeperArgv(argv) ? [pid, ppid] : [pid];
}

/**
 * Sets the nice value of each autogroup that one of `pids` is in, once per group (the kernel
 * allows one change per 100 ms without CAP_SYS_ADMIN, kernel/sched/autogroup.c), and only for
 * pids in a session one of `leaders` leads: an autogroup is a session's (sched(7)). The
 * companion passes treeLeaders: itself (its systemd service is a session of its own) and its
 * keeper's shell (capture-keeper.ts leads the session without systemd); a companion run by a test
 * harness is in its launcher's session, whose priority is not the log's to change. Never rejects: a kernel without
 * autogroup, a pid gone or a refused write leave the group as it was, which costs DNS latency,
 * not the log. Each pid through setGroupNice: a pid reused meanwhile is left alone.
 */
export async function setAutogroupNice(pids: readonly number[], nice: number, proc = '/proc', leaders: readonly number[] = pids): Promise<void> {
  const done = new Set<string>();
  for (const pid of pids) {
    await setGroupNice(pid, nice, proc, done, async (stat) => {
      const session = sessionOf(stat);
      return session !== null && leaders.includes(session);
    });
  }
}

/** What setGroupNice did: `written`, `kept` (the group already had the value, was done, or `ours` said no), or `gone` (no such process, or it ended before the write). */
export type GroupNiceOutcome = 'written' | 'kept' | 'gone';

/**
 * Sets the nice value of `pid`'s autogroup when `ours(statText)` says the process is the one
 * meant (it may read more of /proc/PID by path). Never rejects.
 *
 * No pid reuse in between: /proc/PID/autogroup is opened first, and the group is read and
 * written through that descriptor. A /proc/PID file keeps the process it was opened for, not
 * its number: once that process has ended (been reaped), reads and writes through it fail with
 * ESRCH even when a new process has the number (proc(5) "/proc/pid"; fs/proc/base.c
 * proc_sched_autogroup_write → get_proc_task). A number is not reused before its process is
 * reaped, so when the write goes through, every /proc/PID read by path between the open and
 * the write (stat, cmdline) was that process's. Measured in a PID namespace of its own, the
 * number handed to a new process (ns_last_pid) between the open and the write: `gone`, the new
 * process's group untouched, where a write by path set it to 19. The write is at the descriptor's offset 0, after a truncate: the file is a
 * seq_file, which refuses pwrite (ESPIPE; fs/seq_file.c seq_open), and the group is read with
 * pread, which leaves the offset at 0.
 */
export async function setGroupNice(pid: number, nice: number, proc: string, done: Set<string>, ours: (statText: string) => Promise<boolean>): Promise<GroupNiceOutcome> {
  const fh = await fsp.open(`${proc}/${pid}/autogroup`, 'r+').catch(() => null);
  if (fh === null) return 'gone';
  try {
    const stat = await fsp.readFile(`${proc}/${pid}/stat`, 'utf8').catch(() => '');
    if (stat === '' || !(await ours(stat))) return 'kept';
    const buf = Buffer.alloc(128);
    const read = await fh.read(buf, 0, buf.length, 0).catch(() => null);
    if (read === null) return 'gone';
    const group = autogroupOf(buf.subarray(0, read.bytesRead).toString('utf8'));
    if (group === null || done.has(group.id)) return 'kept';
    done.add(group.id);
    if (group.nice === nice) return 'kept';
    // procfs takes the truncate and ignores it (as writeFile's O_TRUNC); a plain file (a test's /proc) needs it.
    await fh.truncate(0).catch(() => undefined);
    return (await fh.write(`${nice}\n`).then(() => true, () => false)) ? 'written' : 'gone';
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Sets the autogroup of the companion `pid`'s tree back to nice 0 from outside the tree: stop
 * calls it before its SIGTERM, so the drain does not first wait for the companion's own goNormal,
 * which runs at idle priority in a group at 19 (40 wake-ups of a SCHED_IDLE process beside three
 * busy loops on 2 cores: up to 52–121 ms late in a nice-19 autogroup, ≤ 4 ms at nice 0). Only for a pid whose /proc/PID/cmdline is a companion's
 * and the sessions treeLeaders names for it, both read inside setGroupNice: a pid the companion
 * left and another process took, even meanwhile, is left alone. Never rejects.
 */
export async function treeToNormal(pid: number | null, proc = '/proc'): Promise<void> {
  if (pid === null || !Number.isInteger(pid) || pid <= 1) return;
  await setGroupNice(pid, 0, proc, new Set(), async (stat) => {
    const argv = await fsp.readFile(`${proc}/${pid}/cmdline`, 'utf8').then((t) => t.split('\0'), () => [] as string[]);
    if (!isCaptureArgv(argv)) return false;
    const ppid = parentOf(stat);
    const leaders = ppid === null ? [pid] : await treeLeaders(pid, ppid, proc);
    const session = sessionOf(stat);
    return session !== null && leaders.includes(session);
  });
}

/** The first executable of `paths`, or null. */
async function findChrt(paths: readonly string[]): Promise<string | null> {
  for (const p of paths) if (await fsp.access(p, fsc.X_OK).then(() => true, () => false)) return p;
  return null;
}

/**
 * Runs `chrt POLICY -a -p 0 PID` for each pid at once; resolves each one's error (chrt's last stderr line) or null.
 * chrt takes a number, not a descriptor (not closed here, unlike setGroupNice): the pids are the
 * companion itself and its own children (tcpdump, the parser), whose numbers are free for reuse
 * only after the companion reaped them, so the window is a child that ended just before.
 */
function chrtAll(chrt: string, policy: '--idle' | '--other', pids: readonly number[]): Promise<(string | null)[]> {
  return Promise.all(
    pids.map(
      (pid) =>
        new Promise<string | null>((resolve) => {
          execFile(chrt, [policy, '-a', '-p', '0', String(pid)], { timeout: 10_000 }, (err, _out, stderr) => resolve(err ? stderr.trim().split('\n').at(-1) || err.message : null));
        }),
    ),
  );
}
