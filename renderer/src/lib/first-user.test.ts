import { describe, expect, it } from 'vitest';
import type { K2sDnsApi } from '../../../shared/api';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus, LogLine, QueryResult } from '../../../shared/types';
import { logLine } from '../../../e2e/support/backend-fake-data';
import { createLogsStore } from '../stores/logs';
import { buttonStates, isNoKubeconfigReason, noKubeconfigReason } from './button-states';
import { dropOverlap } from './log-merge';
import { targetDescription, targetOf, targetTitle } from './query-target';
import { buildTimeline, HELPER_STARTING } from './timeline';
import { NOT_IN_USE, topologyFromHealth } from './topology';
import { healthVerdict, queryHop, type HealthHop, type HealthReport } from '../../../shared/health';

const NO_ENGINE = 'AdGuard dnsproxy was not found at /opt/k2s/bin/dnsproxy; install K2s or pass --dnsproxy PATH, or use --engine dnsmasq.';

const stopped: HostDnsStatus = {
  state: 'stopped', engine: null, engineVersion: null, listeners: [], skippedListeners: [], resolverOwner: 'original',
  upstreams: [], clusterDomain: null, kubeDnsIp: null, savedAt: null, savedBy: null, pid: null, messages: [],
};

describe('timeline (first-user fixes)', () => {
  it('shows preflight running while the privileged helper starts, before any event', () => {
    const t = buildTimeline([], 'start');
    expect(t.op).toBe('start');
    expect(t.steps[0]).toEqual({ step: 'preflight', status: 'running', message: HELPER_STARTING, at: null });
    expect(t.steps.slice(1).map((s) => s.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending']);
    // A previous operation's result does not hide the new one.
    const old: LifecycleEvent = { type: 'result', op: 'stop', ok: true, exitCode: 0, message: 'Stopped.', at: 1 };
    expect(buildTimeline([old], 'start').steps[0]!.message).toBe('starting the privileged helper…');
  });

  it('a refused start (exit 3, no rollback event) is "refused", with later steps dropped', () => {
    const events: LifecycleEvent[] = [
      { type: 'step', op: 'start', step: 'preflight', status: 'running', message: 'Checking the host.', at: 1 },
      { type: 'step', op: 'start', step: 'preflight', status: 'failed', message: NO_ENGINE, at: 2 },
      { type: 'result', op: 'start', ok: false, exitCode: 3, code: 'NO_ENGINE', message: NO_ENGINE, at: 3 },
    ];
    const t = buildTimeline(events);
    expect(t.outcome).toBe('refused');
    expect(t.steps.map((s) => `${s.step}:${s.status}`)).toEqual(['preflight:failed']);
    expect(t.failed!.message).toBe(t.result!.message);
  });

  it('says rolled back only when a rollback step arrived', () => {
    const events: LifecycleEvent[] = [
      { type: 'step', op: 'start', step: 'service', status: 'failed', message: 'k2s-dnsproxy exited with status 1.', at: 1 },
      { type: 'step', op: 'start', step: 'rollback', status: 'done', message: 'Restored /etc/resolv.conf.', at: 2 },
      { type: 'result', op: 'start', ok: false, exitCode: 1, code: 'SERVICE_FAILED', message: 'k2s-dnsproxy exited with status 1.', at: 3 },
    ];
    expect(buildTimeline(events).outcome).toBe('rolled-back');
    expect(buildTimeline(events.filter((e) => e.type === 'result' || e.step !== 'rollback')).outcome).toBe('failed');
  });

  it('a start that succeeded with warnings is "warned", not plain done (an unanswered upstream is no green)', () => {
    const ok: LifecycleEvent = { type: 'result', op: 'start', ok: true, exitCode: 0, message: 'K2s DNS is running.', at: 2 };
    const warning = { code: 'UPSTREAM_UNVERIFIED', message: 'The upstream 192.0.2.53 did not answer www.example.test within 15000 ms.' };
    expect(buildTimeline([{ ...ok, warnings: [warning] }]).outcome).toBe('warned');
    expect(buildTimeline([{ ...ok, warnings: [warning] }]).result!.warnings).toEqual([warning]);
    expect(buildTimeline([{ ...ok, warnings: [] }]).outcome).toBe('done');
    expect(buildTimeline([ok]).outcome).toBe('done');
  });
});

describe('buttonStates without a kubeconfig', () => {
  it('disables Start with the visible reason, leaves Uninstall alone', () => {
    const b = buttonStates(stopped, null, null, noKubeconfigReason('npm start -- --kubeconfig PATH'));
    expect(b.start).toEqual({ enabled: false, reason: 'No kubeconfig found: start K2s first, or restart the app with `npm start -- --kubeconfig PATH`.' });
    expect(b.uninstall.enabled).toBe(true);
    expect(buttonStates(stopped, null, null, null).start).toEqual({ enabled: true, reason: null });
  });

  it("names the line the backend gives for how this install runs (the package's `k2s-dns app`, not the checkout's npm start), and no guessed command without one", () => {
    expect(noKubeconfigReason('k2s-dns app --kubeconfig PATH')).toBe('No kubeconfig found: start K2s first, or restart the app with `k2s-dns app --kubeconfig PATH`.');
    expect(noKubeconfigReason(undefined)).toBe('No kubeconfig found: start K2s first, or restart the app with a kubeconfig (the Cluster card says how).');
    expect(noKubeconfigReason(undefined)).not.toContain('npm start');
    // Whatever command it names, the verdict knows it for this reason (HealthVerdict startPointer).
    expect(isNoKubeconfigReason(noKubeconfigReason('k2s-dns app --kubeconfig PATH'))).toBe(true);
    expect(isNoKubeconfigReason(noKubeconfigReason(null))).toBe(true);
    expect(isNoKubeconfigReason('127.0.0.1:53 held by dnsmasq (PID 812): stop it, then press Check again.')).toBe(false);
    expect(isNoKubeconfigReason(null)).toBe(false);
  });
});

describe('query targets', () => {
  const targets = [
    { id: 'system', label: 'System resolver (getaddrinfo)', server: 'system' },
    { id: 'proxy', label: 'K2s proxy 127.0.0.1:53', server: '127.0.0.1:53' },
    { id: 'coredns', label: 'CoreDNS direct 172.21.0.10', server: '172.21.0.10:53' },
    { id: '192.0.2.53', label: 'Upstream 192.0.2.53', server: '192.0.2.53' },
  ];
  it('titles an upstream "Upstream 192.0.2.53" even when the result says 192.0.2.53:53', () => {
    expect(targetTitle(targetOf(targets, '192.0.2.53:53'), '192.0.2.53:53')).toBe('Upstream 192.0.2.53');
    expect(targetTitle(null, '[fd00::53]:5353')).toBe('Upstream [fd00::53]:5353');
    expect(targetTitle(targetOf(targets, '172.21.0.10:53'), '172.21.0.10:53')).toBe('CoreDNS direct 172.21.0.10');
  });
  it('describes every target but the proxy (which shows its zone route)', () => {
    expect(targetDescription(targets[1]!)).toBeNull();
    expect(targetDescription(targets[2]!)).toBe('CoreDNS directly at 172.21.0.10 (the kube-dns ClusterIP), bypassing the K2s proxy: answers cluster zones only as the cluster sees them.');
    expect(targetDescription(targets[3]!)).toBe('Upstream nameserver 192.0.2.53 directly, bypassing the K2s proxy: the proxy forwards every non-cluster name here.');
    expect(targetDescription(targets[0]!)).toContain('getaddrinfo');
  });
});

describe('topology while K2s DNS is stopped', () => {
  const nx = (server: string): QueryResult => ({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server, transport: 'getaddrinfo', rcode: 'NXDOMAIN', answers: [], latencyMs: 3 });
  const report = (system: QueryResult): HealthReport => {
    const hops: HealthHop[] = [
      queryHop('system', 'system', system),
      { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'original', ok: false, answers: ['192.0.2.53'], rcode: null, reason: 'original', latencyMs: null },
      { id: 'listener:127.0.0.1:53', kind: 'listener', target: '127.0.0.1:53', name: null, type: null, outcome: 'idle', ok: false, answers: [], rcode: null, reason: NOT_IN_USE, latencyMs: null },
      { id: 'kube-dns', kind: 'kube-dns', target: '172.21.0.10:53', name: null, type: null, outcome: 'idle', ok: false, answers: [], rcode: null, reason: NOT_IN_USE, latencyMs: null },
      queryHop('upstream:192.0.2.53', 'upstream', { ...nx('192.0.2.53:53'), type: 'NS', name: '.', rcode: 'NOERROR' }, false),
    ];
    return { name: 'kubernetes.default.svc.cluster.local', domainSource: 'default', hops, verdict: healthVerdict({ hops, state: 'stopped', interrupted: false }), checkedAt: 1, durationMs: 3 };
  };
  it('greys the proxy and CoreDNS, judges host → resolv.conf → upstream on its own', () => {
    const hops = topologyFromHealth(report(nx('system')));
    expect(hops.map((h) => [h.id, h.ok, !!h.idle])).toEqual([
      // Host apps' NXDOMAIN for the cluster name is expected while stopped: neutral, not green.
      ['system', null, false],
      ['resolver', true, false],
      ['listener:127.0.0.1:53', null, true],
      ['kube-dns', null, true],
      ['upstream:192.0.2.53', true, false],
    ]);
    expect(hops[0]!.mark).toBe('idle');
    expect(hops[0]!.error).toBe('your nameservers answered NXDOMAIN: cluster names need K2s DNS');
    expect(hops[0]!.detail).toBe('getaddrinfo · NXDOMAIN · 3 ms');
  });
  it('is red only when the original nameservers do not answer, with the EAI_AGAIN reason inline', () => {
    const hops = topologyFromHealth(report({ ...nx('system'), rcode: 'TIMEOUT', latencyMs: 4000, error: 'EAI_AGAIN: temporary failure' }));
    expect(hops[0]).toMatchObject({ ok: false, error: 'getaddrinfo did not answer in 4000 ms (EAI_AGAIN: temporary failure)' });
  });
});

describe('log lines are never delivered twice', () => {
  const L = Array.from({ length: 10 }, (_, i) => logLine(1_700_000_000_000 + i * 1000, 'INFO', `line ${i}`));
  it('dropOverlap trims a replayed prefix, keeps new lines, leaves unrelated batches alone', () => {
    expect(dropOverlap(L.slice(0, 8), L.slice(3, 10)).map((l) => l.message)).toEqual(['line 8', 'line 9']);
    expect(dropOverlap(L.slice(0, 8), L.slice(5, 8))).toEqual([]);
    expect(dropOverlap(L.slice(0, 8), L.slice(8))).toEqual(L.slice(8));
    expect(dropOverlap(L.slice(0, 8), L.slice(2, 4))).toEqual(L.slice(2, 4));
    expect(dropOverlap(L.slice(0, 8), L.slice(2, 4), true)).toEqual([]);
  });

  it('the store: a follower replay after the tail and a tail refresh do not double the buffer', async () => {
    let push: (lines: LogLine[]) => void = () => undefined;
    let fileLines = L.slice(0, 6);
    const api = { logsPage: async () => ({ lines: fileLines, older: null, lost: false }), logsExact: () => Promise.reject(new Error('no exact query log in this test')), onLogLines: (cb: (l: LogLine[]) => void) => ((push = cb), () => undefined), onLogReset: () => () => undefined } as unknown as K2sDnsApi;
    const logs = createLogsStore(api);
    logs.getState().attach();
    await logs.getState().loadTail();
    // The shared follower resumed at an older tail's offset: lines 2..7 arrive, 2..5 are already here.
    push(L.slice(2, 8));
    expect(logs.getState().lines.map((l) => l.message)).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', 'line 7']);
    push(L.slice(8, 9));
    fileLines = L.slice(0, 9);
    await logs.getState().loadTail();
    await logs.getState().loadTail();
    expect(logs.getState().lines).toHaveLength(9);
  });
});
