import { describe, expect, it } from 'vitest';
import type { QueryRow } from '../../../shared/query-log/row';
import { isSearchNxdomain, isShownProblem } from './problem-rows';
import { searchExpansions } from './search-expansion';

const row = (key: string, name: string, rcode: QueryRow['rcode'], over: Partial<QueryRow> = {}): QueryRow => ({
  key, engine: 'adguard', time: '2026-12-04T19:02:00.000000', client: '127.0.0.1:41000', name, type: 'AAAA', route: 'upstream', zone: null,
  upstream: '192.0.2.53:53', answers: [], rcode, error: null, latencyMs: 0.4, protocol: 'udp', run: 0, probe: false, mixed: false, search: ['example.test'], ...over,
});

describe('problem rows (walk5 M2: glibc\'s search-list NXDOMAINs swamped "problems only")', () => {
  it('a search-list expansion answered NXDOMAIN is not a problem; the name itself, a SERVFAIL, no reply and an unmarked NXDOMAIN are', () => {
    const rows = [
      row('a', 'web.demo', 'NOERROR', { answers: ['198.51.100.8'] }),
      row('b', 'web.demo.example.test', 'NXDOMAIN', { client: '127.0.0.1:41001' }),
      row('c', 'kubernetes.default.svc.cluster.local', 'SERVFAIL'),
      row('d', 'gone.example.test', 'NXDOMAIN'), // no base "gone" asked: a real NXDOMAIN
      row('e', 'slow.test', null),
      row('f', 'missing', 'NXDOMAIN', { client: '127.0.0.2:41000' }),
      row('g', 'missing.example.test', 'NXDOMAIN', { client: '127.0.0.2:41001' }),
    ];
    const ex = searchExpansions(rows);
    expect(rows.map((r) => isSearchNxdomain(r, ex))).toEqual([false, true, false, false, false, false, true]);
    expect(rows.filter((r) => isShownProblem(r, ex)).map((r) => r.key)).toEqual(['c', 'd', 'e', 'f']);
  });
});
