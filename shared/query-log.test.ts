/** buildQueryLog on real captured engine logs (fixtures/logs/; queries listed in its queries.txt). */
import { describe, expect, it } from 'vitest';
import { parseLogLine } from './log-line';
import { buildQueryLog, filterQueries, goDurationMs, isProblem, shortError, type QueryRow } from './query-log';
import { fixtureLines, fixtureRawLines } from '../e2e/support/log-fixtures';

const ZONES = { clusterZones: ['cluster.local', '21.172.in-addr.arpa'] };
const KUBE_DNS = '127.0.0.1:15354';
const LAN = '127.0.0.1:15355';

/** The cells the query view shows, per row. */
function cells(rows: QueryRow[]) {
  return rows.map((r) => [r.name, r.type, r.route, r.zone, r.upstream, r.answers.join(','), r.rcode, r.error]);
}

/** The scripted queries (capture-engine-logs.ts QUERIES, after its readiness probe) as each engine answered them. */
const EXPECTED = (trailingDot: string) => [
  ['kube-dns.kube-system.svc.cluster.local', 'A', 'cluster', 'cluster.local', KUBE_DNS, '172.21.0.10', 'NOERROR', null], // readiness probe
  ['kubernetes.default.svc.cluster.local', 'A', 'cluster', 'cluster.local', KUBE_DNS, '172.21.0.1', 'NOERROR', null],
  ['kubernetes.default.svc.cluster.local', 'A', 'cache', null, null, '172.21.0.1', 'NOERROR', null],
  ['broken.default.svc.cluster.local', 'A', 'cluster', 'cluster.local', KUBE_DNS, '', 'SERVFAIL', null],
  ['nothere.default.svc.cluster.local', 'A', 'cluster', 'cluster.local', KUBE_DNS, '', 'NXDOMAIN', null],
  ['10.0.21.172.in-addr.arpa', 'PTR', 'cluster', '21.172.in-addr.arpa', KUBE_DNS, `kube-dns.kube-system.svc.cluster.local${trailingDot}`, 'NOERROR', null],
  ['20.1.168.192.in-addr.arpa', 'PTR', 'upstream', null, LAN, `printer.lan${trailingDot}`, 'NOERROR', null], // LAN PTR: not to kube-dns
  ['www.example.org', 'A', 'upstream', null, LAN, '93.184.215.14', 'NOERROR', null],
  ['nx.example.org', 'A', 'upstream', null, LAN, '', 'NXDOMAIN', null],
  ['kube-dns.kube-system.svc.cluster.local', 'A', 'cache', null, null, '172.21.0.10', 'NOERROR', null], // TCP, cached
  ['www.example.org', 'AAAA', 'upstream', null, LAN, '', 'REFUSED', null],
];

describe('buildQueryLog: AdGuard dnsproxy v0.83.1 -v', () => {
  const rows = buildQueryLog(fixtureLines('dnsproxy-verbose'), ZONES);

  it('gives one row per query with name, type, route, upstream, answers and rcode', () => {
    expect(cells(rows)).toEqual([
      ...EXPECTED('.'),
      ['slow.timeout.test', 'A', 'upstream', null, '127.0.0.1:15356', '', 'SERVFAIL', 'i/o timeout'],
      ['any.refused.test', 'A', 'upstream', null, '127.0.0.1:15357', '', 'SERVFAIL', 'connection refused'],
    ]);
  });

  it('takes the client and protocol from handling new packet/request, the time from the in record', () => {
    expect(rows.every((r) => /^127\.0\.0\.1:\d+$/.test(r.client ?? ''))).toBe(true);
    expect(rows.map((r) => r.protocol)).toEqual(['udp', 'udp', 'udp', 'udp', 'udp', 'udp', 'udp', 'udp', 'udp', 'tcp', 'udp', 'udp', 'udp']);
    const firstIn = fixtureLines('dnsproxy-verbose').find((l) => l.message === 'in')!;
    expect(rows[0]!.time).toBe(firstIn.time);
  });

  it('measures latency from the in to the out record (µs timestamps): cache hits sub-ms, the timeout ≥ the 2 s upstream timeout', () => {
    for (const r of rows) expect(r.latencyMs).toBeGreaterThan(0);
    expect(rows[2]!.latencyMs).toBeLessThan(1);
    expect(rows[11]!.latencyMs).toBeGreaterThanOrEqual(2000);
  });

  it('without cluster zones, a reserved upstream (dnsproxy `upstream is reserved`) counts as cluster', () => {
    const bare = buildQueryLog(fixtureLines('dnsproxy-verbose'));
    expect(bare[1]).toMatchObject({ route: 'cluster', zone: null, upstream: KUBE_DNS });
    expect(bare[7]).toMatchObject({ route: 'upstream', upstream: LAN });
  });
});

describe('buildQueryLog: dnsproxy without -v', () => {
  it('has a row only for each failed exchange, SERVFAIL with the error and the exchange duration', () => {
    const rows = buildQueryLog(fixtureLines('dnsproxy-quiet'), ZONES);
    expect(cells(rows)).toEqual([
      ['slow.timeout.test', 'A', 'upstream', null, '127.0.0.1:15356', '', 'SERVFAIL', 'i/o timeout'],
      ['any.refused.test', 'A', 'upstream', null, '127.0.0.1:15357', '', 'SERVFAIL', 'connection refused'],
    ]);
    expect(rows[0]!.latencyMs).toBeGreaterThanOrEqual(2000);
  });
});

describe('buildQueryLog: dnsmasq 2.90 log-queries=extra', () => {
  const rows = buildQueryLog(fixtureLines('dnsmasq-verbose'), ZONES);

  it('gives the same rows as dnsproxy; forwarded queries without a reply (timeout, refused) have no rcode', () => {
    expect(cells(rows)).toEqual([
      ...EXPECTED(''),
      ['slow.timeout.test', 'A', 'upstream', null, '127.0.0.1:15356', '', null, null],
      ['any.refused.test', 'A', 'upstream', null, '127.0.0.1:15357', '', null, null],
    ]);
  });

  it('keys rows by pid and serial: the TCP query is answered by a forked child (tcp), no latency from whole seconds', () => {
    expect(rows[9]).toMatchObject({ protocol: 'tcp', route: 'cache' });
    expect(rows.filter((r) => r.protocol === 'tcp')).toHaveLength(1);
    expect(rows.every((r) => r.latencyMs === null && /^127\.0\.0\.1:\d+$/.test(r.client ?? ''))).toBe(true);
  });

  it('learns cluster zones from `using nameserver … for domain` when none are given', () => {
    const bare = buildQueryLog(fixtureLines('dnsmasq-verbose'));
    expect(bare[5]).toMatchObject({ route: 'cluster', zone: '21.172.in-addr.arpa' });
    expect(bare[11]).toMatchObject({ route: 'cluster', zone: 'timeout.test' });
  });

  it('plain log-queries (the same lines without serial and client) pairs by name', () => {
    const plain = fixtureRawLines('dnsmasq-verbose').map((l) => l.replace(/^(.*?dnsmasq\[\d+\]: )\d+ \S+\/\d+ /, '$1'));
    expect(plain.some((l) => /\]: \d+ 127/.test(l))).toBe(false);
    const rows2 = buildQueryLog(plain.map((l) => parseLogLine(l, { year: 2026 })), ZONES);
    expect(cells(rows2)).toEqual(cells(rows));
  });
});

describe('runs, filters, problems', () => {
  it('numbers runs across appended logs of both engines', () => {
    const lines = [...fixtureLines('dnsproxy-quiet'), ...fixtureLines('dnsproxy-verbose'), ...fixtureLines('dnsmasq-verbose')];
    const rows = buildQueryLog(lines, ZONES);
    expect(rows.map((r) => `${r.run}${r.engine[0]}`).join(' ')).toBe(['0a', '0a', ...Array(13).fill('1a'), ...Array(13).fill('2d')].join(' '));
  });

  it('filters by name text, rcode (none = no reply) and route; flags NXDOMAIN/SERVFAIL/REFUSED', () => {
    const rows = buildQueryLog(fixtureLines('dnsmasq-verbose'), ZONES);
    expect(filterQueries(rows, { text: 'EXAMPLE.org' }).map((r) => `${r.name} ${r.type}`)).toEqual(['www.example.org A', 'nx.example.org A', 'www.example.org AAAA']);
    expect(filterQueries(rows, { rcodes: ['NXDOMAIN', 'none'] }).map((r) => r.name)).toEqual(['nothere.default.svc.cluster.local', 'nx.example.org', 'slow.timeout.test', 'any.refused.test']);
    expect(filterQueries(rows, { routes: ['cache'] })).toHaveLength(2);
    expect(filterQueries(rows, { text: '172.21.0.1', routes: ['cluster'] }).map((r) => r.name)).toEqual(['kube-dns.kube-system.svc.cluster.local', 'kubernetes.default.svc.cluster.local']);
    expect(rows.filter(isProblem).map((r) => r.rcode)).toEqual(['SERVFAIL', 'NXDOMAIN', 'NXDOMAIN', 'REFUSED']);
  });

  it('reads Go durations and shortens Go network errors', () => {
    expect([goDurationMs('4.001480024s'), goDurationMs('234.63µs'), goDurationMs('1.2ms'), goDurationMs('1m0.5s'), goDurationMs('x')]).toEqual([4001.48, 0.235, 1.2, 60500, null]);
    expect(shortError('exchanging with 127.0.0.1:15357 over udp: read udp 127.0.0.1:44775->127.0.0.1:15357: read: connection refused')).toBe('connection refused');
  });
});
