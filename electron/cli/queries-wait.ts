/**
 * `k2s-dns queries` right after a query: a row reaches the exact log's file only once the
 * kernel hands tcpdump the ring block that holds its packets, when the block is full or
 * BLOCK_TIMEOUT_MS after it opened (core/capture/tcpdump-argv.ts), and the idle-priority parser
 * turned it into a row (measured on a 2-core host at load 2–3: 0.05–1.15 s after the answer).
 * So `dig …; k2s-dns queries` ran before that block was handed over found no row, or rows without
 * it. While the companion runs, queries then waits for the file to change — when it has nothing
 * to show, or when its newest row is older than BLOCK_TIMEOUT_MS (newestRowStale: a query since
 * may sit in the open block) — at most ROWS_WAIT_MS: inotify (fs.watch), no polling, and nothing
 * asked of the capture or the proxy. `--no-wait` reads once.
 */
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readRunFile } from '../core/capture/run-file';
import { BLOCK_TIMEOUT_MS } from '../core/capture/tcpdump-argv';
import { isCompanion } from '../core/capture/companion-pid';
import type { QueryRow } from '../../shared/query-log/row';
import { CAPTURE_UNIT_NAME } from '../../shared/capture-unit';
import { unitCgroupFile } from '../core/host/unit-cgroup-path';
import type { Exec } from '../core/host/exec';
import type { HostFs } from '../core/host/host-fs';

/**
 * Longest wait for a first row, ms: one block timeout and half a second for the parser, which
 * yields the CPU to everything else (go-idle.ts; 1.15 s was the longest measured from answer to
 * row, and this command's own start-up already passed since the query it looks for).
 */
export const ROWS_WAIT_MS = BLOCK_TIMEOUT_MS + 500;

/**
 * `read`, again each time `changed` resolves, until `shows` accepts what it read or `waitMs` (ms
 * on `now`'s clock) have passed since the first read; the last read either way. `changed(ms)`
 * resolves when the file changed or `ms` passed, whichever is first.
 */
export async function readUntilShown<T>(read: () => Promise<T>, shows: (r: T) => boolean, changed: (ms: number) => Promise<void>, now: () => number, waitMs = ROWS_WAIT_MS): Promise<T> {
  const deadline = now() + waitMs;
  let r = await read();
  for (let left = deadline - now(); !shows(r) && left > 0; left = deadline - now()) {
    await changed(left);
    r = await read();
  }
  return r;
}

/**
 * Resolves when `file` changes (inotify through fs.watch: a write, a rename at rotation) or after
 * `ms`, whichever is first; after `ms` alone when it cannot be watched (gone, not readable); at
 * once when `signal` aborts. The watch is in place when this returns.
 */
export function fileChanged(file: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let watcher: ReturnType<typeof watch> | null = null;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
    try {
      watcher = watch(file, { persistent: false }, done);
      watcher.on('error', done);
    } catch {
      // Not watchable: the timer alone ends the wait.
    }
  });
}

/**
 * Host path of the capture unit's cgroup events file (cgroup v2): `populated 1` while any process
 * of the unit runs, and a file-modified event at each change (the kernel's cgroup-v2
 * documentation, "cgroup.events"). Where systemd says the unit's cgroup is (host/unit-cgroup-path.ts:
 * its ControlGroup under the cgroup2 mount), else under /sys/fs/cgroup/system.slice/.
 */
export function captureCgroupEvents(fs: HostFs, exec: Exec): Promise<string> {
  return unitCgroupFile(fs, exec, `${CAPTURE_UNIT_NAME}.service`, 'cgroup.events');
}

/**
 * Longest wait for a stopped companion's end, ms: its drain takes at most BLOCK_TIMEOUT_MS + 200
 * (capture/pipeline.ts DRAIN_MAX_MS), then tcpdump's and the parser's exit (tens of ms; each
 * killed after 2 s, TERM_GRACE_MS).
 */
export const DRAIN_WAIT_MS = BLOCK_TIMEOUT_MS + 2_000;

/**
 * Resolves once the capture unit's cgroup (`eventsFile`, the real path of captureCgroupEvents) holds no process,
 * or after `ms`; at once when it holds none or cannot be read. `k2s-dns stop` on systemd sends the
 * companion its SIGTERM and returns without waiting for its drain (host/capture-companion.ts
 * endLeft): a `queries` right after would read the rows before its last ones are written. Asked
 * only while no companion runs by its ready file (companionRuns): a stopping one removed it.
 * inotify (fs.watch), no polling.
 */
export async function captureDrained(eventsFile: string, ms: number, now: () => number = () => performance.now()): Promise<void> {
  // Only `populated 0` or no file ends it (the kernel rewrites the file whole; a read of a
  // half-written one is not taken for an end).
  const populated = async () => {
    const text = await readFile(eventsFile, 'utf8').catch(() => null);
    return text !== null && !/^populated 0$/m.test(text);
  };
  const deadline = now() + ms;
  for (let left = ms; left > 0; left = deadline - now()) {
    // Watched before the read: an end between the two is not missed.
    const read = new AbortController();
    const changed = fileChanged(eventsFile, left, read.signal);
    if (!(await populated())) return read.abort();
    await changed;
  }
}

/**
 * True when the ready file at the real path `readyFile` (capture-args.ts CAPTURE_READY_FILE, 0644)
 * names a live companion: only then can a row still come (stopped, or never started, none will).
 */
export async function companionRuns(readyFile: string, procDir = '/proc'): Promise<boolean> {
  const text = ((await readRunFile(readyFile)) ?? '').trim();
  return /^\d+$/.test(text) && isCompanion(Number(text), procDir);
}

/**
 * A row's time (QueryRow.time: local ISO-8601 without an offset, to the µs) in ms since the
 * epoch, read as local time as ECMAScript's Date.parse reads a date-time without one; null when
 * it has none or it does not parse.
 */
export function rowTimeMs(time: string | null): number | null {
  if (time === null) return null;
  const ms = Date.parse(time.slice(0, 23));
  return Number.isNaN(ms) ? null : ms;
}

/**
 * True when the newest of `rows` (oldest first, as exact-log.ts gives them) was asked more than
 * `blockMs` (the ring block timeout) before `askedAtMs`, this command's start, or has no time, or
 * there is none: a query answered since may still be in the kernel's open block, so `queries`
 * waits for the file to change. False once a row that recent is in.
 */
export function newestRowStale(rows: readonly Pick<QueryRow, 'time'>[], askedAtMs: number, blockMs = BLOCK_TIMEOUT_MS): boolean {
  const newest = rowTimeMs(rows.at(-1)?.time ?? null);
  return newest === null || newest < askedAtMs - blockMs;
}
