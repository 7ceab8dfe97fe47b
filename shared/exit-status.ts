/** A process's exit status in words, as sh's `wait` reports it (sh(1) "Exit Status": 128 + N means killed by signal N). */
import { SIGNALS } from './systemd-show';

/** `137` → "killed by signal KILL (exit status 137)"; `1` → "exited with status 1". */
export function exitStatusWords(status: number): string {
  if (status > 128 && status < 160) {
    const n = status - 128;
    return `killed by signal ${SIGNALS[n] ?? n} (exit status ${status})`;
  }
  return `exited with status ${status}`;
}

/**
 * How a process ended (exitStatusWords, or systemd's `exited with status 1`, `killed by signal
 * KILL`, `killed by signal SEGV (core dumped)`: shared/systemd-show.ts) as the predicate of a
 * sentence about it: `killed …` becomes `was killed …`; other forms (`exited …`, `failed …`,
 * already `was killed …`) stay as they are.
 */
export function exitPredicate(how: string): string {
  return how.replace(/^killed\b/, 'was killed');
}

/** `the last run ` + exitPredicate(how): `the last run was killed by signal KILL`, `the last run exited with status 1`. */
export function lastRunWords(how: string): string {
  return `the last run ${exitPredicate(how)}`;
}
