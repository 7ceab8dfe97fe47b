/**
 * The timer behind usePoll, without React (so it can be tested with fake timers): runs `fn`
 * every `ms` while `visible()`; once at once when the page becomes visible again (`wake`).
 * By default a run still in flight is not overlapped (that tick is skipped). With `overlap` every
 * tick asks (for a store that drops stale answers itself, stores/cluster.ts): a request to an
 * API that stopped answering then cannot hold the next ask back until its own timeout.
 */

/** Options of startPoll. */
export interface PollOptions {
  /** Ask on every tick even while an earlier run is in flight (default false: skip the tick). */
  overlap?: boolean;
  /** Run once at start (the view opened with an answer older than its cadence). */
  atStart?: boolean;
}

/** A running poll: `wake` runs it now (page visible again), `stop` ends it. */
export interface PollLoop {
  wake(): void;
  stop(): void;
}

/** Starts calling `fn` every `ms` (ms) while `visible()` is true; see PollOptions. */
export function startPoll(fn: () => Promise<unknown> | void, ms: number, visible: () => boolean, opts: PollOptions = {}): PollLoop {
  let inFlight = 0;
  const tick = () => {
    if ((inFlight > 0 && !opts.overlap) || !visible()) return;
    inFlight++;
    void Promise.resolve()
      .then(fn)
      .catch(() => undefined)
      .finally(() => {
        inFlight--;
      });
  };
  const timer = setInterval(tick, ms);
  if (opts.atStart) tick();
  return {
    wake: tick,
    stop: () => clearInterval(timer),
  };
}
