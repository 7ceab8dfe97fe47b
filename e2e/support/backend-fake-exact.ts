/**
 * The fake backend's exact query log (`logs:exact`): `count` packet rows `e<N>-x.exact.example`
 * (N from 1, oldest first, one a second), held as if the first half were in queries.jsonl.1 and
 * the rest in queries.jsonl; searched with the real search's matcher (shared/query-log/exact.ts);
 * paged back with `before` (µs) as the real reader pages (electron/core/capture/rows-reader.ts).
 */
import { exactRowMatches, type ExactQueryLog } from '../../shared/query-log/exact';
import type { QueryRow } from '../../shared/query-log/row';

const FILE = '/var/log/dnsproxy/queries.jsonl';

/** The `logs:exact` answers over `count` rows ending at `endMs`. */
export function fakeExactLog(count: number, endMs: number): (input: { rows: number; text?: string; probes?: boolean; before?: number }) => ExactQueryLog {
  return exactLogOf(Array.from({ length: count }, (_, i) => ({
    key: `cap-fake-${i + 1}`, engine: 'adguard', time: new Date(endMs - (count - i) * 1000).toISOString().replace('Z', ''), client: `127.0.0.1:${40000 + (i % 20000)}`,
    name: `e${i + 1}-x.exact.example`, type: 'A', route: 'upstream', zone: null, upstream: '192.0.2.53:53', answers: ['198.51.100.8'], rcode: 'NOERROR',
    error: null, latencyMs: 0.4, protocol: 'udp', run: 0, probe: false, mixed: false,
  })));
}

/** The `logs:exact` answers over the given rows (oldest first; each row's `time` is its query time, local ISO without a zone). */
export function exactLogOf(rows: QueryRow[]): (input: { rows: number; text?: string; probes?: boolean; before?: number }) => ExactQueryLog {
  const count = rows.length;
  const rowsUs = rows.map((r) => Date.parse(`${r.time ?? '1970-01-01T00:00:00'}Z`) * 1000);
  // ~300 bytes a JSON row, as the companion writes it.
  const bytes = count * 300;
  return (input) => {
    if (!input.text) {
      // As the real reader: the newest rows asked at or before `before` (µs), and their oldest's time as the next cursor.
      const upTo = input.before === undefined ? rows.length : rowsUs.filter((us) => us <= input.before!).length;
      const start = Math.max(0, upTo - input.rows);
      return { available: true, reason: null, rows: rows.slice(start, upTo), complete: start === 0, files: [`${FILE}.1`, FILE], ...(upTo > start ? { oldestUs: rowsUs[start]! } : {}) };
    }
    const needle = input.text.trim().toLowerCase();
    const hits = rows.filter((r) => exactRowMatches(r, needle));
    const kept = hits.slice(-input.rows);
    return { available: true, reason: null, rows: kept, search: { text: input.text.trim(), matches: hits.length, truncated: kept.length < hits.length, bytesScanned: bytes, files: [`${FILE}.1`, FILE], tookMs: 1 } };
  };
}
