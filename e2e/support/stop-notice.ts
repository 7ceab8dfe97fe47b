/**
 * Tells a user's further Ctrl-C during a stop from the copy npm sends along with the first.
 * A terminal's Ctrl-C signals the whole foreground process group, and npm forwards the same
 * signal to its script (@npmcli/run-script signal-manager.js): one key press arrives twice
 * within moments. A signal later than `echoMs` after the one before is the user's again.
 */

/** How close (ms) a signal may follow the one before and still count as the same key press. */
export const SIGNAL_ECHO_MS = 1000;

/** 'first' for the first stop signal, 'echo' for npm's copy of one, 'again' for a further press. */
export type StopSignalKind = 'first' | 'echo' | 'again';

/** A classifier of stop signals by their arrival time (ms, `now` by default Date.now). */
export function stopSignals(now: () => number = Date.now, echoMs = SIGNAL_ECHO_MS): () => StopSignalKind {
  let last: number | null = null;
  return () => {
    const t = now();
    const prev = last;
    last = t;
    if (prev === null) return 'first';
    return t - prev < echoMs ? 'echo' : 'again';
  };
}

/** The line a further Ctrl-C prints: still stopping, for how long (since `sinceMs`), and what it waits for. */
export function stillStoppingLine(elapsedMs: number, waitsFor: string): string {
  return `Still stopping (${(elapsedMs / 1000).toFixed(1)} s so far): waiting for ${waitsFor}.\n`;
}
