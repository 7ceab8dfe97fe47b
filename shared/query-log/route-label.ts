/**
 * The words for a query log row's route, one place for the window's Logs panel
 * (renderer/src/lib/route-options.ts) and the CLI's `queries` text (electron/cli/print-queries.ts),
 * so both say the same of a row: a SERVFAIL the proxy made itself (no upstream answered,
 * electron/core/capture/to-query-row.ts) is "the proxy itself" in both, never "cache" (walk 18 M2).
 * Pure module.
 */
import type { QueryRoute } from './row';

/** Route labels; `local` (an answer from dnsmasq's own config: `config …` lines) exists only for engines with `localAnswers`. */
export const ROUTE_LABEL: Record<QueryRoute, string> = { cluster: 'cluster zone', upstream: 'upstream', cache: 'cache', local: 'dnsmasq config', proxy: 'the proxy itself' };
