/**
 * The exact query log as the Logs panel gets it (contract call `logs:exact`): rows the capture
 * companion paired from the proxy's packets (electron/core/capture/), or why there are none. Pure.
 */
import { zoneOf, type QueryRow } from './row';

/** The last sentence of every unavailable reason: the Logs panel then shows the engine's own query log. */
export const SHOWN_ENGINE_LOG = " Shown: the engine's own query log.";

/** Answer of `logs:exact`. */
export interface ExactQueryLog {
  /** True when the exact log exists and this user may read it: the Queries view shows `rows` instead of the engine log's. */
  available: boolean;
  /** Why it is not available (`tcpdump is not installed …`), null when it is. */
  reason: string | null;
  /** The exact log's file when it exists but this user cannot read it (root and the group adm read it); absent otherwise. */
  unreadable?: string;
  /** The newest rows, oldest first (QueryRow.mixed always false); with `text` asked: the newest matching rows. */
  rows: QueryRow[];
  /** True when `rows` start at the oldest row of the exact log (queries.jsonl.1, or queries.jsonl when there is no .1); absent with `text`. With `before`: the older page reaches that row. */
  complete?: boolean;
  /** The query time (µs since the epoch) of `rows[0]`: the `before` cursor of the page older than these rows (with `text`: of the older matches); absent without rows. */
  oldestUs?: number;
  /** The exact log's files that exist, oldest first (`…/queries.jsonl.1` only after a rotation); absent with `text` or when not known. */
  files?: string[];
  /** Rows the capture could not write, as the companion said it (`12 rows not written (no space left on /var/log/dnsproxy)`); absent when none. */
  unwritten?: string;
  /**
   * Packets the running capture missed, after "It " (capture-missed.ts missedWords): `missed 1200
   * packets since 2026-12-05T07:40:12.000Z while the proxy was busy (it runs at idle priority, its
   * parser takes at most 5 % of one core, and it yields the CPU to DNS)`; ISO time (shown in local time); absent when none.
   */
  missed?: string;
  /** Set when the call asked for `text`: the search over both files of the exact log. */
  search?: ExactSearch;
}

/** A search over the whole exact log (`<file>.1` then `<file>`), as `logs:exact` with `text` answers it. */
export interface ExactSearch {
  /** The text searched (case-insensitive, literal). */
  text: string;
  /** Matching rows in both files (health probe rows not counted unless asked for). */
  matches: number;
  /** True when older matching rows were left out of `rows` (the call's `rows` cap). */
  truncated: boolean;
  /** Bytes read over both files. */
  bytesScanned: number;
  /** Files searched, oldest first (only those that exist: `/var/log/dnsproxy/queries.jsonl.1`, `…/queries.jsonl`). */
  files: string[];
  /** Wall time of the search in the backend, ms. */
  tookMs: number;
}

/**
 * True when `needle` (already lower-cased, non-empty) is in the row's name, client, rcode,
 * upstream or one of its answers: the fields the Queries view shows and its filter searches.
 */
export function exactRowMatches(row: QueryRow, needle: string): boolean {
  return [row.name, row.client ?? '', row.rcode ?? '', row.upstream ?? '', ...row.answers].some((v) => v.toLowerCase().includes(needle));
}

/** `rows` with the route judged by the cluster zones the window knows (the backend reads the rows without them). */
export function routeExactRows(rows: readonly QueryRow[], clusterZones: readonly string[]): QueryRow[] {
  if (clusterZones.length === 0) return [...rows];
  return rows.map((r) => {
    if (r.upstream === null || r.route === null) return r;
    const zone = zoneOf(r.name, clusterZones);
    return zone === null ? { ...r, route: 'upstream', zone: null } : { ...r, route: 'cluster', zone };
  });
}
