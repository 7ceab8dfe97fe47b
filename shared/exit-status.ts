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
