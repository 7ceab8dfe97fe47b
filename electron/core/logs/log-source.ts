import { statSync } from 'node:fs';
import { parseLogLine } from '../../../shared/log-line';
import { HEALTH_PROBE_LABELS, hidesAsProbeLine } from '../../../shared/health-probe';
import type { LogCursor, LogLine, LogPage, LogReset, LogSearch } from '../../../shared/types';
import { readPage, searchLog } from './log-history';
import { FOLLOW_MAX_BYTES_PER_POLL, followLog, type Follower } from './follow';
import { LogReadError, readTail } from './tail';
import { stderrReadProblems, type ReadProblemReporter } from './read-problems';

/** Options of createLogSource. */
export interface LogSourceOptions {
  /** Poll interval of the shared follower in ms (default 250). */
  pollMs?: number;
  /** Read errors and exceptions thrown by subscribers; default: read errors to `problems`, others written to stderr. */
  onError?: (err: Error) => void;
  /** Hears read problems and reads that worked (default: this process's stderrReadProblems, which says each cause once). */
  problems?: ReadProblemReporter;
}

/** The proxy log as parsed lines: a backlog on demand and one shared live follower. */
export interface LogSource {
  /** The last `lines` lines of the log, parsed, oldest first ([] when the log is missing). */
  tail(lines: number): Promise<LogLine[]>;
  /**
   * A page of the history (current file and `.1`), oldest first: without `before` the last
   * `lines` lines (like tail, and a follower that starts soon after continues there).
   */
  page(lines: number, before?: LogCursor): Promise<LogPage>;
  /** Searches the whole file set (electron/logs/log-history.ts searchLog). */
  search(text: string, opts: { lines: number; context: number; probes?: boolean }): Promise<LogSearch>;
  /**
   * Subscribes to new lines (one call per batch); `onReset` hears that the log was removed,
   * replaced or emptied (followLog's onReset). Returns the unsubscribe function (idempotent).
   */
  follow(cb: (lines: LogLine[]) => void, onReset?: (reset: LogReset) => void): () => void;
}

/** Parses raw lines, skipping blank ones (they carry nothing in a log view). */
function parseAll(raw: string[]): LogLine[] {
  const out: LogLine[] = [];
  for (const line of raw) if (line.trim() !== '') out.push(parseLogLine(line));
  return out;
}

/** How long after a tail a new follower may continue at its offset, ms. */
export const TAIL_RESUME_WINDOW_MS = 5000;

/**
 * Creates the log source for the proxy log at `path` (a real path on this machine). All
 * `follow` subscribers share one poller (reference counted): it starts with the first
 * subscriber and stops when the last one unsubscribes. When it starts shortly after a `tail`
 * of the same file, it continues at that tail's offset so no line falls in between.
 */
export function createLogSource(path: string, opts: LogSourceOptions = {}): LogSource {
  const problems = opts.problems ?? stderrReadProblems;
  const onError = opts.onError ?? ((err: Error) => (err instanceof LogReadError ? problems.problem(path, err) : console.error(`k2s-dns logs: ${err.message}`)));
  const readable = () => problems.readable(path);
  const subscribers = new Set<{ cb: (lines: LogLine[]) => void; onReset?: (reset: LogReset) => void }>();
  let follower: Follower | null = null;
  let lastTail: { offset: number; ino: number; at: number } | null = null;

  /** Start offset for a new poller: the last tail's end if it is the same file and close enough. */
  function resumeFrom(): { startOffset?: number; startIno?: number | null } {
    // Only a tail taken just before this follow (the page's open-at-the-tail), and only once:
    // an old tail would replay lines a later page already has from its own tail.
    const tail = lastTail;
    lastTail = null;
    if (tail === null || Date.now() - tail.at > TAIL_RESUME_WINDOW_MS) return {};
    try {
      const st = statSync(path);
      const gap = st.size - tail.offset;
      // Replaying at most one poll's worth of bytes; an older tail is stale, start at the end.
      if (st.ino === tail.ino && gap >= 0 && gap <= FOLLOW_MAX_BYTES_PER_POLL) {
        return { startOffset: tail.offset, startIno: tail.ino };
      }
    } catch {
      // Missing now: followLog waits for it and reads it from 0.
    }
    return {};
  }

  function deliver(raw: string[]): void {
    const parsed = parseAll(raw);
    if (parsed.length === 0) return;
    // Snapshot: a subscriber may unsubscribe (or subscribe) from inside its callback.
    for (const sub of [...subscribers]) {
      if (!subscribers.has(sub)) continue;
      try {
        sub.cb(parsed);
      } catch (err) {
        // One broken subscriber must not starve the others or kill the poller.
        onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  function deliverReset(reason: LogReset['reason']): void {
    const reset: LogReset = { reason, path, at: Date.now() };
    for (const sub of [...subscribers]) {
      if (!subscribers.has(sub)) continue;
      try {
        sub.onReset?.(reset);
      } catch (err) {
        onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  return {
    async tail(lines: number): Promise<LogLine[]> {
      const res = await readTail(path, lines);
      readable();
      lastTail = res.ino === null ? null : { offset: res.offset, ino: res.ino, at: Date.now() };
      return parseAll(res.lines);
    },

    async page(lines: number, before?: LogCursor): Promise<LogPage> {
      const res = await readPage(path, lines, before);
      readable();
      if (!before) lastTail = res.end === null ? null : { offset: res.end.offset, ino: res.end.ino, at: Date.now() };
      return { lines: parseAll(res.lines), older: res.older, lost: res.lost, files: res.files };
    },

    async search(text, o) {
      // A probe line names the cluster name as the probes spell it (case-sensitive marker); the
      // engine's ERROR/WARN lines about a probe's query stay (hidesAsProbeLine).
      const marker = `${HEALTH_PROBE_LABELS}.svc.`;
      const exclude = (l: string) => l.includes(marker) && hidesAsProbeLine(parseLogLine(l), true);
      const res = await searchLog(path, text, { maxLines: o.lines, context: o.context, ...(o.probes ? {} : { exclude }) });
      return { text, lines: parseAll(res.lines), matches: res.matches, truncated: res.truncated, bytesScanned: res.bytesScanned, files: res.files, tookMs: res.tookMs };
    },

    follow(cb: (lines: LogLine[]) => void, onReset?: (reset: LogReset) => void): () => void {
      const sub = { cb, onReset };
      subscribers.add(sub);
      if (follower === null) {
        follower = followLog(path, deliver, { pollMs: opts.pollMs, onError, onOpen: readable, onReset: deliverReset, ...resumeFrom() });
      }
      return () => {
        if (!subscribers.delete(sub)) return;
        if (subscribers.size === 0 && follower !== null) {
          follower.stop();
          follower = null;
        }
      };
    },
  };
}
