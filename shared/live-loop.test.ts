import { describe, expect, it } from 'vitest';
import { findLiveLoops, recentLoops } from './live-loop';
import type { QueryRow } from './query-log';

const row = (i: number, over: Partial<QueryRow> = {}): QueryRow => ({
  key: String(i),
  engine: 'adguard',
  time: new Date(Date.UTC(2026, 11, 1, 12, 0, 0, i * 10)).toISOString(),
  client: '172.20.0.2:41000',
  name: '99.99.20.172.in-addr.arpa',
  type: 'PTR',
  route: 'cluster',
  zone: '20.172.in-addr.arpa',
  upstream: '172.21.0.10:53',
  answers: [],
  rcode: null,
  error: null,
  latencyMs: null,
  protocol: 'udp',
  run: 0,
  probe: false,
  mixed: false,
  ...over,
});

describe('findLiveLoops', () => {
  it('reports one question asked 200 times in 2 s by a pod, with its count and client', () => {
    const rows = Array.from({ length: 200 }, (_, i) => row(i));
    expect(findLiveLoops(rows)).toEqual([{ name: '99.99.20.172.in-addr.arpa', type: 'PTR', count: 200, clients: ['172.20.0.2'], since: '2026-12-01T12:00:00.000Z', until: '2026-12-01T12:00:01.990Z' }]);
  });
  it('ignores this host (loopback), health probes, pod retries below the threshold and copies spread over minutes', () => {
    expect(findLiveLoops(Array.from({ length: 50 }, (_, i) => row(i, { client: '127.0.0.1:5000' })))).toEqual([]);
    expect(findLiveLoops(Array.from({ length: 50 }, (_, i) => row(i, { probe: true })))).toEqual([]);
    expect(findLiveLoops(Array.from({ length: 5 }, (_, i) => row(i)))).toEqual([]);
    expect(findLiveLoops(Array.from({ length: 50 }, (_, i) => row(i * 1000)))).toEqual([]); // one every 10 s
  });
});

describe('recentLoops', () => {
  it('keeps a loop whose last copy is at most 60 s old, drops older ones and unreadable times', () => {
    const l = { name: 'x.', type: 'PTR', count: 30, clients: ['172.21.0.10'], since: '2026-12-01T12:00:00', until: '2026-12-01T12:00:02' };
    const at = Date.parse('2026-12-01T12:00:02');
    expect(recentLoops([l], at + 60_000)).toEqual([l]);
    expect(recentLoops([l], at + 60_001)).toEqual([]);
    expect(recentLoops([{ ...l, until: 'garbage' }], at)).toEqual([]);
  });
});
