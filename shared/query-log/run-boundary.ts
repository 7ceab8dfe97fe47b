/**
 * Run boundaries in the exact query log: the log keeps the rows of earlier K2s DNS runs (a stop
 * keeps the file, a start appends to it), so `k2s-dns queries` and the Queries view mark where
 * each run's rows begin, from each row's `runStartedMs` (QueryRow; the start times start-checks.json
 * records). Pure.
 */
import type { QueryRow } from './row';
import { utcOffsetAt } from './utc-offset';

/**
 * The start time (ms since the epoch) to mark before `row` when it is the first row of its run in
 * the list shown: `before` is the row shown above it (undefined for the first one shown: its run
 * is named at the top). Null when `row` has no known run or `before` is of the same run.
 */
export function runBoundary(row: Pick<QueryRow, 'runStartedMs'>, before: Pick<QueryRow, 'runStartedMs'> | undefined): number | null {
  if (row.runStartedMs === undefined) return null;
  return before?.runStartedMs === row.runStartedMs ? null : row.runStartedMs;
}

/**
 * `K2s DNS started 2026-12-07 12:03:04 +01:00`: `ms` (since the epoch) in local time, to the second, as
 * the rows' times are local, with its UTC offset (utc-offset.ts); a start that failed and was rolled
 * back (`rolledBack`, QueryRow.runRolledBack): `K2s DNS start 2026-12-07 12:03:04 +01:00 failed and was rolled back`.
 */
export function runStartWords(ms: number, rolledBack = false): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  const at = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())} ${utcOffsetAt(ms)}`;
  return rolledBack ? `K2s DNS start ${at} failed and was rolled back` : `K2s DNS started ${at}`;
}

/** The text output's boundary line before a run's first row: `— K2s DNS started 2026-12-07 12:03:04 +01:00 —` (runStartWords). */
export function runBoundaryLine(ms: number, rolledBack = false): string {
  return `— ${runStartWords(ms, rolledBack)} —`;
}
