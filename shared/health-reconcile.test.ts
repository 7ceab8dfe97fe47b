/**
 * reconcileHops: a getaddrinfo NXDOMAIN for the cluster name while kube-dns (the only place the
 * proxy sends the cluster zones) fails is a search-list expansion's answer, not the name's —
 * also when the listener probe still answered from the proxy's cache (seen with AdGuard
 * dnsproxy and CoreDNS down: `k2s-dns status` showed the host apps' hop as NXDOMAIN).
 */
import { describe, expect, it } from 'vitest';
import { reconcileHops } from './health';
import type { HealthHop } from './health-report';

const NAME = 'kubernetes.default.svc.cluster.local';
const hop = (id: string, kind: HealthHop['kind'], outcome: HealthHop['outcome'], rcode: string | null): HealthHop => ({
  id, kind, target: kind === 'system' ? 'getaddrinfo' : id.replace(/^listener:/, ''), name: NAME, type: 'A', outcome, ok: outcome === 'answer', answers: outcome === 'answer' ? ['172.21.0.1'] : [], rcode, reason: null, latencyMs: 5,
});

describe('reconcileHops with kube-dns down', () => {
  it('takes kube-dns timeout for the host apps hop when the listener answered from cache', () => {
    const hops = [hop('system', 'system', 'nxdomain', 'NXDOMAIN'), hop('listener:127.0.0.1:53', 'listener', 'answer', 'NOERROR'), hop('kube-dns', 'kube-dns', 'timeout', 'TIMEOUT')];
    const system = reconcileHops(hops).find((h) => h.kind === 'system')!;
    expect(system.outcome).toBe('timeout');
    expect(system.rcode).toBe('TIMEOUT');
    expect(system.reason).toContain('search-list expansion');
  });

  it('leaves a NXDOMAIN alone when every hop answered', () => {
    const hops = [hop('system', 'system', 'nxdomain', 'NXDOMAIN'), hop('listener:127.0.0.1:53', 'listener', 'answer', 'NOERROR'), hop('kube-dns', 'kube-dns', 'answer', 'NOERROR')];
    expect(reconcileHops(hops).find((h) => h.kind === 'system')!.rcode).toBe('NXDOMAIN');
  });
});
