/**
 * Polls while the calling component is mounted (its view is on screen) and the page is visible:
 * `fn` runs every `ms` (a run still in flight is not overlapped: the tick is skipped), and once
 * at once when the page becomes visible again. Intervals come from shared/cadence.ts.
 */
import { useEffect, useRef } from 'react';

/** Calls `fn` every `ms` while mounted and `document.visibilityState` is `visible`. */
export function usePoll(fn: () => Promise<unknown> | void, ms: number): void {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => {
    let busy = false;
    const tick = () => {
      if (busy || document.visibilityState !== 'visible') return;
      busy = true;
      void Promise.resolve(latest.current()).finally(() => {
        busy = false;
      });
    };
    const timer = setInterval(tick, ms);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ms]);
}
