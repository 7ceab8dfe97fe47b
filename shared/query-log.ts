/**
 * The query log: one row per DNS query, built from the proxy's parsed log lines (anchors: AdGuard
 * Home's and Pi-hole's query logs), one assembler per engine behind one row type
 * (query-log/row.ts): AdGuard dnsproxy `-v` records (query-log/dnsproxy.ts) and dnsmasq
 * `log-queries=extra` lines (query-log/dnsmasq.ts), both checked against the real engines'
 * output in fixtures/logs/. query-log/builder.ts builds it incrementally (the Logs store feeds
 * it each pushed batch); buildQueryLog is the one-shot form.
 */
import type { LogLine } from './types';
import { QueryLogBuilder, type QueryLogOptions as BuilderOptions } from './query-log/builder';
import type { QueryRoute, QueryRow } from './query-log/row';

export type { QueryRoute, QueryRow } from './query-log/row';
export { QueryLogBuilder } from './query-log/builder';
export { goDurationMs, shortError } from './query-log/text';

/** Options of buildQueryLog. */
export interface QueryLogOptions extends BuilderOptions {
  /** When given, filled with one entry per input line: the row that line belongs to, null for lines of no query (startup, config). */
  lineRows?: (QueryRow | null)[];
}

/**
 * Builds the query log from parsed lines of one log (either engine, runs in order). Rows come in
 * the order their queries appear; a row is complete once its reply was logged (rcode set).
 */
export function buildQueryLog(lines: readonly LogLine[], opts: QueryLogOptions = {}): QueryRow[] {
  const log = new QueryLogBuilder(opts);
  log.push(lines);
  if (opts.lineRows) {
    opts.lineRows.length = 0;
    opts.lineRows.push(...log.lineRows());
  }
  return log.rows();
}

/** Filter of the query view; empty/undefined fields match everything. */
export interface QueryFilter {
  /** Case-insensitive substring of the name, client, upstream or an answer. */
  text?: string;
  /** rcodes to show (`NOERROR`, `NXDOMAIN`, …; `none` for no reply yet). */
  rcodes?: readonly string[];
  /** Routes to show. */
  routes?: readonly QueryRoute[];
}

/** Rows matching `filter`. */
export function filterQueries(rows: readonly QueryRow[], filter: QueryFilter): QueryRow[] {
  const needle = (filter.text ?? '').trim().toLowerCase();
  return rows.filter((r) => {
    if (filter.rcodes && filter.rcodes.length > 0 && !filter.rcodes.includes(r.rcode ?? 'none')) return false;
    if (filter.routes && filter.routes.length > 0 && (r.route === null || !filter.routes.includes(r.route))) return false;
    if (needle === '') return true;
    return [r.name, r.client ?? '', r.upstream ?? '', ...r.answers].some((v) => v.toLowerCase().includes(needle));
  });
}

/** True for rows a reader must notice: NXDOMAIN, SERVFAIL, REFUSED, or an upstream error. */
export function isProblem(row: QueryRow): boolean {
  return row.rcode === 'NXDOMAIN' || row.rcode === 'SERVFAIL' || row.rcode === 'REFUSED' || row.error !== null;
}
