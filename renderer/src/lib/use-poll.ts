/**
 * Polls while the calling component is mounted (its view is on screen) and the page is visible:
 * `fn` runs every `ms` (a run still in flight is not overlapped unless `opts.overlap`: the tick
 * is skipped), at mount when `opts.atStart`, and once at once when the page becomes visible
 * again. Intervals come from shared/cadence.ts; the timer is lib/poll-loop.ts.
 */
import { useEffect, useRef } from 'react';
import { startPoll, type PollOptions } from './poll-loop';

/** Calls `fn` every `ms` while mounted and `document.visibilityState` is `visible` (PollOptions). */
export function usePoll(fn: () => Promise<unknown> | void, ms: number, opts: PollOptions = {}): void {
  const latest = useRef(fn);
  latest.current = fn;
  // Read at mount only: the options say how this view opens and polls, not what it shows.
  const at = useRef(opts);
  useEffect(() => {
    const loop = startPoll(() => latest.current(), ms, () => document.visibilityState === 'visible', at.current);
    const onVisible = () => {
      if (document.visibilityState === 'visible') loop.wake();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      loop.stop();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ms]);
}
