/** `k2s-dns status` hop marks (shared/health.ts hopMark): the stopped state is healthy; an upstream answering NXDOMAIN for . NS is ✓ (reachable), one answering REFUSED is `!`. */
import { describe, expect, it } from 'vitest';
import { healthVerdict, type HealthHop, type HealthReport } from '../../shared/health';
import type { HostDnsStatus } from '../../shared/types';
import { topologyFromHealth } from '../../renderer/src/lib/topology';
import { formatStatus } from './print';

const hop = (h: Partial<HealthHop> & Pick<HealthHop, 'id' | 'kind' | 'target' | 'outcome' | 'ok'>): HealthHop => ({ name: null, type: null, answers: [], rcode: null, reason: null, latencyMs: null, ...h });

function statusWith(hops: HealthHop[], state: HostDnsStatus['state']): HostDnsStatus {
  const verdict = healthVerdict({ hops, state, interrupted: false });
  const health: HealthReport = { name: 'kubernetes.default.svc.cluster.local', domainSource: 'default', hops, verdict, checkedAt: 1, durationMs: 5 };
  return { state, engine: null, engineVersion: null, pid: null, listeners: [], skippedListeners: [], resolverOwner: 'original', upstreams: [], clusterDomain: null, kubeDnsIp: null, savedAt: null, savedBy: null, messages: [], health } as unknown as HostDnsStatus;
}

const STOPPED: HealthHop[] = [
  hop({ id: 'system', kind: 'system', target: 'getaddrinfo', name: 'kubernetes.default.svc.cluster.local', type: 'A', outcome: 'nxdomain', ok: false, rcode: 'NXDOMAIN', latencyMs: 3, reason: 'getaddrinfo answered NXDOMAIN' }),
  hop({ id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', outcome: 'original', ok: false, answers: ['10.0.0.53'], reason: '/etc/resolv.conf is your original' }),
  hop({ id: 'listener:127.0.0.1:53', kind: 'listener', target: '127.0.0.1:53', outcome: 'idle', ok: false }),
  hop({ id: 'kube-dns', kind: 'kube-dns', target: '172.21.0.10:53', outcome: 'idle', ok: false }),
  // The sandbox's "external" nameserver: NXDOMAIN for everything it does not serve, the root too.
  hop({ id: 'upstream:10.0.0.53', kind: 'upstream', target: '10.0.0.53:53', name: '.', type: 'NS', outcome: 'answer', ok: true, rcode: 'NXDOMAIN', latencyMs: 2 }),
];

describe('status hop marks', () => {
  it('stopped with the original resolver: ✓ for /etc/resolv.conf, – for idle hops', () => {
    const out = formatStatus(statusWith(STOPPED, 'stopped'));
    expect(out).toContain('  ✓ /etc/resolv.conf: original (nameservers 10.0.0.53)');
    expect(out).toContain('  – k2s-dnsproxy on 127.0.0.1:53');
    expect(out).not.toMatch(/✗ \/etc\/resolv.conf/);
    // Host apps' NXDOMAIN for the cluster name is expected while stopped: neutral –, neither ✓ nor ✗.
    expect(out).toMatch(/^  – host apps \(getaddrinfo\): NXDOMAIN/m);
    expect(out).not.toMatch(/[✓✗] host apps/);
  });

  it('an upstream answering NXDOMAIN for . NS is ✓ with why (reachable; walk15: status said ! where doctor said OK), in the CLI and Topology alike', () => {
    const out = formatStatus(statusWith(STOPPED, 'stopped'));
    expect(out).toContain('  ✓ upstream 10.0.0.53:53: NXDOMAIN for . (the root zone) NS in 2 ms: it answers; a local-only or split-horizon resolver need not serve the root zone');
    const boxes = topologyFromHealth(statusWith(STOPPED, 'stopped').health!);
    const up = boxes.find((b) => b.id === 'upstream:10.0.0.53')!;
    expect(up.mark).toBe('ok');
    expect(up.ok).toBe(true);
    expect(up.error).toBe('answers NXDOMAIN for . NS: a local-only or split-horizon resolver need not serve the root zone');
    expect(boxes.find((b) => b.id === 'resolver')).toMatchObject({ ok: true, mark: 'ok' });
  });

  it('an upstream answering REFUSED is "!", not ✓ (CLI) and amber, not green (Topology)', () => {
    const refused = STOPPED.map((h) => (h.kind === 'upstream' ? { ...h, rcode: 'REFUSED' } : h));
    expect(formatStatus(statusWith(refused, 'stopped'))).toContain('  ! upstream 10.0.0.53:53: REFUSED for . (the root zone) NS in 2 ms: it answers, but a working recursive resolver answers that NOERROR');
    const up = topologyFromHealth(statusWith(refused, 'stopped').health!).find((b) => b.id === 'upstream:10.0.0.53')!;
    expect(up).toMatchObject({ mark: 'warn', ok: false, error: 'answers, but REFUSED for . NS: it may not resolve Internet names' });
  });

  it('a NOERROR upstream stays ✓; a resolver that is original while running stays ✗', () => {
    const noerror = STOPPED.map((h) => (h.kind === 'upstream' ? { ...h, rcode: 'NOERROR', answers: ['a.root-servers.net.'] } : h));
    expect(formatStatus(statusWith(noerror, 'stopped'))).toContain('  ✓ upstream 10.0.0.53:53: a.root-servers.net.');
    const running = formatStatus(statusWith(STOPPED, 'running'));
    expect(running).toContain('  ✗ /etc/resolv.conf: original');
  });
});
