/**
 * The capture companion's loss line (CAPTURE_UNWRITTEN_FILE, capture-main.ts) kept current
 * without a queue: on a slow disk rows-file.ts may drop a batch per event loop turn, and each
 * drop gives a new running total. Only the newest line matters, so at most one write runs and
 * one line waits.
 */

/** A writer of the newest line only. */
export interface LatestWriter {
  /** Writes `line` now, or after the write that runs (replacing any line that waited). */
  put(line: string): void;
  /** Resolves once nothing runs or waits. */
  settled(): Promise<void>;
}

/** `write` called one at a time with the newest line put; its errors are swallowed (best effort). */
export function latestOnly(write: (line: string) => Promise<void>): LatestWriter {
  let waiting: string | null = null;
  let running: Promise<void> | null = null;
  const run = (line: string): Promise<void> =>
    write(line)
      .catch(() => undefined)
      .then(() => {
        const next = waiting;
        waiting = null;
        running = next === null ? null : run(next);
        return running ?? undefined;
      });
  return {
    put(line) {
      if (running) waiting = line;
      else running = run(line);
    },
    async settled() {
      while (running) await running;
    },
  };
}
