/**
 * The exact query log on disk (K2S_PATHS.queryRows, next to the proxy log): one CapturedQuery
 * (pairing.ts) as JSON per line, written only by the capture companion (capture-main.ts).
 * - Private like the proxy log: root:adm 0640 (0600 without `adm`), opened with O_NOFOLLOW
 *   (host/query-log.ts openQueryLog), so the same users who read the proxy log read this one.
 * - Bounded like it: at LOG_CAP_BYTES the file is renamed to `<file>.1` (replacing the older
 *   copy) and a new one opened, so at most 2 × LOG_CAP_BYTES are kept. The writer owns the
 *   file, so a rename (no copytruncate and its lost lines) is enough; readers read `.1` then
 *   the file (rows-reader.ts).
 * Writes are batched per event loop turn: the pipeline delivers the rows of one pcap chunk in
 * one synchronous loop.
 * - Bounded in memory: while the disk is slow, rows wait in the companion's memory; past
 *   QUEUE_CAP_BYTES of waiting rows a batch is dropped whole (never a part of a line) and its
 *   rows are counted as unwritten, as a failed write's are.
 */
import { constants as fsc, promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { LOG_CAP_BYTES, openQueryLog, rotatedLogPath } from '../host/query-log';
import type { CapturedQuery } from './pairing';

/**
 * Bytes of rows the writer holds at most while the disk is slow (queued, and the batch being
 * written): about 40,000 rows of ~400 bytes, several seconds of what the parser's budget lets through.
 * Counted as the rows' bytes (the parser's views, pipeline.ts), checked per batch (one compare).
 */
export const QUEUE_CAP_BYTES = 16 * 1024 * 1024;

/** The code unwrittenLine and the companion's log give a batch dropped at the queue cap. */
const SLOW = 'SLOW';

/** `16 MiB` for whole MiB, else `N bytes`. */
function bytesWords(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** An open rows file. */
export interface RowsFile {
  /** Queues one row; written at the end of this event loop turn. */
  write(row: CapturedQuery): void;
  /**
   * Queues `rows` rows already as JSON lines (each ending with a newline: the parser's output,
   * pipeline.ts), written as they are at the end of this event loop turn. The bytes are kept
   * until then, not copied.
   */
  writeLines(lines: Uint8Array, rows: number): void;
  /** Writes what is queued now (resolves when it is on disk). */
  flush(): Promise<void>;
  /** Writes what is queued and closes the file. */
  close(): Promise<void>;
  /** Rotations done so far (for the companion's last line). */
  readonly rotations: number;
  /** Rows that could not be written (ENOSPC, EIO…, or past the queue cap on a slow disk): counted and dropped, never thrown. */
  readonly unwritten: number;
}

/**
 * The loss as status and the Logs view say it: `12 rows not written (no space left on
 * /var/log/dnsproxy)` for ENOSPC (write(2)), `… (EIO on /var/log/dnsproxy)` for another code,
 * `… (/var/log/dnsproxy too slow: 16 MiB of rows were waiting)` for rows dropped at the queue cap
 * (`capBytes`, QUEUE_CAP_BYTES).
 */
export function unwrittenLine(rows: number, code: string, dir: string, capBytes = QUEUE_CAP_BYTES): string {
  const why = code === 'ENOSPC' ? `no space left on ${dir}` : code === SLOW ? `${dir} too slow: ${bytesWords(capBytes)} of rows were waiting` : `${code} on ${dir}`;
  return `${rows} row${rows === 1 ? '' : 's'} not written (${why})`;
}

/**
 * True when the file at the real path `file` is empty or its byte `size - 1` is a newline; also
 * true when it cannot be read (nothing is added then). Read through its own O_RDONLY handle:
 * the writer's is write-only (openQueryLog: O_APPEND).
 */
async function endsWithNewline(file: string, size: number): Promise<boolean> {
  if (size === 0) return true;
  const fh = await fsp.open(file, fsc.O_RDONLY | fsc.O_NOFOLLOW).catch(() => null);
  if (!fh) return true;
  try {
    const b = Buffer.alloc(1);
    const { bytesRead } = await fh.read(b, 0, 1, size - 1);
    return bytesRead === 0 || b[0] === 0x0a;
  } catch {
    return true;
  } finally {
    await fh.close();
  }
}

const NEWLINE = Buffer.from('\n');

/**
 * Opens (creating) the rows file at the real path `file`; `admGid` as readAdmGid gives it.
 * A write or rotation that fails later (a full disk: ENOSPC) drops that batch, counts its rows in
 * `unwritten` and says so once per error code through `onError`; the next batch tries again (a
 * failed rotation reopens the file it could not rename); after each such drop `onLoss` gets the
 * running total as unwrittenLine says it. A batch that would take the rows held (queued and being
 * written) past `queueCapBytes` is dropped at once the same way (a slow disk: said once through
 * `onError`, counted, `onLoss`). Throws only when the first open fails.
 */
export async function openRowsFile(file: string, admGid: number | null, capBytes = LOG_CAP_BYTES, onError: (message: string) => void = () => undefined, onLoss: (line: string) => void = () => undefined, queueCapBytes = QUEUE_CAP_BYTES): Promise<RowsFile> {
  let fh: FileHandle | null = await openQueryLog(file, admGid);
  let size = (await fh.stat()).size;
  /** Whether the file may end inside a line (just opened, a write failed): its last byte is read before the next write. */
  let unsure = true;
  let queued: Uint8Array[] = [];
  let queuedRows = 0;
  /** Bytes of rows held: queued, and the batch being written (released when its write ends). */
  let heldBytes = 0;
  let rotations = 0;
  let unwritten = 0;
  /** Error codes said already (once each: a full disk would say it for every batch). */
  const said = new Set<string>();
  // One write at a time, in order: each flush waits for the one before.
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;

  const flush = async (): Promise<void> => {
    scheduled = false;
    if (queued.length === 0) return;
    const lines = queuedRows;
    const text = queued.length === 1 ? queued[0]! : Buffer.concat(queued);
    const bytes = queued.reduce((n, b) => n + b.length, 0);
    queued = [];
    queuedRows = 0;
    try {
      if (fh && size > 0 && size + text.length > capBytes) {
        const old = fh;
        fh = null;
        await old.close();
        try {
          await fsp.rm(rotatedLogPath(file), { force: true });
          await fsp.rename(file, rotatedLogPath(file));
          rotations++;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
          if (!said.has(`rotate ${code}`)) onError(`cannot rotate ${file} to ${rotatedLogPath(file)} (${code}): writing on past the cap.`);
          said.add(`rotate ${code}`);
        } finally {
          // Renamed or not, write on at `file` (a failed rename appends past the cap until a later rotation works).
          fh = await openQueryLog(file, admGid);
          size = (await fh.stat()).size;
          unsure = true;
        }
      }
      if (!fh) {
        fh = await openQueryLog(file, admGid);
        size = (await fh.stat()).size;
        unsure = true;
      }
      // A file that does not end with a newline (a torn write: a companion killed mid-write,
      // a partial write, another writer's line) gets one first, so only the torn line is lost,
      // not the row after it (breaker10 L5). Looked at after each open, failed write, or write
      // by someone else (the size is not the one this writer left).
      const now = (await fh.stat()).size;
      if (now !== size) unsure = true;
      size = now;
      const out = unsure && !(await endsWithNewline(file, size)) ? Buffer.concat([NEWLINE, text]) : text;
      unsure = false;
      await fh.write(out);
      size += out.length;
    } catch (err) {
      unsure = true;
      unwritten += lines;
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      if (!said.has(code)) onError(`cannot write ${file} (${code}): ${lines} rows dropped; later rows are tried again (counted in the last line).`);
      said.add(code);
      onLoss(unwrittenLine(unwritten, code, dirname(file), queueCapBytes));
    } finally {
      heldBytes -= bytes;
    }
  };

  /** False (and the rows counted unwritten) when `bytes` more would pass the queue cap. */
  const room = (bytes: number, rows: number): boolean => {
    if (heldBytes + bytes <= queueCapBytes) {
      heldBytes += bytes;
      return true;
    }
    unwritten += rows;
    if (!said.has(SLOW)) onError(`writes to ${file} too slow: ${bytesWords(queueCapBytes)} of rows wait to be written; ${rows} rows dropped, later rows are tried again (counted in the last line).`);
    said.add(SLOW);
    onLoss(unwrittenLine(unwritten, SLOW, dirname(file), queueCapBytes));
    return false;
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      chain = chain.then(flush, flush);
    });
  };
  return {
    write(row) {
      const line = Buffer.from(`${JSON.stringify(row)}\n`);
      if (!room(line.length, 1)) return;
      queued.push(line);
      queuedRows++;
      schedule();
    },
    writeLines(lines, rows) {
      if (lines.length === 0 || !room(lines.length, rows)) return;
      queued.push(lines);
      queuedRows += rows;
      schedule();
    },
    async flush() {
      chain = chain.then(flush, flush);
      await chain;
    },
    async close() {
      chain = chain.then(flush, flush);
      await chain;
      await fh?.close();
    },
    get rotations() {
      return rotations;
    },
    get unwritten() {
      return unwritten;
    },
  };
}
