/**
 * The CPU scheduling policy of a process, from /proc/PID/stat (proc(5): field 41 `policy`, the
 * SCHED_* number of sched.h). The exact query log's companion, tcpdump and the parser run with
 * SCHED_IDLE (sched(7): run only when the CPU has nothing else to do) once the capture is open
 * (go-idle.ts).
 */
import { readFile } from 'node:fs/promises';

/** SCHED_IDLE's number (linux/sched.h). */
export const SCHED_IDLE = 5;

/**
 * The policy number in a /proc/PID/stat text, null when it is not one. The second field (comm)
 * is in parentheses and may hold spaces or parentheses itself, so fields are counted after the
 * last `)`: the first after it is field 3 (state), so field 41 is the 39th.
 */
export function schedPolicyOf(statText: string): number | null {
  const close = statText.lastIndexOf(')');
  if (close < 0) return null;
  const v = statText.slice(close + 1).trim().split(/\s+/)[41 - 3];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/** True when this process runs with SCHED_IDLE (false when /proc cannot say). */
export async function runsIdle(statFile = '/proc/self/stat'): Promise<boolean> {
  return schedPolicyOf(await readFile(statFile, 'utf8').catch(() => '')) === SCHED_IDLE;
}
