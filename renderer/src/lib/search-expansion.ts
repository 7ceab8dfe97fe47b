/**
 * Which query rows are a search-list expansion: glibc's resolver appends each `search` domain of
 * resolv.conf to a relative name (resolv.conf(5) "search"; res_query.c res_search), so
 * `early-marker-ui3.example.test` is also asked as `early-marker-ui3.example.test.example.test`.
 * Both start alike and, when the base name already ends in the search domain, end alike too, so
 * no truncation tells them apart; the Queries view marks the longer one instead. Pure: no DOM.
 *
 * Only facts make a row an expansion, each read from the row itself and the rows around it:
 * - the row's name is another name plus one of the search domains that were in effect when the
 *   row was asked (QueryRow.search: the search list of /etc/resolv.conf, the file host apps read,
 *   as the exact query log's companion recorded it with the row);
 * - that other name was really asked by the same client address within SEARCH_WALK_MS (a search
 *   walk asks its names back to back; glibc asks a short name's expansions before the name
 *   itself, so either order counts). The address, not the socket: glibc's res_send closes its
 *   socket after each query unless RES_STAYOPEN (resolv/res_send.c), so every name of one walk
 *   leaves from a new port.
 * Never from the labels alone (`kubernetes.default.svc.cluster.local` is a full name, not
 * `kubernetes.default` + `svc.cluster.local`), never from today's search list or the rows a filter
 * shows: the same row is judged the same whenever and however it is looked at. A row without a
 * recorded search list (the engine's own log, rows written before it was recorded) is never marked.
 */
import type { QueryRow } from '../../../shared/query-log/row';

/** An expansion: `base` (as the client asked it) with `domain` (one of the search domains then in effect) appended. */
export interface SearchExpansion {
  base: string;
  domain: string;
}

/** How far apart (ms) the base and its expansion may be asked by one client address: glibc's whole walk (RES_TIMEOUT 5 s × RES_DFLRETRY 2 per name, a few names). */
export const SEARCH_WALK_MS = 60_000;

/** `name` lower-cased without its trailing root dot (DNS names compare case-insensitively, RFC 4343). */
function key(name: string): string {
  return (name.endsWith('.') && name.length > 1 ? name.slice(0, -1) : name).toLowerCase();
}

/** The client address of a row (`127.0.0.1` of `127.0.0.1:41000`, `::1` of `[::1]:41000`), or null when the row names no client. */
function socketOf(row: Pick<QueryRow, 'client'>): string | null {
  const c = row.client;
  if (c === null || c === '') return null;
  const m = /^\[([^\]]+)\]:\d+$/.exec(c) ?? /^([^:]+):\d+$/.exec(c);
  return m ? m[1]! : c;
}

/** ms of a row's local ISO time, null when it has none. */
function timeOf(row: Pick<QueryRow, 'time'>): number | null {
  if (row.time === null) return null;
  const t = Date.parse(row.time);
  return Number.isNaN(t) ? null : t;
}

/**
 * For each row of `rows` that is a search-list expansion (see above), keyed by the row's key: the
 * name its client asked and the search domain appended. `context`: further rows the bases may be
 * among (the rows held when `rows` is a search's result), never marked themselves.
 */
export function searchExpansions(rows: readonly QueryRow[], context: readonly QueryRow[] = []): Map<string, SearchExpansion> {
  // When each client address asked each name (lower-cased), by time: a row is then judged by a
  // map look-up and a binary search, not a scan of every row of its address (with one address
  // asking everything, 127.0.0.1, that scan made the view O(n²): ~2 s for 19,000 rows, issue 20).
  const asked = new Map<string, { at: number; given: string }[]>();
  for (const r of [...rows, ...context]) {
    const s = socketOf(r);
    const at = timeOf(r);
    if (s === null || at === null) continue; // no time: never within the walk's window
    const k = `${s} ${key(r.name)}`;
    const list = asked.get(k);
    if (list) list.push({ at, given: r.name });
    else asked.set(k, [{ at, given: r.name }]);
  }
  for (const list of asked.values()) list.sort((a, b) => a.at - b.at);
  const out = new Map<string, SearchExpansion>();
  for (const r of rows) {
    const s = socketOf(r);
    const at = timeOf(r);
    if (s === null || at === null || !r.search || r.search.length === 0) continue;
    const name = key(r.name);
    // The longest search domain first: `a.b.corp.example` with `corp.example` and `b.corp.example` both searched.
    const domains = [...new Set(r.search.map(key))].filter((d) => d !== '' && d !== '.').sort((a, b) => b.length - a.length);
    for (const d of domains) {
      if (!name.endsWith(`.${d}`) || name.length <= d.length + 1) continue;
      const base = name.slice(0, -(d.length + 1));
      const hit = firstWithin(asked.get(`${s} ${base}`), at - SEARCH_WALK_MS, at + SEARCH_WALK_MS);
      if (hit) {
        out.set(r.key, { base: hit.given, domain: d });
        break;
      }
    }
  }
  return out;
}

/** The earliest entry of `list` (sorted by `at`) with `from` ≤ at ≤ `to`, by binary search; undefined when none. */
function firstWithin<T extends { at: number }>(list: readonly T[] | undefined, from: number, to: number): T | undefined {
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < from) lo = mid + 1;
    else hi = mid;
  }
  const hit = list[lo];
  return hit !== undefined && hit.at <= to ? hit : undefined;
}
