/**
 * Waiting for a file another process writes (the capture companion's ready file): inotify on its
 * directory (fs.watch) wakes the wait at the write, where a fixed poll made each wait last until
 * its next period (20 ms: on average 10 ms of `start` spent after the file was there). A slow
 * poll stays as the fallback for a watch that cannot be set up (inotify limits) or misses.
 */
import { watch, type FSWatcher } from 'node:fs';

/** Fallback poll period, ms. */
export const WAIT_FILE_POLL_MS = 100;

/**
 * Resolves true once `exists()` resolves true — asked at once, at every event inotify reports in
 * the real directory `dir`, and every `pollMs` — or false when `timeoutMs` passed first. One
 * `exists()` runs at a time. Never rejects (a failing `exists()` counts as false). `signal`: its
 * abort ends the wait at once with false (one aborted already: no wait at all).
 */
export function waitForFile(exists: () => Promise<boolean>, dir: string, timeoutMs: number, pollMs = WAIT_FILE_POLL_MS, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    let running = false;
    let again = false;
    let watcher: FSWatcher | null = null;
    const aborted = () => finish(false);
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearInterval(poll);
      clearTimeout(deadline);
      watcher?.close();
      signal?.removeEventListener('abort', aborted);
      resolve(ok);
    };
    const check = () => {
      if (done) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      void exists()
        .catch(() => false)
        .then((yes) => {
          running = false;
          if (yes) finish(true);
          else if (again) {
            again = false;
            check();
          }
        });
    };
    const poll = setInterval(check, pollMs);
    const deadline = setTimeout(() => finish(false), timeoutMs);
    if (signal?.aborted) return finish(false);
    signal?.addEventListener('abort', aborted, { once: true });
    try {
      watcher = watch(dir, { persistent: false }, () => check());
      watcher.on('error', () => undefined); // the directory went away: the poll goes on
    } catch {
      watcher = null; // no inotify watch: the poll alone
    }
    check();
  });
}
