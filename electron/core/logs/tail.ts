import { promises as fsp } from 'node:fs';
import { LineBuffer } from './line-buffer';
import { codeSpan } from '../../../shared/code-span';
import { openForRead } from '../host/open-regular';

/** Size of one backwards read, in bytes. */
export const TAIL_CHUNK_BYTES = 64 * 1024;
/** Default cap on bytes readTail reads (8 MiB), so a log of one endless line cannot stall it. */
export const TAIL_DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** Result of readTail. */
export interface TailResult {
  /** The last lines in file order, without LF/CRLF; a last line without LF is included. */
  lines: string[];
  /**
   * Byte offset to follow from: the file size when it was read (0 for a missing file). A last
   * line without LF is in `lines` and before `offset`; should the writer complete it later, the
   * follower delivers only the completion. dnsproxy and dnsmasq write each line with one
   * write(2), so in practice an unterminated last line means the file really ends there.
   */
  offset: number;
  /** st_ino of the file read, null when it is missing; followLog uses it to spot a rotation. */
  ino: number | null;
  /** Bytes actually read from the file (for benchmarks and the "never the whole file" test). */
  bytesRead: number;
}

function errnoOf(err: unknown): string {
  return typeof err === 'object' && err !== null ? ((err as NodeJS.ErrnoException).code ?? '') : '';
}

/**
 * A proxy log that exists but cannot be read; the message names the cause and the fix. `code`
 * LOG_UNREADABLE when this user may not read it (root:adm 0640, an expected state the window
 * shows: the web bridge answers it 200 with its `ok: false` envelope, shared/error-codes.ts);
 * absent for a fault (a directory or FIFO at the log path, an I/O error).
 */
export class LogReadError extends Error {
  override name = 'LogReadError';
  constructor(
    message: string,
    options?: ErrorOptions,
    readonly code?: 'LOG_UNREADABLE',
  ) {
    super(message, options);
  }
}

/** Wraps an open/read failure in a LogReadError naming the cause and the fix. */
export function logReadError(path: string, err: unknown): LogReadError {
  if (err instanceof LogReadError) return err;
  const code = errnoOf(err);
  if (code === 'EACCES' || code === 'EPERM') {
    // The log is root:adm 0640 (host/query-log.ts logOwnership: Debian's log-reading group), so a desktop user outside adm cannot read it.
    return new LogReadError(
      `Cannot read the proxy log ${path}: permission denied (it is readable by root and the group adm only). Add your user to adm (${codeSpan('sudo usermod -aG adm $USER')}, then log out and in again), or read it as root (${codeSpan(`sudo tail -f ${path}`)}).`,
      { cause: err },
      'LOG_UNREADABLE',
    );
  }
  if (code === 'EISDIR') {
    return new LogReadError(`Cannot read the proxy log ${path}: it is a directory; point the log path at the proxy's log file.`, { cause: err });
  }
  if (code === 'EINVAL' && err instanceof Error && /^it is /.test(err.message)) {
    // open-regular.ts: a FIFO or other non-file at the log path, skipped until a file replaces it.
    return new LogReadError(`Cannot read the proxy log ${path}: ${err.message}; replace it with the proxy's log file (rm it, then restart the proxy).`, { cause: err });
  }
  return new LogReadError(`Cannot read the proxy log ${path}: ${code || String(err)}; check that the file is a readable regular file.`, { cause: err });
}

/**
 * Reads the last `maxLines` lines of `path` like tail(1): seeks to the end and reads backwards in
 * TAIL_CHUNK_BYTES chunks until it has `maxLines` complete lines or has read `opts.maxBytes`
 * (default 8 MiB) — never the whole file. A missing or empty file gives `{lines: [], offset: 0}`.
 * CRLF is stripped, invalid UTF-8 becomes U+FFFD, lines over 64 KiB are cut with a marker.
 * Throws (with cause and fix) when the file exists but cannot be read.
 */
export async function readTail(path: string, maxLines: number, opts: { maxBytes?: number } = {}): Promise<TailResult> {
  const maxBytes = Math.max(1, opts.maxBytes ?? TAIL_DEFAULT_MAX_BYTES);
  let handle: fsp.FileHandle;
  try {
    // Non-blocking, and a FIFO refused (open-regular.ts): a plain open(2) of one waits for a writer.
    handle = (await openForRead(path, 'it')).handle;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return { lines: [], offset: 0, ino: null, bytesRead: 0 };
    throw logReadError(path, err);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    const size = st.size;
    if (size === 0 || maxLines <= 0) return { lines: [], offset: size, ino: st.ino, bytesRead: 0 };

    // Chunks are collected newest first; `starts` counts LFs that begin a line inside what was
    // read. The file's final LF ends the last line and begins nothing, so it is not counted.
    const chunks: Buffer[] = [];
    let pos = size;
    let bytesRead = 0;
    let starts = 0;
    while (pos > 0 && starts < maxLines && bytesRead < maxBytes) {
      const len = Math.min(TAIL_CHUNK_BYTES, pos, maxBytes - bytesRead);
      const buf = Buffer.allocUnsafe(len);
      const { bytesRead: got } = await handle.read(buf, 0, len, pos - len);
      // Short read: the file was truncated under us; keep the later chunks already read
      // (the first line is then dropped as incomplete) and stop.
      if (got !== len) break;
      const chunk = buf;
      pos -= len;
      bytesRead += got;
      chunks.unshift(chunk);
      const limit = pos + got === size ? got - 1 : got;
      for (let i = chunk.indexOf(0x0a); i !== -1 && i < limit; i = chunk.indexOf(0x0a, i + 1)) starts += 1;
    }

    let data = Buffer.concat(chunks, bytesRead);
    if (pos > 0) {
      // The first line in `data` began before `pos`: it is incomplete, drop it.
      const firstLf = data.indexOf(0x0a);
      data = firstLf === -1 ? Buffer.alloc(0) : data.subarray(firstLf + 1);
    }
    const splitter = new LineBuffer();
    const lines = splitter.push(data);
    const last = splitter.flush();
    if (last !== null) lines.push(last);
    return { lines: lines.slice(-maxLines), offset: size, ino: st.ino, bytesRead };
  } catch (err) {
    throw logReadError(path, err);
  } finally {
    await handle.close();
  }
}
