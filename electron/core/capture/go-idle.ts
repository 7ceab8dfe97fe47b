/**
 * The capture companion's switch to idle priority, once its capture is open: util-linux
 * chrt(1) `--idle -a -p 0 PID` for the companion, tcpdump and the parser (every thread of each;
 * threads and children made later inherit it, sched(7)). SCHED_IDLE runs a task only on CPU
 * nothing else wants, so the log yields the CPU to DNS. Not from the start: a Node start-up under
 * SCHED_IDLE waits behind every other task (`node -e 0` beside two busy loops on 2 cores: 0.10 s
 * normal, 3.7 s idle), which on a busy host would outlast start's wait for the capture (12 s).
 * And back to normal for the stop (goNormal): its drain must hand the last rows over within
 * about a second (pipeline.ts), which an idle-priority tcpdump and parser would not get on a busy host.
 */
import { execFile } from 'node:child_process';
import { constants as fsc, promises as fsp } from 'node:fs';

/** Where chrt is looked for (fixed paths, as tcpdump-path.ts: root never searches a caller's PATH). */
export const CHRT_PATHS = ['/usr/bin/chrt', '/bin/chrt'] as const;

/** What the companion says once when the switch could not be made; null when it was. */
export type GoIdleOutcome = { idle: true; why: null } | { idle: false; why: string };

/** What the companion says, after its time, when chrt is missing. */
export const NO_CHRT_WORDS = 'chrt (util-linux) is not installed: the exact query log runs at normal priority and competes with DNS for the CPU (install util-linux).';

/**
 * Sets SCHED_IDLE on every thread of each of `pids` with the first executable of `paths`.
 * Resolves how it went: `why` names a missing chrt (NO_CHRT_WORDS) or chrt's own error for the
 * first pid it failed on (e.g. a seccomp filter refusing sched_setscheduler). Never rejects.
 */
export async function goIdle(pids: readonly number[], paths: readonly string[] = CHRT_PATHS): Promise<GoIdleOutcome> {
  const chrt = await findChrt(paths);
  if (chrt === null) return { idle: false, why: NO_CHRT_WORDS };
  const errors = await chrtAll(chrt, '--idle', pids);
  const failed = errors.find((e) => e !== null);
  return failed ? { idle: false, why: `chrt could not set idle priority (SCHED_IDLE): ${failed}; the exact query log runs at normal priority and competes with DNS for the CPU.` } : { idle: true, why: null };
}

/** Sets SCHED_OTHER (normal priority) on every thread of each of `pids` again; errors are ignored (the stop goes on). */
export async function goNormal(pids: readonly number[], paths: readonly string[] = CHRT_PATHS): Promise<void> {
  const chrt = await findChrt(paths);
  if (chrt !== null) await chrtAll(chrt, '--other', pids);
}

/** The first executable of `paths`, or null. */
async function findChrt(paths: readonly string[]): Promise<string | null> {
  for (const p of paths) if (await fsp.access(p, fsc.X_OK).then(() => true, () => false)) return p;
  return null;
}

/** Runs `chrt POLICY -a -p 0 PID` for each pid at once; resolves each one's error (chrt's last stderr line) or null. */
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
