import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';
import { startDns } from '../lifecycle/start';
import { stopDns } from '../lifecycle/stop';
import { makeTestHost } from '../../../e2e/support/test-deps';
import { checkHealth, resolverHop, type HealthProbes } from './check-health';
import { healthProbes } from './probes';
import { statusWithHealth } from './status-with-health';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});
async function host() {
  const h = await makeTestHost();
  hosts.push(h);
  return h;
}
const sink = (_e: LifecycleEvent) => undefined;
const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };

describe('checkHealth on a temp root (lifecycle deps)', () => {
  it('stopped: getaddrinfo NXDOMAIN, resolver original, proxy and kube-dns idle, your nameserver asked', async () => {
    const h = await host();
    h.world.systemAnswer = null;
    const r = await checkHealth(healthProbes(h.deps));
    expect(r.name).toBe('kubernetes.default.svc.cluster.local');
    expect(r.domainSource).toBe('default');
    expect(r.hops.map((x) => `${x.id} ${x.outcome}`)).toEqual([
      'system nxdomain',
      'resolver original',
      'listener:127.0.0.1:53 idle',
      'kube-dns idle',
      'upstream:192.0.2.53 answer',
    ]);
    expect(r.hops.find((x) => x.id === 'upstream:192.0.2.53')).toMatchObject({ target: '192.0.2.53:53', name: '.' });
    expect(r.verdict).toMatchObject({ level: 'off', cause: 'stopped', action: 'start' });
  });

  it('running: every hop answers 172.21.0.1 and the verdict is ok via 127.0.0.1:53', async () => {
    const h = await host();
    expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
    const r = await checkHealth(healthProbes(h.deps));
    expect(r.domainSource).toBe('state');
    expect(r.hops.filter((x) => x.kind !== 'upstream').map((x) => `${x.id} ${x.outcome} ${x.answers.join(',')}`)).toEqual([
      'system answer 172.21.0.1',
      'resolver k2s 127.0.0.1',
      'listener:127.0.0.1:53 answer 172.21.0.1',
      'listener:172.19.1.1 skipped ',
      'kube-dns answer 172.21.0.1',
    ]);
    expect(r.verdict.summary).toBe('kubernetes.default.svc.cluster.local resolves via k2s-dnsproxy (127.0.0.1:53)');
    await stopDns(h.deps, {}, sink);
    h.world.systemAnswer = null;
    expect((await checkHealth(healthProbes(h.deps))).verdict.cause).toBe('stopped');
  });

  it('running with CoreDNS down: status is degraded, never running, and names kube-dns', async () => {
    const h = await host();
    expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
    const query = h.deps.query;
    h.deps.query = async (q) => (q.server.startsWith('172.21.0.10') ? { ...(await query(q)), rcode: 'TIMEOUT', answers: [], error: 'no reply' } : q.server.startsWith('127.0.0.1') ? { ...(await query(q)), rcode: 'SERVFAIL', answers: [] } : query(q));
    h.world.systemAnswer = null;
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.state).toBe('degraded');
    expect(s.health?.verdict).toMatchObject({ level: 'error', cause: 'coredns-down', hopId: 'kube-dns' });
    // Walk 9 M1: the ClusterIP the check probed, as is (never a nested kubectl that leaves `ip route get ""`).
    expect(s.messages[0]).toMatch(/^Cluster names do not resolve on this host: CoreDNS \(kube-dns 172\.21\.0\.10:53\) does not answer \(no reply in \d+ ms\) — kubectl -n kube-system logs -l k8s-app=kube-dns .*ip route get 172\.21\.0\.10$/);
  });
});

/** dnsproxy -v lines (fixtures/logs/dnsproxy-verbose.log shape) of `copies` requests for one PTR from `client`, 50 ms apart, from local time `t0`. */
function loopLog(t0: number, copies: number, client: string, name: string): string {
  const two = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = (ms: number) => {
    const d = new Date(ms);
    return `${d.getFullYear()}/${two(d.getMonth() + 1)}/${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${two(d.getMilliseconds(), 3)}000`;
  };
  const out: string[] = [];
  for (let i = 0; i < copies; i++) {
    const ts = stamp(t0 + i * 50);
    out.push(`${ts} DEBUG handling new packet prefix=dnsproxy raddr=${client}:${40000 + i} laddr=172.19.1.1 proto=udp`);
    const body = [`;; opcode: QUERY, status: NOERROR, id: ${1000 + i}`, ';; flags: rd; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 0', '', ';; QUESTION SECTION:', `;${name}.\tIN\t PTR`, ''];
    body.forEach((l, n) => out.push(`${ts} DEBUG in prefix=dnsproxy line_num=${n + 1} line=${JSON.stringify(l)}`));
  }
  return `${out.join('\n')}\n`;
}

async function putLog(root: string, text: string) {
  await mkdir(join(root, 'var/log/dnsproxy'), { recursive: true });
  await writeFile(join(root, 'var/log/dnsproxy/dnsproxy.log'), text);
}

describe('checkHealth reports a live CoreDNS ↔ proxy loop (the scan of doctor\'s coredns-loop)', () => {
  it('error while the copies are recent, naming the question, count and client; ok once the loop is over a minute old', async () => {
    const h = await host();
    expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
    const t0 = new Date(2026, 11, 1, 12, 0, 0).getTime();
    await putLog(h.root, loopLog(t0, 30, '172.21.0.10', '99.99.20.172.in-addr.arpa'));
    h.deps.now = () => t0 + 5000;
    const r = await checkHealth(healthProbes(h.deps));
    expect(r.verdict).toMatchObject({ level: 'error', cause: 'coredns-loop', hopId: 'kube-dns', action: 'fix-coredns-loop', resolves: true });
    expect(r.verdict.summary).toBe('Cluster names resolve, but CoreDNS and k2s-dnsproxy forward PTR 99.99.20.172.in-addr.arpa to each other (a loop: 30 copies within 5 s from 172.21.0.10)');
    h.deps.now = () => t0 + 1450 + 61_000;
    expect((await checkHealth(healthProbes(h.deps))).verdict.cause).toBe('ok');
  });
  it('pod retries below the threshold are no loop', async () => {
    const h = await host();
    expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
    const t0 = new Date(2026, 11, 1, 12, 0, 0).getTime();
    await putLog(h.root, loopLog(t0, 19, '172.21.0.10', '99.99.20.172.in-addr.arpa'));
    h.deps.now = () => t0 + 2000;
    expect((await checkHealth(healthProbes(h.deps))).verdict.cause).toBe('ok');
  });
});

describe('checkHealth with fake probes', () => {
  const status = (over: Partial<HostDnsStatus>): HostDnsStatus => ({
    state: 'running', engine: 'adguard', engineVersion: null, listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }],
    skippedListeners: [], resolverOwner: 'k2s', upstreams: ['192.168.1.1', 'fd00::53'], clusterDomain: 'k2s.example', kubeDnsIp: '172.21.0.10',
    savedAt: '2026-11-30T00:00:00Z', savedBy: 'k2s-dns', pid: 7, messages: [], ...over,
  });
  const ok = (name: string, server: string): QueryResult => ({ name, type: 'A', server, transport: 'udp', rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 5, data: '10.96.0.1' }], latencyMs: 1 });
  const probes = (s: HostDnsStatus, asked: string[]): HealthProbes => ({
    status: async () => s,
    resolvConfText: async () => '# Managed by K2s\nnameserver 127.0.0.1\n',
    lookup: async (name) => ({ ...ok(name, 'system'), transport: 'getaddrinfo' }),
    query: async (q) => {
      asked.push(`${q.server} ${q.name} ${q.type}`);
      return ok(q.name, q.server);
    },
    now: () => 1000,
  });
  it('asks each listener, kube-dns and each upstream (IPv6 bracketed) with the cluster domain from state', async () => {
    const asked: string[] = [];
    const r = await checkHealth(probes(status({}), asked));
    expect(asked.sort()).toEqual([
      // The probes' own spelling (shared/health-probe.ts): the Logs panel hides them by default.
      '127.0.0.1:53 KUBERNETES.DEFAULT.svc.k2s.example A',
      '172.19.1.1:53 KUBERNETES.DEFAULT.svc.k2s.example A',
      '172.21.0.10:53 KUBERNETES.DEFAULT.svc.k2s.example A',
      '192.168.1.1:53 . NS',
      '[fd00::53]:53 . NS',
    ]);
    expect(r.verdict.cause).toBe('ok');
    // Hops and the verdict speak of the name in its usual spelling.
    expect(r.hops.filter((h) => h.kind === 'listener' || h.kind === 'kube-dns').map((h) => h.name)).toEqual(['kubernetes.default.svc.k2s.example', 'kubernetes.default.svc.k2s.example', 'kubernetes.default.svc.k2s.example']);
  });
  it("mend30: a user, who cannot read the state's listener list, gets the listener in the ok line as root does: the config's, else K2s's resolv.conf nameserver", async () => {
    const user = { listeners: [], upstreams: [], stateUnreadable: 'root only' };
    expect((await checkHealth(probes(status(user), []))).verdict.summary).toBe('kubernetes.default.svc.k2s.example resolves via k2s-dnsproxy (127.0.0.1:53)');
    const fromConfig = { ...user, configFacts: { file: '/etc/k2s/dnsproxy.yaml', listeners: [{ address: '::1', port: 53 }], upstreams: [], zones: [] } };
    // (nufix30: the config's listeners are the ones probed then, so K2s's file names that listener too.)
    const ownFile = { ...probes(status(fromConfig), []), resolvConfText: async () => '# Managed by K2s\nnameserver ::1\n' };
    expect((await checkHealth(ownFile)).verdict.summary).toBe('kubernetes.default.svc.k2s.example resolves via k2s-dnsproxy ([::1]:53)');
    // resolved's stub in K2s's file is not a listener: none named then.
    const resolved = { ...user, resolvedRoute: { link: 'k2s0', address: '172.19.1.1', domains: ['k2s.example'] } };
    const stub = { ...probes(status(resolved), []), resolvConfText: async () => '# Managed by K2s\nnameserver 127.0.0.53\n' };
    expect((await checkHealth(stub)).verdict.summary).toBe('kubernetes.default.svc.k2s.example resolves via k2s-dnsproxy');
  });
  it('starting: busy, with the journal operation', async () => {
    const r = await checkHealth(probes(status({ state: 'starting', operation: { op: 'start', step: 'service', pid: 9, startedAt: 'x' } }), []));
    expect(r.verdict.cause).toBe('busy');
  });
  it('resolver hop: K2s header but another nameserver is k2s-edited', () => {
    const h = resolverHop(status({}), '# Managed by K2s\nnameserver 192.168.1.1\n');
    expect(h).toMatchObject({ outcome: 'k2s-edited', ok: false, answers: ['192.168.1.1'] });
    // The verb status's note and doctor say (driftVerb, walk 11 L10): "replaced" unless written in place.
    expect(resolverHop(status({ resolverOwner: 'foreign' }), 'nameserver 10.0.0.2\n').reason).toBe('/etc/resolv.conf was replaced by another program: nameservers 10.0.0.2');
    expect(resolverHop(status({ resolverOwner: 'foreign', driftVerb: 'rewritten in place', driftWriter: 'NetworkManager' }), 'nameserver 10.0.0.2\n').reason).toBe('/etc/resolv.conf was rewritten in place by NetworkManager: nameservers 10.0.0.2');
  });
  it('resolver hop: an edit is known by status.resolverEdited, not by the words of a note', () => {
    const text = '# Managed by K2s\nnameserver 127.0.0.1\nnameserver 10.0.0.9\n';
    const note = '/etc/resolv.conf has the K2s header but other content than K2s wrote.';
    // The note without the flag: K2s's file as the proxy's listener first names it, not an edit.
    expect(resolverHop(status({ messages: [note] }), text)).toMatchObject({ outcome: 'k2s', ok: true, reason: null });
    // The flag without the note: the edit, still through K2s DNS (its first nameserver is a listener).
    expect(resolverHop(status({ resolverEdited: true }), text)).toMatchObject({
      outcome: 'k2s-edited',
      ok: true,
      reason: "K2s's /etc/resolv.conf was edited by another program, but host apps still ask k2s-dnsproxy: its first nameserver 127.0.0.1 is k2s-dnsproxy's listener",
    });
  });
});
