/**
 * Which rows the Queries view counts as problems ("problems only") and paints red. Pure: no DOM.
 *
 * A problem is what shared/query-log.ts isProblem says (NXDOMAIN, SERVFAIL, REFUSED, an upstream
 * error) or no reply at all — except a search-list expansion answered NXDOMAIN (walk5 M2: these
 * were half of "problems only" and buried the real SERVFAILs). glibc's resolver asks a name with
 * each `search` domain of resolv.conf appended in turn (resolv.conf(5) "search" and "ndots";
 * glibc resolv/res_query.c res_search), and an NXDOMAIN for one of those candidates only moves it
 * on to the next: the normal course of the walk, not a failure. Whether the name itself resolved
 * is on the row of the name as asked, which stays a problem when it failed. A row is an expansion
 * only by lib/search-expansion.ts's facts (the search list recorded with it, the base asked by the
 * same client), never by its labels alone, so a real NXDOMAIN is never hidden by its spelling.
 */
import { isProblem } from '../../../shared/query-log';
import type { QueryRow } from '../../../shared/query-log/row';
import type { SearchExpansion } from './search-expansion';

/** True for a search-list expansion (a key of `expansions`) answered NXDOMAIN: glibc's walk going on, not a problem. */
export function isSearchNxdomain(row: Pick<QueryRow, 'key' | 'rcode'>, expansions: ReadonlyMap<string, SearchExpansion>): boolean {
  return row.rcode === 'NXDOMAIN' && expansions.has(row.key);
}

/** True for a row the view counts and marks as a problem: isProblem or no reply, not a search-list NXDOMAIN (isSearchNxdomain). */
export function isShownProblem(row: QueryRow, expansions: ReadonlyMap<string, SearchExpansion>): boolean {
  return (isProblem(row) || row.rcode === null) && !isSearchNxdomain(row, expansions);
}
