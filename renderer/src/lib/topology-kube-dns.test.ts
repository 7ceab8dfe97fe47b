import { describe, expect, it } from 'vitest';
import { topologyFromHealth } from './topology';
import { healthVerdict, type HealthHop, type HealthReport } from '../../../shared/health';

const idle = (addressFrom: HealthHop['addressFrom']): HealthHop => ({ id: 'kube-dns', kind: 'kube-dns', target: '172.21.0.10:53', name: null, type: null, outcome: 'idle', ok: false, answers: [], rcode: null, reason: 'not in use: K2s DNS is stopped', latencyMs: null, addressFrom });
const report = (hop: HealthHop): HealthReport => ({ name: 'kubernetes.default.svc.cluster.local', domainSource: 'default', hops: [hop], verdict: healthVerdict({ hops: [hop], state: 'stopped', interrupted: false }), checkedAt: 1, durationMs: 1 });

describe("Topology's CoreDNS box says K2s's default address as the default", () => {
  it('not discovered: the default and why, as the CLI says it', () => {
    expect(topologyFromHealth(report(idle({ source: 'default', why: 'no kubeconfig' })))[0]!.detail).toBe("172.21.0.10:53 (K2s's default: not discovered — no kubeconfig)");
  });
  it("read by the window's cluster discovery while stopped: said as read from the cluster, not as not discovered", () => {
    expect(topologyFromHealth(report(idle({ source: 'cluster', why: null })))[0]!.detail).toBe('172.21.0.10:53 (read from the cluster)');
  });
  it('discovered: the address alone', () => {
    expect(topologyFromHealth(report(idle({ source: 'discovered', why: null })))[0]!.detail).toBe('172.21.0.10:53');
  });
});
