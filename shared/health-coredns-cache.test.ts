/**
 * Issue 20 (M1), one model, every view: with CoreDNS down, host apps still get the proxy's
 * cached answer until CoreDNS's TTL (30 s) ends. While they do, `k2s-dns status` and the
 * window say the same words — an amber warning that names kube-dns and the cache — and once
 * the host apps' lookup fails too, the verdict turns red: "Cluster names do not resolve".
 * The probe results are the shapes measured on the e2e bed for both engines (AdGuard dnsproxy
 * answers SERVFAIL after its own upstream timeout; dnsmasq stays silent).
 */
import { describe, expect, it } from 'vitest';
import { applyHealth, fixText, healthVerdict, hopMark, queryHop, reconcileHops, verdictLine, type HealthHop, type HealthReport } from './health';
import type { HostDnsStatus, QueryResult } from './types';

const NAME = 'kubernetes.default.svc.cluster.local';
const KUBE_DNS = '172.21.0.10:53';

/** One probe result, as electron/core/health/check-health.ts gets it. */
function q(server: string, rcode: string, answers: string[] = [], error?: string, latencyMs = 5): QueryResult {
  return {
    name: NAME,
    type: 'A',
    server,
    transport: server === 'system' ? 'getaddrinfo' : 'udp',
    rcode,
    answers: answers.map((data) => ({ name: NAME, type: 'A', ttl: 12, data })),
    latencyMs,
    ...(error ? { error } : {}),
  };
}

const resolver: HealthHop = { id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'k2s', ok: true, answers: ['127.0.0.1'], rcode: null, reason: null, latencyMs: null };

/** The hops of one check: host apps, resolv.conf, the 127.0.0.1 listener, kube-dns (TIMEOUT: CoreDNS is down), the upstream. */
function hops(system: QueryResult, listener: QueryResult): HealthHop[] {
  return reconcileHops([
    queryHop('system', 'system', system),
    resolver,
    queryHop('listener:127.0.0.1:53', 'listener', listener),
    queryHop('kube-dns', 'kube-dns', q(KUBE_DNS, 'TIMEOUT', [], `no answer from ${KUBE_DNS} over UDP`, 1500)),
    queryHop('upstream:192.0.2.53', 'upstream', { ...q('192.0.2.53:53', 'NOERROR', []), name: '.', type: 'NS' }, false),
  ]);
}

/** The words `k2s-dns status` printed on the bed in this state (both engines). */
const CACHE_WORDS = `CoreDNS (kube-dns ${KUBE_DNS}) does not answer (no reply in 1500 ms); cluster names resolve only from k2s-dnsproxy's cache until their TTL ends`;

/** What `k2s-dns status` prints as its first message, and the window's verdict line (HealthVerdict.tsx: summary — GUI fix). */
function views(h: HealthHop[]) {
  const verdict = healthVerdict({ hops: h, state: 'running', interrupted: false, proxyPid: 4242, following: true });
  const report: HealthReport = { name: NAME, domainSource: 'state', hops: h, verdict, checkedAt: 1, durationMs: 1500 };
  const status = applyHealth({ state: 'running', messages: [] } as unknown as HostDnsStatus, report, 'cli');
  return { verdict, status, window: `${verdict.summary} — ${fixText(verdict.action, 'gui')}` };
}

const ENGINES = {
  // Measured on the bed: the cached answer while the TTL runs, then SERVFAIL (dnsproxy, after ~1 s) or silence (dnsmasq).
  adguard: { expired: q('127.0.0.1:53', 'SERVFAIL', [], undefined, 1006) },
  dnsmasq: { expired: q('127.0.0.1:53', 'TIMEOUT', [], 'no answer from 127.0.0.1:53 over UDP', 1500) },
} as const;

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])('CoreDNS down, %s', (engine) => {
  it('host apps still get the address from the cache: amber, the same words in status and the window', () => {
    const h = hops(q('system', 'NOERROR', ['172.21.0.1']), q('127.0.0.1:53', 'NOERROR', ['172.21.0.1']));
    const { verdict, status, window } = views(h);
    expect(verdict).toMatchObject({ level: 'warn', resolves: true, cause: 'coredns-down', hopId: 'kube-dns', action: 'check-coredns' });
    expect(verdict.summary).toBe(CACHE_WORDS);
    // The CLI's words (its first status message) and the window's line share the summary.
    expect(status.messages[0]).toBe(verdictLine(verdict, 'cli'));
    expect(status.messages[0]!.startsWith(`${CACHE_WORDS} — `)).toBe(true);
    expect(window.startsWith(`${CACHE_WORDS} — `)).toBe(true);
    expect(window).not.toContain('do not resolve');
    // status still says degraded: the proxy cannot reach the cluster, and within the TTL nothing resolves.
    expect(status.state).toBe('degraded');
    // Topology: host apps ✓, kube-dns ✗.
    expect(hopMark(h.find((x) => x.kind === 'system')!, verdict)).toBe('ok');
    expect(hopMark(h.find((x) => x.kind === 'kube-dns')!, verdict)).toBe('fail');
  });
  it('once the cache expired and the host apps lookup fails: red, cluster names do not resolve', () => {
    const failed = ENGINES[engine].expired;
    const system = failed.rcode === 'SERVFAIL' ? q('system', 'SERVFAIL', [], 'getaddrinfo gave up (EAI_AGAIN)', 1006) : q('system', 'TIMEOUT', [], 'getaddrinfo gave up (EAI_AGAIN)', 1280);
    const { verdict, status } = views(hops(system, failed));
    expect(verdict).toMatchObject({ level: 'error', resolves: false, cause: 'coredns-down', hopId: 'kube-dns' });
    expect(verdict.summary).toMatch(/^Cluster names do not resolve on this host: CoreDNS \(kube-dns 172\.21\.0\.10:53\) does not answer/);
    expect(status.state).toBe('degraded');
  });
});
