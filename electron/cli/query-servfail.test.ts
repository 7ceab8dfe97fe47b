/**
 * New user: `k2s-dns query NAME --server proxy` while CoreDNS is down printed only the SERVFAIL
 * headline (exit 0), where an NXDOMAIN is explained in detail. A SERVFAIL for a name in a cluster
 * zone gets one `;;` note: the proxy got no answer from CoreDNS at the zone's kube-dns address, and
 * `status` says why. The proxy's answer, the target and status are stand-ins; the printing is main's.
 */
import { describe, expect, it, vi } from 'vitest';
import { runMain } from './run-main.fixture';
import type { QueryResult, ZoneRoute } from '../../shared/types';

const answer: { now: QueryResult | null } = { now: null };
/** Status as root (the saved plan's zones) or as a user (only the running proxy's config names them). */
const asUser = { now: false };
const ZONES = [{ zone: 'cluster.local', upstream: '172.21.0.10', clusterDomain: true } as ZoneRoute];

vi.mock('../core/lifecycle/node-deps', () => ({ createNodeDeps: async () => ({ query: async () => answer.now }) }));
vi.mock('../core/lifecycle/query-target', () => ({ resolveTarget: async () => ({ server: '127.0.0.1:53', guess: null }) }));
vi.mock('../core/lifecycle/status', () => ({
  dnsStatus: async () => (asUser.now ? { state: 'degraded', configFacts: { file: '/etc/k2s/dnsproxy.yaml', listeners: [], upstreams: [], zones: [{ zone: 'cluster.local', upstream: '10.96.0.10' }] } } : { state: 'degraded', zonesInUse: ZONES }),
}));

const proxy = (name: string, rcode: string): QueryResult => ({ server: '127.0.0.1:53', name, type: 'A', rcode, answers: [], latencyMs: 20.22, transport: 'udp' }) as QueryResult;

describe('query --server proxy: a SERVFAIL for a cluster name says where the route failed', () => {
  it('one note after the headline: CoreDNS (kube-dns ADDRESS) gave the proxy no answer; run status; exit 0', async () => {
    answer.now = proxy('nginx.default.svc.cluster.local', 'SERVFAIL');
    const r = await runMain(['query', 'nginx.default.svc.cluster.local', '--server', 'proxy']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^;; nginx\.default\.svc\.cluster\.local A via 127\.0\.0\.1:53 \(udp\): SERVFAIL in 20\.22 ms\n;; note: SERVFAIL: the proxy could not get an answer from CoreDNS \(kube-dns 172\.21\.0\.10:53\), where it sends the cluster zone cluster\.local; run (npx )?k2s-dns status, which says why\.\n$/,
    );
  });
  it("as a user (the saved plan root-only): the zones and kube-dns address the running proxy's config routes", async () => {
    answer.now = proxy('nginx.default.svc.cluster.local', 'SERVFAIL');
    asUser.now = true;
    try {
      expect((await runMain(['query', 'nginx.default.svc.cluster.local', '--server', 'proxy'])).stdout).toContain(';; note: SERVFAIL: the proxy could not get an answer from CoreDNS (kube-dns 10.96.0.10:53), where it sends the cluster zone cluster.local;');
    } finally {
      asUser.now = false;
    }
  });
  it('none for a name outside the cluster zones, and none with --json', async () => {
    answer.now = proxy('www.example.test', 'SERVFAIL');
    expect((await runMain(['query', 'www.example.test', '--server', 'proxy'])).stdout).not.toContain('note:');
    answer.now = proxy('nginx.default.svc.cluster.local', 'SERVFAIL');
    expect(JSON.parse((await runMain(['query', 'nginx.default.svc.cluster.local', '--server', 'proxy', '--json'])).stdout)).toMatchObject({ rcode: 'SERVFAIL' });
  });
});
