/**
 * The Logs panel's counts in words (first-user report 7: a bare "40 of 40 lines" was read as
 * 40 queries). Pure: no DOM.
 */
import { isQueryLine } from '../../../shared/log-line';
import type { LogLine } from '../../../shared/types';
import type { QueryRow } from '../../../shared/query-log';

/** `1 line`, `2 queries`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The raw view's count: `40 lines (12 queries)` when nothing is filtered out, else
 * `9 of 40 lines (12 queries)`; `queries` counts the queries those lines hold, all of them.
 * `exactElsewhere`: the exact query log is in use, so with no query in these lines the count
 * says where the queries are instead of counting the exact log's rows as lines of this log.
 */
export function rawCountText(shown: number, total: number, queries: number, exactElsewhere = false): string {
  const lines = shown === total ? plural(total, 'line', 'lines') : `${shown} of ${plural(total, 'line', 'lines')}`;
  if (queries === 0 && exactElsewhere) return `${lines} (no query lines: the queries are in the exact query log, in the Queries view)`;
  return `${lines} (${plural(queries, 'query', 'queries')})`;
}

/**
 * How many queries `lines` log (the raw view's "(M queries)"): the rows (`owners[i]`, line i's)
 * with at least one query line of their own (isQueryLine). A row known only from an engine's
 * ERROR or WARN line — dnsproxy's `ERROR exchange failed … question=";name.\tIN\t A"` on an
 * upstream failure, the only trace of a query without `-v` — is a failure line, not a query
 * line: it is not counted, and the line stays shown under its level.
 */
export function queriesInLines(lines: readonly LogLine[], owners: readonly (QueryRow | null)[]): number {
  const rows = new Set<QueryRow>();
  lines.forEach((l, i) => {
    const row = owners[i];
    if (row && isQueryLine(l)) rows.add(row);
  });
  return rows.size;
}

/**
 * The query view's count: `5 of 7 queries` (after the filters), plus how many of k2s-dns's own
 * health probes are hidden: `5 of 7 queries · 30 health probes hidden`, and how many of those
 * start's verify asked: `· 4 health probes hidden (all are k2s-dns start's checks)`.
 */
export function queryCountText(shown: number, total: number, hiddenProbes: number, hiddenStartChecks = 0): string {
  const base = shown === total ? plural(total, 'query', 'queries') : `${shown} of ${plural(total, 'query', 'queries')}`;
  const start = hiddenStartChecks === 0 ? '' : ` (${hiddenStartChecks === hiddenProbes ? (hiddenProbes === 1 ? 'it is' : 'all are') : `${hiddenStartChecks} of them`} k2s-dns start's ${hiddenStartChecks === 1 ? 'check' : 'checks'})`;
  return hiddenProbes > 0 ? `${base} · ${plural(hiddenProbes, 'health probe', 'health probes')} hidden${start}` : base;
}

/** `dnsproxy.log.1` for `/var/log/dnsproxy/dnsproxy.log.1`. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * What a whole-log search found: `3 matching lines in the whole log (dnsproxy.log.1,
 * dnsproxy.log: 38.2 MiB searched in 190 ms)`, plus `; showing the newest` when cut.
 */
export function searchCountText(r: { matches: number; truncated: boolean; bytesScanned: number; files: string[]; tookMs: number }): string {
  const files = r.files.length ? r.files.map(baseName).join(', ') : 'no log file yet';
  const size = `${(r.bytesScanned / 2 ** 20).toFixed(1)} MiB searched in ${Math.round(r.tookMs)} ms`;
  return `${plural(r.matches, 'matching line', 'matching lines')} in the whole log (${files}: ${size})${r.truncated ? '; showing the newest' : ''}`;
}

/** TTL cell of an answer: getaddrinfo (the system resolver) returns no TTL (AnswerRecord.ttl null), so `—`, never 0. */
export function ttlText(transport: 'udp' | 'tcp' | 'getaddrinfo', ttl: number | null): string {
  return transport === 'getaddrinfo' || ttl === null ? '—' : String(ttl);
}

/**
 * What a search of the exact query log found: `1 matching query in the exact query log
 * (queries.jsonl.1, queries.jsonl: 0.4 MiB searched in 12 ms)`, plus `; showing the newest 2,000` when
 * cut (`held`: the matching rows held, the newest page and the older pages loaded).
 */
export function exactSearchCountText(r: { matches: number; truncated: boolean; bytesScanned: number; files: string[]; tookMs: number }, held?: number): string {
  const files = r.files.length ? r.files.map(baseName).join(', ') : 'no file yet';
  const size = `${(r.bytesScanned / 2 ** 20).toFixed(1)} MiB searched in ${Math.round(r.tookMs)} ms`;
  // How many of them are held (the newest page, and older pages loaded): walk5 M2 said only "the newest".
  const newest = held === undefined ? '; showing the newest' : `; showing the newest ${held.toLocaleString('en-US')}`;
  return `${plural(r.matches, 'matching query', 'matching queries')} in the exact query log (${files}: ${size})${r.truncated ? newest : ''}`;
}

/**
 * The Queries view's filters besides the text, in words for the search count: `Response:
 * problems only`, `Route: cluster zone` (`rcodeLabel`/`routeLabel` as the selects show them);
 * null when neither is set.
 */
export function queryFilterWords(rcodeLabel: string | null, routeLabel: string | null): string | null {
  const parts = [rcodeLabel ? `Response: ${rcodeLabel}` : null, routeLabel ? `Route: ${routeLabel}` : null].filter((p): p is string => p !== null);
  return parts.length ? parts.join(', ') : null;
}

/**
 * A search of the exact query log with the Response or Route filter on, as ONE count: the rows
 * that pass every filter (`shown`), never the text's matches beside it (walk 6 L6: "802 matching
 * queries in the exact query log" above "18 matching queries shown" with problems only) —
 * `18 matching queries (Response: problems only) in the exact query log (queries.jsonl: 2.2 MiB
 * searched in 98 ms)`. When the search held only the newest of its text matches (`held` of
 * `r.matches`), the count can only be of those, and says so: `… among the newest 2,000 of 5,120
 * with “foo” in the exact query log (…)`.
 */
export function exactFilteredCountText(r: { text: string; matches: number; truncated: boolean; bytesScanned: number; files: string[]; tookMs: number }, held: number, shown: number, filters: string): string {
  const files = r.files.length ? r.files.map(baseName).join(', ') : 'no file yet';
  const size = `${(r.bytesScanned / 2 ** 20).toFixed(1)} MiB searched in ${Math.round(r.tookMs)} ms`;
  const among = r.truncated ? ` among the newest ${held.toLocaleString('en-US')} of ${r.matches.toLocaleString('en-US')} with “${r.text}”` : '';
  return `${plural(shown, 'matching query', 'matching queries')} (${filters})${among} in the exact query log (${files}: ${size})`;
}

