/**
 * Reads the exact query log (rows-file.ts) back as the app's query rows (shared/query-log/row.ts,
 * to-query-row.ts): the newest rows, from the rotated copy `.1` and the current file. Lines are
 * parsed with the pipeline's guard (pipeline.ts parserLine): a cut or foreign line is skipped.
 * Readable by whoever can read the proxy log (root and the `adm` group).
 */
import { LOG_CAP_BYTES, rotatedLogPath } from '../host/query-log';
import type { QueryRow } from '../../../shared/query-log/row';
import type { CapturedQuery } from './pairing';
import { parserLine } from './pipeline';
import { capturedQueryRow } from './to-query-row';
import { readStartChecks } from './start-checks';
import { openRowsFile } from './rows-open';
import { createRowsIndex, endAtOrBefore, pageBefore, type RowsIndex } from './rows-index';

/** Bytes read from the end of each file per wanted row (a row is ~300 bytes of JSON). */
const BYTES_PER_ROW = 1024;
/**
 * Bytes read at most from the end of each file for an older page (`before`): the files are
 * rotated at LOG_CAP_BYTES, so both are read whole; a file grown past twice the cap (rotation
 * late) is read from its last 2 × cap, and the page then never says it holds the log's start.
 */
export const OLDER_READ_BYTES = 2 * LOG_CAP_BYTES;

/**
 * The newest rows of `file` (parserLine's: a cut, foreign or over-long line is skipped), read
 * back from its end a chunk of `want` × BYTES_PER_ROW at a time until `want` rows are found, its
 * start is reached or `maxBytes` were read: a long garbage line (breaker10 L5: one of 3 MB) costs
 * bytes, not rows. File order, oldest first; `whole`: read from its first byte (or missing).
 */
async function tailRows(file: string, want: number, maxBytes = OLDER_READ_BYTES): Promise<CapturedQuery[] & { whole?: boolean }> {
  const fh = await openRowsFile(file);
  if (!fh) return Object.assign([], { whole: true });
  try {
    const { size } = await fh.stat();
    const chunk = Math.max(1, want) * BYTES_PER_ROW;
    const floor = Math.max(0, size - maxBytes);
    const found: CapturedQuery[][] = [];
    let count = 0;
    let end = size;
    // The bytes before the first newline of the chunks read so far (file order; none holds a
    // newline): the tail of a line whose head is further back. Kept as pieces and joined once
    // its head is read: a join per chunk copied a long line again for every chunk (a 15 MB
    // garbage line: 0.7 s of this process per read).
    let carry: Buffer[] = [];
    while (end > floor && count < want) {
      const start = Math.max(floor, end - chunk);
      const buf = Buffer.alloc(end - start);
      await fh.read(buf, 0, buf.length, start);
      let text: Buffer;
      if (start > 0) {
        const nl = buf.indexOf(0x0a);
        if (nl < 0) {
          // No newline yet: all of it is one line's tail (read on, within maxBytes).
          carry.unshift(buf);
          end = start;
          continue;
        }
        text = Buffer.concat([buf.subarray(nl + 1), ...carry]);
        carry = [buf.subarray(0, nl)];
      } else {
        text = Buffer.concat([buf, ...carry]);
        carry = [];
      }
      const rows: CapturedQuery[] = [];
      for (const l of text.toString('utf8').split('\n')) {
        const v = l === '' ? null : parserLine(l);
        if (v !== null && !('counts' in v)) rows.push(v);
      }
      found.unshift(rows);
      count += rows.length;
      end = start;
    }
    return Object.assign(found.flat(), { whole: end === 0 });
  } finally {
    await fh.close();
  }
}

/** What readCapturedRows found. */
export interface CapturedRows {
  /** Oldest query first (by the time it was asked, not the order written), at most `limit`. */
  rows: QueryRow[];
  /** False when neither file exists or can be read (no exact log on this host, or not allowed to read it). */
  present: boolean;
  /** True when `rows` begin with the oldest row of the exact log (both files were read from their start and all rows fit). */
  complete: boolean;
  /** The exact log's files that can be opened, oldest first (`<file>.1` only once rotation made it). */
  files: string[];
  /** The query time (µs since the epoch) of `rows[0]`, the cursor of the page before it; absent without rows. */
  oldestUs?: number;
}

/** True when `file` can be opened for reading (a regular file: rows-open.ts). */
function opens(file: string): Promise<boolean> {
  return openRowsFile(file).then((f) => (f === null ? false : (void f.close(), true)));
}

/**
 * The newest `limit` rows of the exact log at the real path `file`; `engine` and `clusterZones`
 * as capturedQueryRow takes them. With `before` (µs since the epoch): the newest `limit` rows
 * asked at or before it (ties are kept, the caller drops the rows it holds by key), of both files
 * read whole (OLDER_READ_BYTES each) through `index` (rows-index.ts: kept parsed between pages;
 * default a new one); `complete` then says the page reaches the first row.
 */
export async function readCapturedRows(file: string, limit: number, engine: QueryRow['engine'], clusterZones: readonly string[], before?: number, index?: RowsIndex): Promise<CapturedRows> {
  let last: CapturedQuery[];
  let complete: boolean;
  let present: boolean;
  if (before !== undefined) {
    const got = await (index ?? createRowsIndex(OLDER_READ_BYTES)).rows(file);
    const page = pageBefore(got.sorted, endAtOrBefore(got.sorted, before), limit);
    last = page.rows;
    complete = got.whole && page.fromFirst;
    present = got.present;
  } else {
    const current = await tailRows(file, limit);
    const skipped = current.length >= limit;
    const older = skipped ? Object.assign([], { whole: !(await opens(rotatedLogPath(file))) }) : await tailRows(rotatedLogPath(file), limit);
    present = current.length > 0 || older.length > 0 || (await opens(file));
    const captured: CapturedQuery[] = [...older, ...current];
    // A row is written when its query ends (answered or timed out), so a timeout lands after
    // queries asked later: order by the query's time (a stable sort keeps file order on ties).
    captured.sort((a, b) => a.queryUs - b.queryUs);
    last = captured.slice(-limit);
    complete = current.whole === true && older.whole === true && captured.length <= limit;
  }
  const files = (await Promise.all([rotatedLogPath(file), file].map(async (f) => ((await opens(f)) ? f : null)))).filter((f): f is string => f !== null);
  // The last start's checks (start-checks.ts): its verify's rows are marked, not taken for a program's.
  const checks = last.length === 0 ? null : await readStartChecks(file);
  // Keys are the row's own (query time, client, id), the same in every page and poll, so a
  // page that overlaps the rows held joins them without doubles; a repeat gets a suffix.
  const seen = new Map<string, number>();
  const rows = last.map((c) => {
    const base = `cap-${c.queryUs}-${c.client}-${c.id}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return capturedQueryRow(c, engine, n === 0 ? base : `${base}-${n}`, clusterZones, 0, checks);
  });
  return { complete, files, rows, present, ...(last[0] ? { oldestUs: last[0].queryUs } : {}) };
}
