/**
 * A ProxyPlan for renderer tests: K2s defaults (kube-dns 172.21.0.10, listeners 127.0.0.1 and
 * the KubeSwitch 172.19.1.1), one LAN nameserver and one link-local IPv6 nameserver.
 */
import type { ProxyPlan, ZoneRoute } from '../../shared/types';

/** A ZoneRoute to kube-dns for tests. */
export function testRoute(zone: string, reason: string, upstream = '172.21.0.10'): ZoneRoute {
  const reverse = zone.endsWith('.arpa');
  return { zone, upstream, source: reverse ? 'cidr' : 'corefile', reason, clusterDomain: zone === 'cluster.local', reverse };
}

/** The plan the renderer tests start from; override fields per test. */
export function testPlan(over: Partial<ProxyPlan> = {}): ProxyPlan {
  return {
    engine: 'adguard',
    listeners: [
      { address: '127.0.0.1', port: 53 },
      { address: '172.19.1.1', port: 53 },
    ],
    zones: [
      testRoute('cluster.local', 'Corefile server block ".:53", plugin "kubernetes"'),
      testRoute('consul.internal', 'Corefile server block "consul.internal:53", plugin "forward"'),
      testRoute('20.172.in-addr.arpa', 'pod CIDR 172.20.0.0/16'),
      testRoute('21.172.in-addr.arpa', 'service CIDR 172.21.0.0/16'),
    ],
    upstreams: ['192.168.1.1', 'fe80::1%wlp2s0'],
    clusterCidrs: ['172.21.0.0/16', '172.20.0.0/16'],
    logFile: '/var/log/dnsproxy/dnsproxy.log',
    timeoutMs: 10000,
    verbose: false,
    ...over,
  };
}
