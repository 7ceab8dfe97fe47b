/** `k2s-dns queries` text: one exact query log row per line. */
import type { QueryRow } from '../../shared/query-log/row';

/** `TIME CLIENT PROTO TYPE NAME RCODE via UPSTREAM (LATENCY ms) ANSWERS`; `cache` when no upstream exchange was seen. */
export function formatExactRow(r: QueryRow): string {
  const via = r.upstream ? `via ${r.upstream}` : r.rcode === null ? 'no answer' : 'cache';
  const lat = r.latencyMs === null ? '' : ` ${r.latencyMs.toFixed(2)} ms`;
  return `${r.time ?? '-'} ${r.client ?? '-'} ${r.protocol ?? '-'} ${r.type} ${r.name} ${r.rcode ?? '-'} ${via}${lat}${r.answers.length ? ` ${r.answers.join(',')}` : ''}`;
}
