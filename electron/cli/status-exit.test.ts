import { describe, expect, it } from 'vitest';
import { applyHealth, type HealthReport } from '../../shared/health';
import type { HostDnsStatus } from '../../shared/types';
import { STATUS_EXIT, statusExitCode } from './status-exit';
import { USAGE } from './usage';

const base: HostDnsStatus = {
  state: 'running', engine: 'adguard', engineVersion: null, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [],
  resolverOwner: 'k2s', upstreams: ['192.0.2.53'], clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10',
  savedAt: '2026-12-01T00:00:00.000Z', savedBy: 'k2s-dns', pid: 4242, messages: [],
};
const report = (level: 'ok' | 'error'): HealthReport => ({
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

  it('the CLI help documents the status exit codes', () => {
    expect(USAGE).toContain('status: 0 running or stopped; 1 degraded');
    expect(USAGE).toContain('4 starting or stopping');
  });
});
