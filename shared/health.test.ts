import { describe, expect, it } from 'vitest';
import { applyHealth, fixText, healthVerdict, verdictFix, outcomeOf, queryHop, reportFitsStatus, statusFingerprint, verdictLine, type HealthHop, type HealthReport } from './health';
import type { HostDnsStatus, QueryResult } from './types';
import { setCliName } from './fix';
import { notResolverFix, notResolverGuiFix } from './network-writer';

const NAME = 'kubernetes.default.svc.cluster.local';

function q(server: string, rcode: string, answers: string[] = [], error?: string, type: 'A' | 'NS' = 'A'): QueryResult {
  return {
    name: type === 'NS' ? '.' : NAME,
    type,
    server,
    transport: server === 'system' ? 'getaddrinfo' : 'udp',
    rcode,
    answers: answers.map((data) => ({ name: NAME, type: 'A', ttl: 30, data })),
    latencyMs: rcode === 'TIMEOUT' ? 1500 : 2.5,
    ...(error ? { error } : {}),
  };
}

const resolverHop = (outcome: HealthHop['outcome']): HealthHop => ({
  id: 'resolver',
  kind: 'resolver',
  target: '/etc/resolv.conf',
  name: null,
  type: null,
  outcome,
  ok: outcome === 'k2s',
  answers: outcome === 'k2s' ? ['127.0.0.1'] : ['192.168.1.1'],
  rcode: null,
  reason: outcome === 'k2s' ? null : `owner: ${outcome}`,
  latencyMs: null,
});

/** A running host where every hop answers; tests break one hop at a time. */
function hops(over: Partial<Record<'system' | 'listener' | 'kubeDns' | 'upstream', QueryResult>> = {}, resolver: HealthHop['outcome'] = 'k2s'): HealthHop[] {
  return [
    queryHop('system', 'system', over.system ?? q('system', 'NOERROR', ['172.21.0.1'])),
    resolverHop(resolver),
    queryHop('listener:127.0.0.1:53', 'listener', over.listener ?? q('127.0.0.1:53', 'NOERROR', ['172.21.0.1'])),
    queryHop('kube-dns', 'kube-dns', over.kubeDns ?? q('172.21.0.10:53', 'NOERROR', ['172.21.0.1'])),
    queryHop('upstream:192.168.1.1', 'upstream', over.upstream ?? q('192.168.1.1:53', 'NOERROR', [], undefined, 'NS'), false),
  ];
}

describe('outcomeOf', () => {
  it('names every rcode and transport failure', () => {
    expect(outcomeOf(q('s', 'NOERROR', ['10.0.0.1']))).toBe('answer');
    expect(outcomeOf(q('s', 'NOERROR'))).toBe('nodata');
    expect(outcomeOf(q('s', 'NXDOMAIN'))).toBe('nxdomain');
    expect(outcomeOf(q('s', 'SERVFAIL'))).toBe('servfail');
    expect(outcomeOf(q('s', 'REFUSED'))).toBe('refused');
    expect(outcomeOf(q('s', 'TIMEOUT'))).toBe('timeout');
    expect(outcomeOf(q('s', 'ERROR', [], 'connect ECONNREFUSED 127.0.0.1:53'))).toBe('unreachable');
    expect(outcomeOf(q('s', 'ERROR', [], 'EACCES'))).toBe('error');
    expect(outcomeOf(q('s', 'NOTIMP'))).toBe('error');
  });
  it('counts any reply from an upstream as an answer', () => {
    expect(outcomeOf(q('s', 'NXDOMAIN'), false)).toBe('answer');
    expect(outcomeOf(q('s', 'REFUSED'), false)).toBe('answer');
    expect(outcomeOf(q('s', 'TIMEOUT'), false)).toBe('timeout');
  });
});

describe('queryHop', () => {
  it('keeps the name asked, the rcode, the addresses and the latency', () => {
    const h = queryHop('kube-dns', 'kube-dns', q('172.21.0.10:53', 'TIMEOUT', [], 'no reply'));
    expect(h).toMatchObject({ target: '172.21.0.10:53', name: NAME, type: 'A', outcome: 'timeout', ok: false, rcode: 'TIMEOUT', latencyMs: 1500 });
    expect(h.reason).toBe('172.21.0.10:53 does not answer (no reply in 1500 ms)');
    expect(queryHop('system', 'system', q('system', 'NOERROR', ['172.21.0.1'])).answers).toEqual(['172.21.0.1']);
  });
});

describe('healthVerdict over every hop outcome', () => {
  const verdict = (h: HealthHop[], state: HostDnsStatus['state'] = 'running', interrupted = false) => healthVerdict({ hops: h, state, interrupted });

  it('all answering: ok via k2s-dnsproxy', () => {
    const v = verdict(hops());
    expect(v).toMatchObject({ level: 'ok', resolves: true, cause: 'ok', hopId: null, action: null });
    expect(v.summary).toBe('kubernetes.default.svc.cluster.local resolves via k2s-dnsproxy (127.0.0.1:53)');
  });

  it('stopped: off, fix is Start (GUI) / sudo npx k2s-dns start (CLI, as the README runs it)', () => {
    const h = hops({ system: q('system', 'NXDOMAIN') }, 'original').map((x) => (x.kind === 'listener' || x.kind === 'kube-dns' ? { ...x, outcome: 'idle' as const, ok: false } : x));
    const v = verdict(h, 'stopped');
    expect(v).toMatchObject({ level: 'off', cause: 'stopped', hopId: 'system', action: 'start' });
    expect(verdictLine(v, 'gui')).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — Start');
    expect(verdictLine(v, 'cli')).toBe("Cluster names do not resolve on this host: K2s DNS is stopped — as root: `sudo npx k2s-dns start`, or `su -c 'npx k2s-dns start'` where sudo is not installed");
  });

  it('CoreDNS down (listener SERVFAIL, kube-dns timeout): coredns-down, never the proxy', () => {
    const v = verdict(hops({ system: q('system', 'TIMEOUT', [], 'EAI_AGAIN'), listener: q('127.0.0.1:53', 'SERVFAIL'), kubeDns: q('172.21.0.10:53', 'TIMEOUT') }));
    expect(v).toMatchObject({ level: 'error', resolves: false, cause: 'coredns-down', hopId: 'kube-dns', action: 'check-coredns' });
    expect(v.summary).toBe('Cluster names do not resolve on this host: CoreDNS (kube-dns 172.21.0.10:53) does not answer (no reply in 1500 ms)');
  });

  it('CoreDNS down while the listener itself times out: still coredns-down', () => {
    const v = verdict(hops({ system: q('system', 'TIMEOUT'), listener: q('127.0.0.1:53', 'TIMEOUT'), kubeDns: q('172.21.0.10:53', 'ERROR', [], 'connect ECONNREFUSED') }));
    expect(v.cause).toBe('coredns-down');
  });

  it('proxy dead (nothing on 127.0.0.1:53) with CoreDNS fine: proxy-down, fix restart', () => {
    const v = verdict(hops({ system: q('system', 'TIMEOUT'), listener: q('127.0.0.1:53', 'ERROR', [], 'read ECONNREFUSED 127.0.0.1:53') }));
    expect(v).toMatchObject({ cause: 'proxy-down', hopId: 'listener:127.0.0.1:53', action: 'restart' });
    expect(fixText(v.action, 'cli')).toBe('sudo npx k2s-dns stop && sudo npx k2s-dns start');
  });

  it('proxy dead and CoreDNS dead: the proxy is named (nothing listens is not explained by CoreDNS)', () => {
    const v = verdict(hops({ system: q('system', 'TIMEOUT'), listener: q('127.0.0.1:53', 'ERROR', [], 'ECONNREFUSED'), kubeDns: q('172.21.0.10:53', 'NOERROR') }));
    expect(v.cause).toBe('proxy-down');
  });

  it('listener NXDOMAIN while CoreDNS answers: proxy-routing', () => {
    const v = verdict(hops({ system: q('system', 'NXDOMAIN'), listener: q('127.0.0.1:53', 'NXDOMAIN') }));
    expect(v).toMatchObject({ cause: 'proxy-routing', hopId: 'listener:127.0.0.1:53' });
  });

  it('CoreDNS answers NXDOMAIN for the kubernetes Service: coredns-answer', () => {
    const v = verdict(hops({ system: q('system', 'NXDOMAIN'), listener: q('127.0.0.1:53', 'NXDOMAIN'), kubeDns: q('172.21.0.10:53', 'NXDOMAIN') }));
    expect(v).toMatchObject({ cause: 'coredns-answer', hopId: 'kube-dns' });
  });

  it('drift (NetworkManager rewrote resolv.conf): error with the restore fix', () => {
    const v = verdict(hops({ system: q('system', 'NXDOMAIN') }, 'foreign'), 'degraded');
    expect(v).toMatchObject({ level: 'error', cause: 'drift', hopId: 'resolver', action: 'restore' });
  });

  it('drift whose default is Restore my original (walk5 H1): the verdict carries the risk, the CLI fix names Restore first as the default and Keep second with the warning', () => {
    setCliName('k2s-dns');
    const keepRisk = { words: 'K2s DNS did not follow their file: it is writable by every user (mode 0666). Keeping it lets whoever can write it choose this host\'s DNS.', short: "it lets whoever can write their file choose this host's DNS", stopRestores: true, gone: null };
    const v = healthVerdict({ hops: hops({ system: q('system', 'NXDOMAIN') }, 'foreign'), state: 'degraded', interrupted: false, keepRisk });
    expect(v).toMatchObject({ action: 'restore', keepRisk });
    // Keep's risk in one clause; the long words are status's note and doctor's meaning (walk 9 M3).
    expect(verdictFix(v, 'cli')).toBe(`"Restore my original" (the default): sudo k2s-dns stop --on-drift restore && sudo k2s-dns start; or "Keep their file" (it lets whoever can write their file choose this host's DNS): sudo k2s-dns stop --on-drift keep && sudo k2s-dns start`);
    expect(verdictFix(v, 'gui')).toBe('Choose "Restore my original" (the default) or "Keep their file" in the banner at the top, then Start');
    // A dead nameserver is the banner's default only: a plain stop keeps their file then (docs/drift.md).
    expect(verdictFix({ ...v, keepRisk: { ...keepRisk, stopRestores: false } }, 'cli')).toMatch(/^"Restore my original" \(the banner's default; a plain sudo k2s-dns stop keeps theirs\): /);
    // Keep is the default: the old order, and the risk is never put on other verdicts.
    expect(verdictFix({ action: 'restore' }, 'cli')).toBe(fixText('restore', 'cli'));
    expect(fixText('restore', 'cli')).toMatch(/^"Keep their file" \(the default\)/);
    expect(healthVerdict({ hops: hops(), state: 'running', interrupted: false, keepRisk }).keepRisk).toBeUndefined();
  });

  it('walk 11 M3: a file refused for its owner or mode only (ownerFix): its fix first, then the drift choices; the CLI note drops the fix it repeated', () => {
    setCliName('k2s-dns');
    const refused = 'it is writable by every user (mode 0666); K2s follows no file a user could write — fix it with sudo chmod o-w /etc/resolv.conf';
    const keepRisk = { words: `K2s DNS did not follow their file: ${refused}. Keeping it lets whoever can write it choose this host's DNS.`, outcome: "Keeping their file lets whoever can write it choose this host's DNS.", short: "it lets whoever can write their file choose this host's DNS", stopRestores: true, gone: null, refused, ownerFix: 'sudo chmod o-w /etc/resolv.conf' };
    const v = { action: 'restore' as const, keepRisk };
    expect(verdictFix(v, 'cli')).toBe('to keep K2s DNS running: sudo chmod o-w /etc/resolv.conf (the network follower then follows their file within seconds); or stop: "Restore my original" (the default): sudo k2s-dns stop --on-drift restore && sudo k2s-dns start; or "Keep their file", which only stops: sudo k2s-dns stop --on-drift keep (no start after it: K2s DNS refused to follow their file, and a start would save it as your original)');
    expect(verdictFix(v, 'gui')).toBe('To keep K2s DNS running, run the fix the banner at the top names: the network follower then follows their file; or choose "Restore my original" (the default) in the banner at the top, then Start; "Keep their file" only stops (no start after it: K2s DNS refused to follow their file, and Start would save it as your original)');
    expect(verdictFix({ action: 'restore-via', keepRisk }, 'cli')).toBe(`nothing is broken now; to end the drift with K2s DNS running: sudo chmod o-w /etc/resolv.conf (the network follower then follows their file within seconds); or stop: sudo k2s-dns stop --on-drift restore (the default; not --on-drift keep: it lets whoever can write their file choose this host's DNS)`);
    // Without ownerFix (the keep policy, or a dead nameserver first): as before, Restore first.
    expect(verdictFix({ action: 'restore', keepRisk: { ...keepRisk, ownerFix: undefined } }, 'cli')).toMatch(/^"Restore my original" \(the default\): /);
  });

  it('a drift file the follower refused (walk 7 M1): Keep their file is a stop only, with why no start follows, in the CLI and the window', () => {
    setCliName('k2s-dns');
    const keepRisk = { words: 'Keeping their file stops K2s DNS and leaves /etc/resolv.conf pointing at 192.0.2.99:53, which does not answer now (getaddrinfo: network unreachable): no name would resolve on this host.', stopRestores: true, gone: null, refused: 'it is writable by every user (mode 0666); K2s follows no file a user could write — fix it with chmod o-w' };
    const v = healthVerdict({ hops: hops({ system: q('system', 'NXDOMAIN') }, 'foreign'), state: 'degraded', interrupted: false, keepRisk });
    expect(verdictFix(v, 'cli')).toBe(`"Restore my original" (the default): sudo k2s-dns stop --on-drift restore && sudo k2s-dns start; or "Keep their file", which only stops: sudo k2s-dns stop --on-drift keep (no start after it: K2s DNS refused to follow their file, and a start would save it as your original)`);
    expect(verdictFix(v, 'cli')).not.toContain('stop --on-drift keep &&');
    expect(verdictFix(v, 'gui')).toBe('Choose "Restore my original" (the default) in the banner at the top, then Start; "Keep their file" only stops (no start after it: K2s DNS refused to follow their file, and Start would save it as your original)');
  });

  it('drift while the name still resolves elsewhere: warn, not ok', () => {
    expect(verdict(hops({}, 'foreign'), 'degraded')).toMatchObject({ level: 'warn', cause: 'drift' });
  });

  it('state file kept but resolv.conf is the original: resolver-not-k2s', () => {
    expect(verdict(hops({ system: q('system', 'NXDOMAIN') }, 'original'), 'degraded')).toMatchObject({ cause: 'resolver-not-k2s', hopId: 'resolver' });
  });

  it('every hop answers but getaddrinfo fails: system-resolver (nsswitch)', () => {
    expect(verdict(hops({ system: q('system', 'NXDOMAIN') }))).toMatchObject({ cause: 'system-resolver', action: 'check-nsswitch' });
  });

  it('all upstreams dead while cluster names resolve: error for names outside the cluster (as Diagnostics), cluster names still resolve', () => {
    const v = verdict(hops({ upstream: q('192.168.1.1:53', 'TIMEOUT', [], undefined, 'NS') }));
    expect(v).toMatchObject({ level: 'error', resolves: true, cause: 'upstream-down', hopId: 'upstream:192.168.1.1', action: 'check-upstream' });
    expect(v.summary).toBe('Names outside the cluster do not resolve on this host: none of the original upstreams answers (192.168.1.1:53 did not answer in 1500 ms); cluster names still resolve through K2s DNS');
    // Walk 7 M4: the check names the upstream the proxy uses, never `--server <upstream>`.
    setCliName('k2s-dns');
    expect(v.silentUpstreams).toEqual(['192.168.1.1:53']);
    expect(verdictFix(v, 'cli')).toBe('`k2s-dns query kubernetes.io --server 192.168.1.1`');
    // Without a verdict (no address known): the value in prose.
    expect(fixText('check-upstream', 'cli')).toBe("`k2s-dns query kubernetes.io --server <IP>` (replace <IP> with an original nameserver's IP address)");
  });

  it('a followed network whose nameserver is unreachable: ENETUNREACH in its own words, and the fix is the network, not Upstreams', () => {
    const dead = queryHop('upstream:10.99.0.1', 'upstream', { ...q('10.99.0.1:53', 'ERROR', [], 'send ENETUNREACH 10.99.0.1:53', 'NS'), latencyMs: 0.4 }, false);
    const path = [...hops().filter((h) => h.kind !== 'upstream'), dead];
    const v = healthVerdict({ hops: path, state: 'running', interrupted: false, following: true });
    expect(v).toMatchObject({ level: 'error', cause: 'upstream-down', action: 'check-network' });
    expect(v.summary).toBe("Names outside the cluster do not resolve on this host: none of the network's nameservers answers (10.99.0.1:53: network unreachable (ENETUNREACH: this host has no route to it)); cluster names still resolve through K2s DNS");
    expect(v.summary).not.toMatch(/did not answer in|no reply/);
    expect(fixText(v.action, 'gui')).toMatch(/^Check the network connection or VPN: K2s DNS follows the network's resolver/);
    expect(fixText(v.action, 'gui')).toContain('an override: Stop, then Start with Start options → Upstreams and Network changes: keep');
    // Walk 7 M4: the check names the network's nameserver that did not answer; the override ends with <IP> and says what replaces it.
    setCliName('k2s-dns');
    expect(verdictFix(v, 'cli')).toBe("check the network connection or VPN (`k2s-dns query kubernetes.io --server 10.99.0.1`); an override: `sudo k2s-dns stop`, then `sudo k2s-dns start --on-network-change keep --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers)");
    expect(fixText('check-network', 'cli')).toBe("check the network connection or VPN (`k2s-dns query kubernetes.io --server <IP>` (replace <IP> with the network's nameserver's IP address)); an override: `sudo k2s-dns stop`, then `sudo k2s-dns start --on-network-change keep --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers)");
    // <IP> only last in a command (the shell refuses it there: shared/fix.ts IP_PLACEHOLDER) and in what replaces it; no bare IP word.
    for (const text of [verdictFix(v, 'cli'), fixText('check-network', 'cli')]) expect(text!.replace(/ <IP>`/g, '`').replace(/replace <IP> with/g, '')).not.toMatch(/<|IP --|--upstream IP/);
  });

  it('in the sandbox: the override names its network\'s nameserver, unless that is the one that does not answer (walk 7 M4)', () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const path = (server: string) => [...hops().filter((h) => h.kind !== 'upstream'), queryHop(`upstream:${server}`, 'upstream', q(`${server}:53`, 'TIMEOUT', [], undefined, 'NS'), false)];
      const other = healthVerdict({ hops: path('10.99.0.1'), state: 'running', interrupted: false, following: true });
      expect(verdictFix(other, 'cli')).toBe("check the network connection or VPN (`/tmp/k2sdns-app-Ab12/k2s-dns query kubernetes.io --server 10.99.0.1`); an override: `/tmp/k2sdns-app-Ab12/k2s-dns stop`, then `/tmp/k2sdns-app-Ab12/k2s-dns start --on-network-change keep --upstream 192.0.2.53` (the sandbox network's nameserver)");
      const own = healthVerdict({ hops: path('192.0.2.53'), state: 'running', interrupted: false, following: true });
      expect(verdictFix(own, 'cli')).toContain('`/tmp/k2sdns-app-Ab12/k2s-dns start --on-network-change keep --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers)');
    } finally {
      setCliName('k2s-dns');
    }
  });

  it('starting/stopping: busy; interrupted: recover', () => {
    expect(verdict(hops(), 'starting')).toMatchObject({ level: 'warn', cause: 'busy', action: 'wait' });
    expect(verdict(hops(), 'stopping').summary).toBe('K2s DNS is stopping; the path is checked again when it is done');
    expect(verdict(hops(), 'degraded', true)).toMatchObject({ level: 'error', cause: 'interrupted', action: 'recover' });
  });

  it('resolves without K2s (e.g. /etc/hosts) while stopped: off, no action', () => {
    expect(verdict(hops({}, 'original'), 'stopped')).toMatchObject({ level: 'off', cause: 'ok-without-k2s', action: null });
  });

  it('no listener at all while running: proxy-down', () => {
    const h = hops({ system: q('system', 'TIMEOUT') }).filter((x) => x.kind !== 'listener');
    expect(verdict(h)).toMatchObject({ cause: 'proxy-down', hopId: null });
  });
});

describe('applyHealth', () => {
  const status = { state: 'running', messages: ['x'] } as HostDnsStatus;
  const report = (level: 'ok' | 'error'): HealthReport => ({
    name: NAME,
    domainSource: 'state',
    hops: [],
    checkedAt: 0,
    durationMs: 1,
    verdict: { level, resolves: level === 'ok', cause: level === 'ok' ? 'ok' : 'coredns-down', hopId: null, summary: level === 'ok' ? 'fine' : 'Cluster names do not resolve on this host: CoreDNS down', action: level === 'ok' ? null : 'check-coredns' },
  });
  it('turns running into degraded when cluster names do not resolve', () => {
    const s = applyHealth(status, report('error'), 'cli');
    expect(s.state).toBe('degraded');
    expect(s.messages[0]).toBe('Cluster names do not resolve on this host: CoreDNS down — kubectl -n kube-system logs -l k8s-app=kube-dns (pods can be Ready while the ClusterIP does not answer), then check the pod network / KubeSwitch route: `ip route get` followed by the kube-dns ClusterIP');
    expect(s.health?.verdict.cause).toBe('coredns-down');
  });
  it('keeps running when healthy', () => {
    expect(applyHealth(status, report('ok'), 'gui')).toMatchObject({ state: 'running', messages: ['x'] });
  });
});

describe('CoreDNS down while answers still come from the proxy cache', () => {
  it('is a warning naming kube-dns, not ok (both engines: health-coredns-cache.test.ts)', () => {
    const v = healthVerdict({ hops: hops({ kubeDns: q('172.21.0.10:53', 'ERROR', [], 'read ECONNREFUSED 172.21.0.10:53') }), state: 'running', interrupted: false });
    expect(v).toMatchObject({ level: 'warn', resolves: true, cause: 'coredns-down', hopId: 'kube-dns', action: 'check-coredns' });
    expect(v.summary).toBe("CoreDNS (kube-dns 172.21.0.10:53) does not answer (refused: port unreachable); cluster names resolve only from k2s-dnsproxy's cache until their TTL ends");
  });
});

describe('reportFitsStatus', () => {
  const running = { state: 'running', resolverOwner: 'k2s', pid: 7, listeners: [{ address: '127.0.0.1', port: 53 }], operation: null, savedAt: 'x' } as unknown as HostDnsStatus;
  const report = (forStatus?: string) => ({ name: 'kubernetes.default.svc.cluster.local', domainSource: 'state', hops: [], verdict: { level: 'ok' }, checkedAt: 1, durationMs: 1, ...(forStatus ? { forStatus } : {}) }) as unknown as HealthReport;
  it('a report fits the state it was checked for, also once applyHealth folded running into degraded', () => {
    expect(reportFitsStatus(report(statusFingerprint(running)), running)).toBe(true);
    expect(reportFitsStatus(report(statusFingerprint(running)), { ...running, state: 'degraded' })).toBe(true);
    expect(reportFitsStatus(report(), { ...running, state: 'stopped' })).toBe(true);
  });
  it('not once the host moved on: stopped, another proxy PID, another resolver owner', () => {
    const r = report(statusFingerprint(running));
    expect(reportFitsStatus(r, { ...running, state: 'stopped', pid: null, listeners: [] } as HostDnsStatus)).toBe(false);
    expect(reportFitsStatus(r, { ...running, state: 'degraded', pid: 8 })).toBe(false);
    expect(reportFitsStatus(r, { ...running, resolverOwner: 'foreign' } as HostDnsStatus)).toBe(false);
  });
  it('a report checked before the watchdog\'s restart was seen does not fit the status that sees it, nor the next restart (walk 12 M1)', () => {
    const down = { ...running, state: 'degraded', pid: null } as HostDnsStatus;
    const restarting = { ...down, watchdogRestart: { restarts: 1, max: 6 } };
    expect(reportFitsStatus(report(statusFingerprint(down)), restarting)).toBe(false);
    expect(reportFitsStatus(report(statusFingerprint(restarting)), down)).toBe(false);
    expect(reportFitsStatus(report(statusFingerprint(restarting)), { ...down, watchdogRestart: { restarts: 2, max: 6 } })).toBe(false);
    expect(reportFitsStatus(report(statusFingerprint(restarting)), restarting)).toBe(true);
  });
});

describe('proxy dead (issue 20.4): the verdict names the whole outage', () => {
  const dead = (over: Partial<Parameters<typeof healthVerdict>[0]> = {}) =>
    healthVerdict({
      hops: hops({ system: q('system', 'TIMEOUT', [], 'EAI_AGAIN'), listener: q('127.0.0.1:53', 'ERROR', [], 'connect ECONNREFUSED 127.0.0.1:53') }),
      state: 'degraded',
      interrupted: false,
      ...over,
    });
  it('no process: no names resolve, nothing answers on 127.0.0.1:53, nothing restarts it', () => {
    const v = dead({ proxyPid: null });
    expect(v.cause).toBe('proxy-down');
    expect(v.summary).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53; k2s-dnsproxy is not running and nothing restarts it');
    // Start alone repairs a dead proxy: the fix is Start, not "Stop, then Start" (issue 20 low).
    expect(v.action).toBe('start');
    expect(dead({ proxyPid: 4242 }).action).toBe('restart');
  });
  it('systemd restarting it: says so and advises waiting', () => {
    const v = dead({ proxyPid: null, serviceRestart: { attempt: 2, lastExit: 'exited with status 1', reason: null, gaveUp: false } });
    expect(v.summary).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53; systemd is restarting k2s-dnsproxy (attempt 2; the last run exited with status 1)');
    expect(v.action).toBe('wait-watchdog');
    // Every form systemd's ExecMainCode gives (shared/systemd-show.ts) reads as a sentence (new-user walk 20: "it killed by signal KILL").
    const said = (lastExit: string | null) => dead({ proxyPid: null, serviceRestart: { attempt: 1, lastExit, reason: null, gaveUp: false } }).summary.replace(/^.*; systemd/, 'systemd');
    expect(said('killed by signal KILL')).toBe('systemd is restarting k2s-dnsproxy (attempt 1; the last run was killed by signal KILL)');
    expect(said('killed by signal SEGV (core dumped)')).toBe('systemd is restarting k2s-dnsproxy (attempt 1; the last run was killed by signal SEGV (core dumped))');
    expect(said(null)).toBe('systemd is restarting k2s-dnsproxy (attempt 1)');
  });
  it('a process that does not answer is named by PID', () => {
    expect(dead({ proxyPid: 4242 }).summary).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53; k2s-dnsproxy (PID 4242) runs but does not answer');
  });
});

// Walk 8 H1, M3, L5: no verdict offers a start that start itself refuses (NOT_RESOLVER_FILE).
describe('stopped with a /etc/resolv.conf start refuses (walk 8 H1)', () => {
  const NUL = 'the new file is not text (it holds NUL bytes)';
  const REFUSED = 'and start would refuse this /etc/resolv.conf (NOT_RESOLVER_FILE): it is not text (it holds NUL bytes), so K2s will not save it as your original';
  /** Stopped: the proxy and kube-dns idle; `upstream` the host's own nameserver. */
  const stopped = (system: QueryResult, upstream: HealthHop, resolverAnswers = ['192.0.2.53']) =>
    hops({ system }, 'original').map((x) => (x.kind === 'listener' || x.kind === 'kube-dns' ? { ...x, outcome: 'idle' as const, ok: false } : x.kind === 'upstream' ? upstream : x.kind === 'resolver' ? { ...x, answers: resolverAnswers } : x));
  const answering = queryHop('upstream:192.0.2.53', 'upstream', q('192.0.2.53:53', 'NOERROR', [], undefined, 'NS'), false);
  const silentLocal = queryHop('upstream:127.0.0.1', 'upstream', q('127.0.0.1:53', 'ERROR', [], 'read ECONNREFUSED 127.0.0.1:53', 'NS'), false);

  it('names resolve elsewhere, the cluster name does not: the stopped verdict names the refusal and gives start\'s own fix, never a start', () => {
    setCliName('k2s-dns');
    const v = healthVerdict({ hops: stopped(q('system', 'NXDOMAIN'), answering), state: 'stopped', interrupted: false, startRefusal: NUL });
    expect(v).toMatchObject({ level: 'off', cause: 'stopped', hopId: 'system', action: 'replace-resolver' });
    expect(v.summary).toBe(`Cluster names do not resolve on this host: K2s DNS is stopped, ${REFUSED}`);
    expect(verdictLine(v, 'cli')).toBe(`Cluster names do not resolve on this host: K2s DNS is stopped, ${REFUSED} — ${notResolverFix()}`);
    expect(verdictLine(v, 'cli')).not.toContain('k2s-dns start');
    expect(verdictFix(v, 'gui')).toBe(notResolverGuiFix());
    expect(verdictFix(v, 'gui')).toMatch(/^Replace \/etc\/resolv\.conf with a resolver file .* then press Check again\. Start options → Upstreams does not help here/);
    // Without the refusal: the old fix, Start.
    expect(healthVerdict({ hops: stopped(q('system', 'NXDOMAIN'), answering), state: 'stopped', interrupted: false }).action).toBe('start');
  });

  it('no name resolves (the file names no nameserver glibc can read, 127.0.0.1 silent): "add a nameserver, then start" becomes "replace the file"', () => {
    setCliName('k2s-dns');
    const path = stopped(q('system', 'TIMEOUT'), silentLocal, []);
    expect(healthVerdict({ hops: path, state: 'stopped', interrupted: false })).toMatchObject({ cause: 'no-nameserver', action: 'fix-resolver' });
    const v = healthVerdict({ hops: path, state: 'stopped', interrupted: false, startRefusal: NUL });
    expect(v).toMatchObject({ level: 'error', cause: 'no-nameserver', action: 'replace-resolver' });
    expect(v.summary).toBe(`No names resolve on this host: nothing answers on 127.0.0.1:53 (/etc/resolv.conf has no nameserver line, so glibc asks 127.0.0.1:53 (resolv.conf(5)); K2s DNS is stopped), ${REFUSED}`);
    expect(verdictLine(v, 'cli')).not.toMatch(/add "nameserver|k2s-dns start/);
    expect(verdictLine(v, 'gui')).not.toMatch(/then Start$/);
  });

  it('own nameservers dead: the network override (stop, then start --upstream) is not offered either', () => {
    const dead = queryHop('upstream:192.0.2.53', 'upstream', q('192.0.2.53:53', 'TIMEOUT', [], undefined, 'NS'), false);
    const v = healthVerdict({ hops: stopped(q('system', 'TIMEOUT'), dead), state: 'stopped', interrupted: false, startRefusal: NUL });
    expect(v).toMatchObject({ cause: 'upstream-down', action: 'replace-resolver' });
  });

  it('only while stopped, and never on a verdict without a start (resolves without K2s: no action)', () => {
    expect(healthVerdict({ hops: hops({ system: q('system', 'NXDOMAIN') }, 'original'), state: 'degraded', interrupted: false, startRefusal: NUL })).toMatchObject({ cause: 'resolver-not-k2s', action: 'restart' });
    const v = healthVerdict({ hops: stopped(q('system', 'NOERROR', ['172.21.0.1']), answering), state: 'stopped', interrupted: false, startRefusal: NUL });
    expect(v).toMatchObject({ cause: 'ok-without-k2s', action: null });
    expect(v.summary).not.toContain('NOT_RESOLVER_FILE');
  });

  it('drift to a NUL file (walk 8 L5): Keep their file says a start would refuse it, not that it would save it', () => {
    setCliName('k2s-dns');
    const keepRisk = { words: "K2s DNS did not follow their file because it is not text (it holds NUL bytes); keeping it leaves that file as this host's resolver.", stopRestores: true, gone: null, refused: 'it is not text (it holds NUL bytes)', startRefuses: true };
    const v = healthVerdict({ hops: hops({ system: q('system', 'NXDOMAIN') }, 'foreign'), state: 'degraded', interrupted: false, keepRisk });
    expect(verdictFix(v, 'cli')).toBe(`"Restore my original" (the default): sudo k2s-dns stop --on-drift restore && sudo k2s-dns start; or "Keep their file", which only stops: sudo k2s-dns stop --on-drift keep (no start after it: K2s DNS refused to follow their file, and a start would refuse it (NOT_RESOLVER_FILE) until /etc/resolv.conf is replaced with a resolver file)`);
    expect(verdictFix(v, 'gui')).toBe('Choose "Restore my original" (the default) in the banner at the top, then Start; "Keep their file" only stops (no start after it: K2s DNS refused to follow their file, and Start would refuse it (NOT_RESOLVER_FILE) until /etc/resolv.conf is replaced with a resolver file)');
    for (const fe of ['cli', 'gui'] as const) expect(verdictFix(v, fe)).not.toMatch(/save it as your original/);
  });
});

describe('CoreDNS down read twice: one headline (issue 20, one message per fact)', () => {
  // The kernel rate-limits ICMP port unreachable (ip-sysctl icmp_ratelimit): back-to-back probes
  // of the same down CoreDNS are refused at once or time out. Same fact, same headline; the data
  // keeps which one (rcode, outcome) and the detail says it.
  const refused = q('172.21.0.10:53', 'ERROR', [], '172.21.0.10:53 refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)');
  const silent = { ...q('172.21.0.10:53', 'TIMEOUT', [], 'no answer from 172.21.0.10:53 over UDP'), latencyMs: 1500 };
  const head = (t: string) => t.replace(/ \((refused: port unreachable|no reply in \d+ ms)\)/, '');
  it('hop reason and verdict: the same words but for the detail in parentheses', () => {
    const a = queryHop('kube-dns', 'kube-dns', refused);
    const b = queryHop('kube-dns', 'kube-dns', silent);
    expect([a.outcome, a.rcode, b.outcome, b.rcode]).toEqual(['unreachable', 'ERROR', 'timeout', 'TIMEOUT']);
    expect(a.reason).toBe('172.21.0.10:53 does not answer (refused: port unreachable)');
    expect(b.reason).toBe('172.21.0.10:53 does not answer (no reply in 1500 ms)');
    const down = (kubeDns: QueryResult) => healthVerdict({ hops: hops({ system: q('system', 'TIMEOUT'), listener: q('127.0.0.1:53', 'SERVFAIL'), kubeDns }), state: 'running', interrupted: false }).summary;
    expect(down(refused)).toBe('Cluster names do not resolve on this host: CoreDNS (kube-dns 172.21.0.10:53) does not answer (refused: port unreachable)');
    expect(head(down(refused))).toBe(head(down(silent)));
    expect(head(a.reason!)).toBe(head(b.reason!));
  });
  it('other hops keep their own words (a listener refused on loopback is not rate-limited)', () => {
    expect(queryHop('listener', 'listener', q('127.0.0.1:53', 'ERROR', [], '127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)')).reason).toBe('127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable)');
  });
});
