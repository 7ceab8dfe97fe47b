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

describe('reconcileHops takes the listener /etc/resolv.conf names (issue 20.3)', () => {
  const resolver = (nameservers: string[]): HealthHop => ({ id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'k2s', ok: true, answers: nameservers, rcode: null, reason: null, latencyMs: null });
  const failingKubeSwitch = () => [
    hop('system', 'system', 'nxdomain', 'NXDOMAIN'),
    resolver(['127.0.0.1']),
    { ...hop('listener:172.19.1.1:53', 'listener', 'timeout', 'TIMEOUT'), reason: '172.19.1.1:53 did not answer in 1500 ms' },
    { ...hop('listener:127.0.0.1:53', 'listener', 'servfail', 'SERVFAIL'), reason: '127.0.0.1:53 answered SERVFAIL' },
    hop('kube-dns', 'kube-dns', 'timeout', 'TIMEOUT'),
  ];

  it('a file listing only 127.0.0.1: the 127.0.0.1 listener’s SERVFAIL, never the 172.19.1.1 listener’s timeout', () => {
    const system = reconcileHops(failingKubeSwitch()).find((h) => h.kind === 'system')!;
    expect(system.outcome).toBe('servfail');
    expect(system.rcode).toBe('SERVFAIL');
    expect(system.reason).toContain('k2s-dnsproxy on 127.0.0.1:53 answered SERVFAIL for it');
    expect(system.reason).not.toContain('172.19.1.1');
  });

  it('the named listener answered from cache: kube-dns’s failure explains it, not another listener', () => {
    const hops = failingKubeSwitch().map((h) => (h.id === 'listener:127.0.0.1:53' ? hop('listener:127.0.0.1:53', 'listener', 'answer', 'NOERROR') : h));
    const system = reconcileHops(hops).find((h) => h.kind === 'system')!;
    expect(system.rcode).toBe('TIMEOUT');
    expect(system.reason).toContain('CoreDNS (kube-dns kube-dns)');
    expect(system.reason).not.toContain('172.19.1.1');
  });

  it('no nameserver line: glibc asks 127.0.0.1, so that listener is the one', () => {
    const hops = failingKubeSwitch().map((h) => (h.kind === 'resolver' ? resolver([]) : h));
    expect(reconcileHops(hops).find((h) => h.kind === 'system')!.rcode).toBe('SERVFAIL');
  });

  it('another program’s file naming a nameserver outside the proxy: its NXDOMAIN is its own answer, left as probed', () => {
    const hops = failingKubeSwitch().map((h) => (h.kind === 'resolver' ? { ...resolver(['192.168.1.1']), outcome: 'foreign' as const, ok: false } : h));
    expect(reconcileHops(hops).find((h) => h.kind === 'system')!.rcode).toBe('NXDOMAIN');
  });
});
