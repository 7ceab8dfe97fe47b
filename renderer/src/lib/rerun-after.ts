/**
 * One run at a time, and none lost: a call while a run is in flight does not start a second
 * concurrent run, but makes exactly one more run follow the current one (however many calls came
 * meanwhile), because what it wanted to see may have changed after the current run began (e.g.
 * Diagnostics asked again right after a Start while an older check still runs). `run` keeps its
 * own errors (the stores put them in state); one it throws rejects the waiting callers, drops the
 * queued run and frees the guard.
 */
export function rerunAfter(run: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | null = null;
  let again = false;
  return () => {
    if (current) {
      again = true;
      return current;
    }
    current = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        current = null;
      }
    })();
    return current;
  };
}
