/**
 * Issue 20.2, one model in every view: CoreDNS down, probed as each engine behaves (measured on
 * the bed: AdGuard dnsproxy answers the proxy's SERVFAIL/timeout and glibc then returns the
 * upstream's NXDOMAIN for the search-list expansion `<name>.lan`; dnsmasq: getaddrinfo
 * EAI_AGAIN). The verdict, the Topology boxes, `k2s-dns status` and the Query tester's
 * getaddrinfo card must all say the same thing about host apps, and never NXDOMAIN.
 */
import { describe, expect, it } from 'vitest';
import { checkHealth } from './check-health';
import { applyHealth, reconcileSystemResult } from '../../../shared/health';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';
import { topologyFromHealth } from '../../../renderer/src/lib/topology';
import { formatStatus } from '../../cli/print';
import { gaiRcode } from '../probes/gai-lookup';

const NAME = 'kubernetes.default.svc.cluster.local';
const RESOLV = '# Managed by K2s native Linux installation; restored by k2s stop or uninstall\n# Written by K2s DNS while it runs: "k2s-dns stop" (or Stop in its window) puts back your original, saved in /var/lib/k2s/dns-resolver-state.json\nsearch lan\nnameserver 127.0.0.1\n';

function status(engine: 'adguard' | 'dnsmasq'): HostDnsStatus {
  return {
    state: 'running', engine, engineVersion: null, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [],
    resolverOwner: 'k2s', upstreams: ['192.168.1.1'], clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10',
    savedAt: '2026-12-01T10:00:00Z', savedBy: 'k2s-dns', pid: 4242, messages: [],
  };
}

const res = (name: string, server: string, rcode: string, latencyMs: number, error?: string): QueryResult => ({
  name, type: 'A', server, transport: server === 'system' ? 'getaddrinfo' : 'udp', rcode, answers: [], latencyMs, ...(error ? { error } : {}),
});

/** getaddrinfo of a cluster name with CoreDNS down, as each engine makes glibc see it. */
function gai(engine: 'adguard' | 'dnsmasq', name: string): QueryResult {
  const code = engine === 'adguard' ? 'ENOTFOUND' : 'EAI_AGAIN';
  return res(name, 'system', gaiRcode(code).rcode, 2100, gaiRcode(code).error);
}

for (const engine of ['adguard', 'dnsmasq'] as const) {
  describe(`CoreDNS down, ${engine}`, () => {
    it('verdict, Topology, status and the Query tester agree on host apps: no answer, never NXDOMAIN', async () => {
      const st = status(engine);
      const report = await checkHealth({
        status: async () => st,
        resolvConfText: async () => RESOLV,
        lookup: async (name) => gai(engine, name),
        query: async (q) =>
          q.name === '.' ? { ...res('.', q.server, 'NOERROR', 3), type: 'NS' }
          : q.server === '127.0.0.1:53' && engine === 'adguard' ? res(q.name, q.server, 'SERVFAIL', 1500)
          : res(q.name, q.server, 'TIMEOUT', 1500, `no reply within ${q.timeoutMs} ms`),
        now: () => 1_000,
      });
      // The verdict.
      expect(report.verdict.cause).toBe('coredns-down');
      expect(report.verdict.summary).not.toMatch(/NXDOMAIN/);
      const sys = report.hops.find((h) => h.kind === 'system')!;
      const listener = report.hops.find((h) => h.kind === 'listener')!;
      expect(sys.outcome).toBe(listener.outcome);
      expect(sys.rcode).toBe(engine === 'adguard' ? 'SERVFAIL' : 'TIMEOUT');
      // Topology.
      const box = topologyFromHealth(report).find((h) => h.id === 'system')!;
      expect(box.ok).toBe(false);
      expect(`${box.detail} ${box.error}`).not.toMatch(/NXDOMAIN|does not know/);
      expect(box.detail).toBe(`getaddrinfo · ${sys.rcode} · 2100 ms`);
      // k2s-dns status.
      const text = formatStatus(applyHealth(st, report, 'cli'));
      const line = text.split('\n').find((l: string) => l.includes('getaddrinfo'))!;
      expect(line).toContain(sys.rcode!);
      expect(text).not.toMatch(/NXDOMAIN/);
      // The Query tester's getaddrinfo card for the user's own spelling of the name.
      const card = reconcileSystemResult(gai(engine, NAME), report);
      expect(card.rcode).toBe(sys.rcode);
      // Names outside the cluster domain keep what getaddrinfo said.
      expect(reconcileSystemResult(gai(engine, 'nx.example.org'), report).rcode).toBe(gai(engine, 'nx.example.org').rcode);
    });
  });
}
