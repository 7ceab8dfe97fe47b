/** The System resolver's route in the Query tester (issue 20 low: it showed none; walk 10 M1: CoreDNS down said "not through the K2s proxy"). */
import { describe, expect, it } from 'vitest';
import { routeBreak, routeListeners, systemRoute } from './system-route';
import type { HealthHop, HealthReport } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';

const LISTENERS = [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }];

describe('systemRoute', () => {
  it('K2s-owned /etc/resolv.conf: through the proxy listener its nameserver names', () => {
    expect(systemRoute('# K2s DNS\nnameserver 127.0.0.1\nsearch cluster.local\n', LISTENERS)).toEqual({ viaK2s: true, words: '/etc/resolv.conf → nameserver 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)' });
    expect(systemRoute('nameserver 172.19.1.1\n', LISTENERS).words).toBe('/etc/resolv.conf → nameserver 172.19.1.1 → k2s-dnsproxy (172.19.1.1:53)');
  });

  it('no nameserver line: glibc asks 127.0.0.1, the proxy while it runs', () => {
    expect(systemRoute('search example.test\n', LISTENERS)).toEqual({ viaK2s: true, words: '/etc/resolv.conf → no nameserver line, so glibc asks 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)' });
  });

  it("the host's own nameserver, or K2s DNS stopped: not through the proxy", () => {
    expect(systemRoute('nameserver 192.0.2.53\nnameserver 127.0.0.1\n', LISTENERS)).toEqual({ viaK2s: false, words: '/etc/resolv.conf → nameserver 192.0.2.53, not through the K2s proxy' });
    expect(systemRoute('nameserver 127.0.0.1\n', [])).toEqual({ viaK2s: false, words: '/etc/resolv.conf → nameserver 127.0.0.1, not through the K2s proxy' });
  });
});

const hop = (id: string, kind: HealthHop['kind'], target: string, ok: boolean, outcome: HealthHop['outcome']): HealthHop => ({ id, kind, target, name: null, type: null, outcome, ok, answers: [], rcode: null, reason: null, latencyMs: null });
const verdict = (level: HealthReport['verdict']['level'], cause: HealthReport['verdict']['cause'], hopId: string | null): HealthReport['verdict'] => ({ level, resolves: level !== 'error', cause, hopId, summary: '', action: null });
const HOPS = [hop('resolver', 'resolver', '/etc/resolv.conf', true, 'k2s'), hop('listener:127.0.0.1:53', 'listener', '127.0.0.1:53', false, 'servfail'), hop('kube-dns', 'kube-dns', '172.21.0.10:53', false, 'unreachable'), hop('upstream:192.0.2.53', 'upstream', '192.0.2.53:53', true, 'answer')];
const CLUSTER_ROUTE = { zone: 'cluster.local', upstream: '172.21.0.10:53' };

describe('routeListeners (walk 10 M1)', () => {
  const status = (state: HostDnsStatus['state']) => ({ state, listeners: LISTENERS });
  it('CoreDNS down makes status degraded: still the recorded listeners, so the route goes through the proxy', () => {
    expect(routeListeners(status('degraded'))).toBe(LISTENERS);
    expect(systemRoute('# K2s DNS\nnameserver 127.0.0.1\n', routeListeners(status('degraded')))).toEqual({ viaK2s: true, words: '/etc/resolv.conf → nameserver 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)' });
    expect(routeListeners(status('running'))).toBe(LISTENERS);
  });
  it('stopped, or no status: none', () => {
    expect(routeListeners(status('stopped'))).toEqual([]);
    expect(routeListeners(null)).toEqual([]);
  });
});

describe('routeBreak: the hop the verdict names, on this route', () => {
  it('CoreDNS down: a cluster name sent to kube-dns breaks there, in the verdict words', () => {
    const report = { hops: HOPS, verdict: verdict('error', 'coredns-down', 'kube-dns') };
    expect(routeBreak(report, CLUSTER_ROUTE)).toBe('CoreDNS (kube-dns 172.21.0.10:53) does not answer');
    // No zone route shown (glibc's search candidates are): the cluster hop still.
    expect(routeBreak(report, null)).toBe('CoreDNS (kube-dns 172.21.0.10:53) does not answer');
    // Answers from the cache (amber): the same hop.
    expect(routeBreak({ hops: HOPS, verdict: verdict('warn', 'coredns-down', 'kube-dns') }, CLUSTER_ROUTE)).toBe('CoreDNS (kube-dns 172.21.0.10:53) does not answer');
    // An Internet name never goes to CoreDNS.
    expect(routeBreak(report, { zone: null, upstream: '192.0.2.53' })).toBeNull();
  });
  it('the proxy down breaks every route through it; a dead upstream only names outside every zone', () => {
    expect(routeBreak({ hops: HOPS, verdict: verdict('error', 'proxy-down', 'listener:127.0.0.1:53') }, CLUSTER_ROUTE)).toBe('k2s-dnsproxy on 127.0.0.1:53 does not answer');
    const up = { hops: HOPS, verdict: verdict('error', 'upstream-down', 'upstream:192.0.2.53') };
    expect(routeBreak(up, { zone: null, upstream: '192.0.2.53' })).toBe('upstream 192.0.2.53:53 does not answer');
    expect(routeBreak(up, CLUSTER_ROUTE)).toBeNull();
  });
  it('nothing broken, stopped, drift or no report: none', () => {
    expect(routeBreak({ hops: HOPS, verdict: verdict('ok', 'ok', null) }, CLUSTER_ROUTE)).toBeNull();
    expect(routeBreak({ hops: HOPS, verdict: verdict('off', 'stopped', 'system') }, CLUSTER_ROUTE)).toBeNull();
    expect(routeBreak({ hops: HOPS, verdict: verdict('warn', 'drift', 'resolver') }, CLUSTER_ROUTE)).toBeNull();
    expect(routeBreak(null, CLUSTER_ROUTE)).toBeNull();
  });
});
