import { describe, expect, it } from 'vitest';
import { applyHealth, type HealthReport } from '../../shared/health';
import type { HostDnsStatus } from '../../shared/types';
import { STATUS_EXIT, statusExitCode } from '../../shared/status-exit';
import { USAGE } from './usage';

const base: HostDnsStatus = {
  state: 'running', engine: 'adguard', engineVersion: null, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [],
  resolverOwner: 'k2s', upstreams: ['192.0.2.53'], clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10',
  savedAt: '2026-12-01T00:00:00.000Z', savedBy: 'k2s-dns', pid: 4242, messages: [],
};
const report = (level: 'ok' | 'error' | 'off'): HealthReport => ({
  name: 'kubernetes.default.svc.cluster.local', domainSource: 'state', hops: [], checkedAt: 0, durationMs: 1,
  verdict: { level, resolves: level === 'ok', cause: level === 'ok' ? 'ok' : 'coredns-down', hopId: null, summary: level === 'ok' ? 'resolves' : 'CoreDNS does not answer', action: level === 'ok' ? null : 'check-coredns' },
});

describe('k2s-dns status exit code', () => {
  it('running or stopped → 0; degraded (incl. a health error on a running host) → 1; starting/stopping → 4', () => {
    expect(statusExitCode(applyHealth(base, report('ok'), 'cli'))).toBe(0);
    expect(statusExitCode({ state: 'stopped' })).toBe(0);
    // CoreDNS down while the proxy and resolver look fine: applyHealth makes it degraded → 1.
    const sick = applyHealth(base, report('error'), 'cli');
    expect(sick.state).toBe('degraded');
    expect(statusExitCode(sick)).toBe(1);
    expect(statusExitCode({ state: 'degraded' })).toBe(STATUS_EXIT.degraded);
    expect(statusExitCode({ state: 'starting' })).toBe(4);
    expect(statusExitCode({ state: 'stopping' })).toBe(4);
  });

  it('walk 6 L2: stopped while no name resolves with the host\'s own resolver → 5, not 0; stopped and fine (verdict off) → 0', async () => {
    const { checkHealth } = await import('../core/health/check-health');
    const stopped: HostDnsStatus = { ...base, state: 'stopped', engine: null, listeners: [], resolverOwner: 'original', upstreams: [], clusterDomain: null, kubeDnsIp: null, savedAt: null, savedBy: null, pid: null };
    // Their garbage file kept by `stop --on-drift keep`: no nameserver line, so glibc asks 127.0.0.1:53, where nothing listens.
    const refused = (server: string) => ({ name: 'x', type: 'A' as const, server, transport: 'udp' as const, rcode: 'ERROR', answers: [], latencyMs: 1, error: 'recvmsg ECONNREFUSED' });
    const r = await checkHealth({
      status: async () => stopped,
      query: async (o) => refused(o.server),
      lookup: async () => ({ name: 'kubernetes.default.svc.cluster.local', type: 'A' as const, server: 'system', transport: 'getaddrinfo' as const, rcode: 'TIMEOUT', answers: [], latencyMs: 3, error: 'getaddrinfo gave up at once (EAI_AGAIN): 127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable)' }),
      resolvConfText: async () => 'garbage\n',
      now: () => 0,
    });
    expect(r.verdict).toMatchObject({ level: 'error', cause: 'no-nameserver' });
    const folded = applyHealth(stopped, r, 'cli');
    expect(folded.state).toBe('stopped');
    expect(statusExitCode(folded)).toBe(5);
    expect(STATUS_EXIT.resolverDown).toBe(5);
    expect(statusExitCode(applyHealth(stopped, report('off'), 'cli'))).toBe(0);
  });

  it('the CLI help documents the status exit codes', () => {
    expect(USAGE).toContain('status: 0 running or stopped; 1 degraded');
    expect(USAGE).toContain('4 starting or stopping');
    expect(USAGE).toMatch(/5 stopped, but no\s+name resolves with this host's own \/etc\/resolv\.conf/);
  });
});
