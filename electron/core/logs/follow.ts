import { promises as fsp, statSync } from 'node:fs';
import { LineBuffer } from './line-buffer';
import { logReadError } from './tail';

/** Default poll interval in ms. */
export const FOLLOW_DEFAULT_POLL_MS = 250;
/** Bytes read per read(2) while following. */
const READ_CHUNK_BYTES = 64 * 1024;
/**
 * Most bytes read in one poll (1 MiB): bounds one batch's memory when a burst was appended;
 * the rest is read by the next poll, scheduled at once.
 */
export const FOLLOW_MAX_BYTES_PER_POLL = 1024 * 1024;

/** Options of followLog. */
export interface FollowOptions {
  /** Poll interval in ms (default 250). */
  pollMs?: number;
  /**
   * Byte offset to start at (e.g. readTail's `offset`). Default: the file's size when followLog
   * is called (only new lines), or 0 when the file does not exist yet.
   */
  startOffset?: number;
  /** st_ino that `startOffset` belongs to; if the file now has another inode it is read from 0. */
  startIno?: number | null;
  /** Called with read errors (e.g. permission denied) and errors thrown by `onLines`; following keeps polling. Default: ignored. */
  onError?: (err: Error) => void;
}

/** A running follower. */
export interface Follower {
  /** Stops polling and closes the file; no callback runs after stop() returns. Idempotent. */
  stop(): void;
}

function errnoOf(err: unknown): string {
  return typeof err === 'object' && err !== null ? ((err as NodeJS.ErrnoException).code ?? '') : '';
}

/** st_ino of `path` (following links), null when it does not exist. */
async function inoAt(path: string): Promise<number | null> {
  try {
    return (await fsp.stat(path)).ino;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Follows `path` like `tail -F`, delivering complete lines (no LF/CRLF) in file order, one
 * `onLines` call per poll that found any. A partial last line is held until its LF arrives.
 * Truncation (size < offset) restarts at 0; rotation (a new inode at `path`, e.g. logrotate's
 * rename + create) reads the rest of the old file, then the new one from 0; a missing file is
 * waited for. Lines over 64 KiB are cut with a marker. Never throws; errors go to `opts.onError`.
 */
export function followLog(path: string, onLines: (lines: string[]) => void, opts: FollowOptions = {}): Follower {
  const pollMs = Math.max(1, opts.pollMs ?? FOLLOW_DEFAULT_POLL_MS);
  const splitter = new LineBuffer();
  const readBuf = Buffer.allocUnsafe(READ_CHUNK_BYTES);

  // Where to begin in the first file we open. Taken synchronously at call time so lines
  // appended between this call and the first (async) poll are not skipped.
  let initial: { offset: number; ino: number | null } | null;
  if (opts.startOffset !== undefined) {
    initial = { offset: opts.startOffset, ino: opts.startIno ?? null };
  } else {
    try {
      const st = statSync(path);
      initial = { offset: st.size, ino: st.ino };
    } catch {
      initial = null; // missing: read it from 0 once it appears
    }
  }

  let handle: fsp.FileHandle | null = null;
  let ino: number | null = null;
  let offset = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;

  const report = (err: unknown): void => {
    if (!stopped) opts.onError?.(logReadError(path, err));
  };

  /** Reads from `offset` to EOF (or the per-poll cap) into `batch`; true when the cap was hit. */
  async function drain(h: fsp.FileHandle, batch: string[]): Promise<boolean> {
    let budget = FOLLOW_MAX_BYTES_PER_POLL;
    while (budget > 0) {
      const { bytesRead } = await h.read(readBuf, 0, Math.min(READ_CHUNK_BYTES, budget), offset);
      if (bytesRead === 0) return false;
      offset += bytesRead;
      budget -= bytesRead;
      for (const line of splitter.push(readBuf.subarray(0, bytesRead))) batch.push(line);
    }
    return true;
  }

  /** Closes the current file; its unterminated last line is delivered, it will never get an LF. */
  async function closeCurrent(batch: string[]): Promise<void> {
    const rest = splitter.flush();
    if (rest !== null) batch.push(rest);
    const h = handle;
    handle = null;
    ino = null;
    offset = 0;
    await h?.close().catch(() => undefined);
  }

  async function openCurrent(): Promise<void> {
    let h: fsp.FileHandle;
    try {
      h = await fsp.open(path, 'r');
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT') report(err);
      return; // missing: wait for it to appear
    }
    let st: Awaited<ReturnType<fsp.FileHandle['stat']>>;
    try {
      st = await h.stat();
    } catch (err) {
      await h.close().catch(() => undefined);
      throw err;
    }
    handle = h;
    ino = st.ino;
    offset = 0;
    if (initial !== null) {
      // Only the first file opened can continue at a given offset; a different inode means it
      // was rotated since the offset was taken, and a smaller size means it was truncated.
      if ((initial.ino === null || initial.ino === st.ino) && initial.offset <= st.size) offset = initial.offset;
      initial = null;
    }
  }

  /** One poll; returns true when more data is waiting (the per-poll cap was hit). */
  async function poll(): Promise<boolean> {
    const batch: string[] = [];
    let more = false;
    try {
      if (handle === null) await openCurrent();
      if (handle !== null) {
        const h = handle;
        const st = await h.stat();
        if (st.size < offset) {
          // Truncated (logrotate copytruncate, `: > file`): the held partial line belonged to
          // the old content. A truncate followed by regrowth past `offset` within one poll is
          // indistinguishable from an append by size alone (GNU tail has the same limit).
          const rest = splitter.flush();
          if (rest !== null) batch.push(rest);
          offset = 0;
        }
        // Rotation check by name, taken before draining: a new inode (or none) at `path` means
        // the file we hold was renamed away or deleted. Read the old file to its end first so
        // lines written just before the rename are not lost, then switch to the new file.
        const pathIno = await inoAt(path);
        more = await drain(h, batch);
        if (!more && pathIno !== ino) {
          await closeCurrent(batch);
          if (pathIno !== null) {
            await openCurrent();
            if (handle !== null) more = await drain(handle, batch);
          }
        }
      }
    } catch (err) {
      report(err);
    }
    if (batch.length > 0 && !stopped) {
      try {
        onLines(batch);
      } catch (err) {
        // A throwing callback must not end the poll chain (an unhandled rejection).
        if (!stopped) opts.onError?.(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return more;
  }

  // fs.watch (inotify) is not used: it watches an inode, so it misses logrotate's rename +
  // create, fires per write (no batching), and is unreliable inside mount namespaces and on
  // network/overlay filesystems. A stat(2) per poll is cheap and behaves the same everywhere.
  const schedule = (delay: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      polling = poll().then((more) => {
        polling = null;
        schedule(more ? 0 : pollMs);
      });
    }, delay);
  };
  schedule(0);

  return {
    stop(): void {
      if (stopped) return;
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      // Close after any in-flight poll so we never close a handle it is reading from.
      const closing = async (): Promise<void> => {
        await polling;
        await handle?.close().catch(() => undefined);
        handle = null;
      };
      void closing();
    },
  };
}
