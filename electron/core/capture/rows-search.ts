/**
 * Search over the whole exact query log (rows-file.ts): the rotated copy `<file>.1`, then
 * `<file>`, streamed line by line (never a whole file in memory), each line parsed with the
 * pipeline's guard (pipeline.ts parserLine) and matched on the row's name, client, rcode,
 * upstream and answers (shared/query-log/exact.ts exactRowMatches). Unreadable or missing files
 * are left out of `files` (exact-log.ts says why the log is unavailable).
 */
import { performance } from 'node:perf_hooks';
import { rotatedLogPath } from '../host/query-log';
import { exactRowMatches, type ExactSearch } from '../../../shared/query-log/exact';
import type { QueryRow } from '../../../shared/query-log/row';
import { parserLine } from './pipeline';
import { capturedQueryRow } from './to-query-row';
import { readStartChecks } from './start-checks';
import { openRowsFile } from './rows-open';

/** Bytes of one read while searching. */
const READ_BYTES = 1024 * 1024;

/** Options of searchCapturedRows. */
export interface RowsSearchOptions {
  /** Rows returned at most (the newest matches are kept). */
  limit: number;
  engine: QueryRow['engine'];
  clusterZones: readonly string[];
  /** Count and return k2s-dns's own health probe rows too (default: not). */
  probes?: boolean;
  /**
   * µs since the epoch: return only matches asked at or before it (the page of older matches,
   * walk5 M2; ties are kept, the caller drops the rows it holds by key). `matches` still counts
   * every match of both files.
   */
  before?: number;
}

/**
 * The matching rows (oldest query first, at most `limit`; with `before`, of those asked at or
 * before it), the query time of the first (`oldestUs`, the cursor of the next older page) and what
 * was searched: `truncated` when older matches were left out.
 */
export async function searchCapturedRows(file: string, text: string, opts: RowsSearchOptions): Promise<{ rows: QueryRow[]; oldestUs?: number; search: ExactSearch }> {
  const t0 = performance.now();
  const needle = text.trim().toLowerCase();
  // With the query's time (µs): rows are written when their query ends, so they are sorted by it at the end.
  const rows: { us: number; row: QueryRow; base: string }[] = [];
  let inRange = 0;
  const files: string[] = [];
  let matches = 0;
  let bytesScanned = 0;
  let seq = 0;
  // The last start's checks (start-checks.ts): its verify's rows are probe rows, as in readCapturedRows.
  const checks = await readStartChecks(file);
  const take = (line: string) => {
    const v = line === '' ? null : parserLine(line);
    if (v === null || 'counts' in v) return;
    const row = capturedQueryRow(v, opts.engine, `cap-${v.queryUs}-${v.client}-${v.id}-s${seq++}`, opts.clusterZones, 0, checks);
    if ((row.probe && !opts.probes) || !exactRowMatches(row, needle)) return;
    matches += 1;
    if (opts.before !== undefined && v.queryUs > opts.before) return;
    inRange += 1;
    rows.push({ us: v.queryUs, row, base: `cap-${v.queryUs}-${v.client}-${v.id}` });
    if (rows.length > opts.limit * 2) rows.splice(0, rows.length - opts.limit);
  };
  for (const f of [rotatedLogPath(file), file]) {
    let carry = '';
    let read = 0;
    // A regular file only (rows-open.ts): a FIFO or a link to /dev/zero is not searched.
    const fh = await openRowsFile(f);
    if (fh === null) continue;
    try {
      for await (const chunk of fh.createReadStream({ highWaterMark: READ_BYTES, encoding: 'utf8' })) {
        const s = carry + (chunk as string);
        read += Buffer.byteLength(chunk as string);
        const parts = s.split('\n');
        carry = parts.pop() ?? '';
        for (const l of parts) take(l);
      }
    } catch {
      continue; // missing or not readable: not searched
    }
    take(carry); // a last line without LF (being written) is taken when it parses
    files.push(f);
    bytesScanned += read;
  }
  // Oldest asked first, as readCapturedRows orders them (a stable sort keeps file order on ties).
  const last = rows.sort((a, b) => a.us - b.us).slice(-opts.limit);
  // Keys as rows-reader.ts gives them (query time, client, id; a repeat gets a suffix): the same
  // in every page, so an older page that overlaps the rows held joins them without doubles.
  const seen = new Map<string, number>();
  const kept = last.map(({ row, base }) => {
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return { ...row, key: n === 0 ? base : `${base}-${n}` };
  });
  return { rows: kept, ...(last[0] ? { oldestUs: last[0].us } : {}), search: { text: text.trim(), matches, truncated: inRange > kept.length, bytesScanned, files, tookMs: performance.now() - t0 } };
}
