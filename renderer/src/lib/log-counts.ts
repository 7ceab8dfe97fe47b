/**
 * The Logs panel's counts in words (first-user report 7: a bare "40 of 40 lines" was read as
 * 40 queries). Pure: no DOM.
 */

/** `1 line`, `2 queries`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The raw view's count: `40 lines (12 queries)` when nothing is filtered out, else
 * `9 of 40 lines (12 queries)`; `queries` counts the queries those lines hold, all of them.
 */
export function rawCountText(shown: number, total: number, queries: number): string {
  const lines = shown === total ? plural(total, 'line', 'lines') : `${shown} of ${plural(total, 'line', 'lines')}`;
  return `${lines} (${plural(queries, 'query', 'queries')})`;
}

/**
 * The query view's count: `5 of 7 queries` (after the filters), plus how many of k2s-dns's own
 * health probes are hidden: `5 of 7 queries · 30 health probes hidden`.
 */
export function queryCountText(shown: number, total: number, hiddenProbes: number): string {
  const base = shown === total ? plural(total, 'query', 'queries') : `${shown} of ${plural(total, 'query', 'queries')}`;
  return hiddenProbes > 0 ? `${base} · ${plural(hiddenProbes, 'health probe', 'health probes')} hidden` : base;
}

/** TTL cell of an answer: getaddrinfo (the system resolver) returns no TTL, so `—`, never 0. */
export function ttlText(transport: 'udp' | 'tcp' | 'getaddrinfo', ttl: number): string {
  return transport === 'getaddrinfo' ? '—' : String(ttl);
}
