/**
 * The back-off of the proxy's watchdog (electron/core/host/supervisor-script.ts, hosts without
 * systemd) and the capture companion's keeper (electron/core/host/capture-keeper.ts): restart N
 * waits FIRST·2^(N−1) s after the exit, at most MAX (1, 2, 4, 8, 16, 30 s), the count and the
 * wait reset by a run of 60 s or more. Both scripts are written from these numbers, and the texts
 * that say a restart's wait read them here (walk finding: "restart 6 of 6 — wait a few seconds"
 * for a 30 s wait). Pure module: no Node or DOM imports.
 */

/** The first restart's wait and the longest one, seconds (the scripts' `delay`). */
export const WATCHDOG_BACKOFF_S = { first: 1, max: 30 } as const;

/** The seconds restart `restart` (1-based, the in-a-row count: "restart N of 6") sleeps after the exit before it starts the process again. */
export function watchdogDelayS(restart: number): number {
  return Math.min(WATCHDOG_BACKOFF_S.first * 2 ** Math.max(0, restart - 1), WATCHDOG_BACKOFF_S.max);
}

/** `restart N of MAX, D s after the exit` (watchdogDelayS): a watchdog restart as status, doctor and the window name it. */
export function watchdogRestartWords(w: { restarts: number; max: number }): string {
  return `restart ${w.restarts} of ${w.max}, ${watchdogDelayS(w.restarts)} s after the exit`;
}

/** `wait up to D s` for restart `restart` (watchdogDelayS: the exit may have been a moment ago, never longer ago than the status read). */
export function watchdogWaitWords(restart: number): string {
  return `wait up to ${watchdogDelayS(restart)} s`;
}
