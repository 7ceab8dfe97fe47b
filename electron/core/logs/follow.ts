import { existsSync, promises as fsp, statSync, watch as fsWatch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { openForRead } from '../host/open-regular';
import { LineBuffer } from './line-buffer';
import { logReadError } from './tail';

/**
 * Default poll interval in ms: how often the file is read while it changes (inotify events are
 * batched to at most one read per interval), and every interval when it cannot be watched.
 */
export const FOLLOW_DEFAULT_POLL_MS = 250;
/**
 * While the file's directory is watched (inotify), the file is still read this often with no
 * event (ms): the net for a change no event shows (a network file system, a writer in another
 * kernel). Such a change is shown up to this much later; a local write shows within ~pollMs.
 */
export const FOLLOW_SAFETY_POLL_MS = 5000;

/** Watches directory `dir` (inotify via fs.watch); `onEvent(filename)` per event. Throws when it cannot; `onError` when the watch ends. */
export type DirWatch = (dir: string, onEvent: (filename: string | null) => void, onError: () => void) => () => void;

/** fs.watch on a directory, not keeping the process alive. */
export const fsDirWatch: DirWatch = (dir, onEvent, onError) => {
  const w = fsWatch(dir, { persistent: false }, (_event, filename) => onEvent(filename === null ? null : String(filename)));
  w.on('error', onError);
  return () => w.close();
};
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
  /** Called each time the file at the path is opened for reading (a read problem, if any, is over). Default: ignored. */
  onOpen?: () => void;
  /** How the file's directory is watched (default fsDirWatch); null: never watch, read every `pollMs`. */
  watch?: DirWatch | null;
  /** Reads with no event while watching, ms (default FOLLOW_SAFETY_POLL_MS). */
  safetyPollMs?: number;
  /**
   * Called when the lines read so far are gone from the log's file set: the file read was deleted
   * (`removed`) or another file took its place (`replaced`) while `<path>.1` does not hold it (that
   * is a rotation), or it was truncated (`truncated`) while `<path>.1` is missing or smaller than
   * what was read (a copytruncate rotation copies first). The old file's last lines are delivered
   * before it, the new file's after it.
   */
  onReset?: (reason: 'removed' | 'replaced' | 'truncated') => void;
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

/** st_ino and size of `path`, null when it cannot be read. */
async function statOrNull(path: string): Promise<{ ino: number; size: number } | null> {
  try {
    const st = await fsp.stat(path);
    return { ino: st.ino, size: st.size };
  } catch {
    return null;
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
  const rotatedPath = `${path}.1`;
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
  /** The not-a-regular-file error was reported for the current thing at `path`. */
  let notAFileSaid = false;

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
    let st: Awaited<ReturnType<fsp.FileHandle['stat']>>;
    try {
      // Non-blocking, regular files only: a FIFO at `path` would block a plain open(2) until a
      // writer comes, and with it this follower's stop and the process's exit (open-regular.ts).
      ({ handle: h, stat: st } = await openForRead(path, 'it', { regularOnly: true }));
    } catch (err) {
      const code = errnoOf(err);
      // Missing: wait for it to appear. Not a file: said once, then skipped like a missing one
      // until a regular file takes its place.
      if (code === 'EINVAL') {
        if (!notAFileSaid) report(err);
        notAFileSaid = true;
      } else if (code !== 'ENOENT') report(err);
      return;
    }
    notAFileSaid = false;
    handle = h;
    ino = st.ino;
    offset = 0;
    if (!stopped) opts.onOpen?.();
    if (initial !== null) {
      // Only the first file opened can continue at a given offset; a different inode means it
      // was rotated since the offset was taken, and a smaller size means it was truncated.
      if ((initial.ino === null || initial.ino === st.ino) && initial.offset <= st.size) offset = initial.offset;
      initial = null;
    }
  }

  /** One poll; returns true when more data is waiting (the per-poll cap was hit). */
  async function poll(): Promise<boolean> {
    let batch: string[] = [];
    let more = false;
    /** Delivers the lines read so far (the old file's), then the reset; later lines are the new file's. */
    const resetWith = (reason: 'removed' | 'replaced' | 'truncated'): void => {
      deliver(batch);
      batch = [];
      if (stopped) return;
      try {
        opts.onReset?.(reason);
      } catch (err) {
        if (!stopped) opts.onError?.(err instanceof Error ? err : new Error(String(err)));
      }
    };
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
          // A copytruncate rotation copied what was read to `.1` first; else those lines are gone.
          const copy = await statOrNull(rotatedPath);
          if (copy === null || copy.size < offset) resetWith('truncated');
          offset = 0;
        }
        // Rotation check by name, taken before draining: a new inode (or none) at `path` means
        // the file we hold was renamed away or deleted. Read the old file to its end first so
        // lines written just before the rename are not lost, then switch to the new file.
        const pathIno = await inoAt(path);
        more = await drain(h, batch);
        if (!more && pathIno !== ino) {
          const oldIno = ino;
          await closeCurrent(batch);
          // Renamed to `.1` (a rotation): its lines are still in the log's file set. Else the
          // file was deleted (Uninstall) or replaced: the lines read so far are gone.
          if ((await statOrNull(rotatedPath))?.ino !== oldIno) resetWith(pathIno === null ? 'removed' : 'replaced');
          if (pathIno !== null) {
            await openCurrent();
            if (handle !== null) more = await drain(handle, batch);
          }
        }
      }
    } catch (err) {
      report(err);
    }
    deliver(batch);
    return more;
  }

  /** Hands a non-empty batch to `onLines` (a throwing callback is reported, never thrown). */
  function deliver(batch: string[]): void {
    if (batch.length === 0 || stopped) return;
    try {
      onLines(batch);
    } catch (err) {
      // A throwing callback must not end the poll chain (an unhandled rejection).
      if (!stopped) opts.onError?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  // Wake-ups: inotify on the file's *directory* (fs.watch), not on the file: a directory watch
  // sees writes to the file (IN_MODIFY), logrotate's rename + create and a delete by name, where a
  // watch on the file's inode would keep following the renamed file. Events only wake the next
  // read (at most one per `pollMs`, so a busy log is still read in batches); the read itself
  // decides what changed, exactly as a plain poll would. A missing directory is watched through
  // its nearest existing parent. Where nothing can be watched (no inotify watches left, EACCES),
  // or a change shows no event (network file systems), the file is read every `pollMs`, or every
  // `safetyPollMs` while watching — an idle window then costs no read four times a second.
  const watchDir = opts.watch === undefined ? fsDirWatch : opts.watch;
  const safetyMs = Math.max(pollMs, opts.safetyPollMs ?? FOLLOW_SAFETY_POLL_MS);
  const fileDir = dirname(path);
  const fileName = basename(path);
  let unwatch: (() => void) | null = null;
  let watching = false;
  let lastPollAt = 0;
  let dueAt = 0;

  const closeWatch = (): void => {
    unwatch?.();
    unwatch = null;
    watching = false;
  };
  /** Watches the file's directory (or its nearest existing parent); false when it cannot. */
  const setUpWatch = (): boolean => {
    closeWatch();
    if (watchDir === null) return false;
    let dir = fileDir;
    while (dir !== dirname(dir) && !existsSync(dir)) dir = dirname(dir);
    // The one entry that matters here: the file itself, or the first missing directory on its path.
    const wanted = dir === fileDir ? fileName : fileDir.slice(dir === '/' ? 1 : dir.length + 1).split('/')[0]!;
    try {
      unwatch = watchDir(
        dir,
        (filename) => {
          if (filename !== null && filename !== wanted) return;
          // A parent's event: the path below it changed, set the watch up again at the next read.
          if (dir !== fileDir) closeWatch();
          wake();
        },
        () => {
          closeWatch();
          wake();
        },
      );
      watching = true;
    } catch {
      watching = false;
    }
    return watching;
  };
  const schedule = (delay: number): void => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    dueAt = Date.now() + delay;
    timer = setTimeout(() => {
      timer = null;
      lastPollAt = Date.now();
      polling = poll().then((more) => {
        polling = null;
        if (!watching) setUpWatch();
        schedule(more ? 0 : watching ? safetyMs : pollMs);
      });
    }, delay);
  };
  /** An event: read soon (not before `pollMs` after the last read), unless a read is in flight or due sooner. */
  let wakeAfterRead = false;
  function wake(): void {
    if (stopped) return;
    if (polling !== null) {
      // A read in flight may have missed this change: read again after it (at most pollMs later).
      if (!wakeAfterRead) {
        wakeAfterRead = true;
        void polling.then(() => {
          wakeAfterRead = false;
          wake();
        });
      }
      return;
    }
    const delay = Math.max(0, lastPollAt + pollMs - Date.now());
    if (timer !== null && dueAt <= Date.now() + delay) return;
    schedule(delay);
  }
  setUpWatch();
  schedule(0);

  return {
    stop(): void {
      if (stopped) return;
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      closeWatch();
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
