import { describe, expect, it } from 'vitest';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import type { K2sDnsApi } from '../../../shared/api';
import { logLine } from '../../../e2e/support/backend-fake-data';
import { createClusterStore } from './cluster';
import { createDiffStore } from './diff';
import { createDnsStore } from './dns';
import { createLogsStore } from './logs';
import { createQueryStore } from './query';
import { createTopologyStore } from './topology';
import { createZonesStore } from './zones';
import { buildTimeline } from '../lib/timeline';


describe('cluster, zones and diff stores', () => {
  it('load the fake cluster', async () => {
    const api = inProcessApi({ running: true });
    const cluster = createClusterStore(api);
    await cluster.getState().refresh();
    expect(cluster.getState().status).toMatchObject({ state: 'ok', version: 'v1.33.3', kubeDnsIp: '172.21.0.10' });
    const zones = createZonesStore(api);
    await zones.getState().refresh();
    expect(zones.getState().discovery!.zones.filter((z) => z.clusterDomain).map((z) => z.zone)).toEqual(['cluster.local']);
    const diff = createDiffStore(api);
    await diff.getState().refresh();
    expect(diff.getState().diff!.changes).toEqual(['symlink → regular file', 'link target /run/NetworkManager/resolv.conf → (none)', 'mode (link) → 0644']);
  });

  it('keeps the backend error message', async () => {
    const api = inProcessApi();
    const failing: K2sDnsApi = { ...api, clusterStatus: () => Promise.reject(new Error('API server 172.19.1.100:6443 unreachable: is the cluster running?')) };
    const cluster = createClusterStore(failing);
    await cluster.getState().refresh();
    expect(cluster.getState().error).toBe('API server 172.19.1.100:6443 unreachable: is the cluster running?');
  });
});

describe('dns store', () => {
  it('starts, records the timeline to ready, and refreshes the status', async () => {
    const api = inProcessApi();
    const dns = createDnsStore(api);
    const off = dns.getState().attach();
    await dns.getState().refresh();
    expect(dns.getState().status!.state).toBe('stopped');
    const started = dns.getState().start({ engine: 'adguard' });
    expect(dns.getState().busy).toBe('start');
    await dns.getState().stop({}); // ignored while busy: one operation at a time
    await started;
    off();
    const t = buildTimeline(dns.getState().events);
    expect(t.op).toBe('start');
    expect(t.steps.map((s) => `${s.step}:${s.status}`)).toEqual([
      'preflight:done', 'save:done', 'discover:done', 'config:done', 'service:done', 'activate:done', 'verify:done', 'ready:done',
    ]);
    expect(t.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(dns.getState().events.filter((e) => e.type === 'result')).toHaveLength(1);
    expect(dns.getState().busy).toBeNull();
    expect(dns.getState().status).toMatchObject({ state: 'running', resolverOwner: 'k2s', upstreams: ['192.168.178.1'] });
  });

  it('shows a rollback with the failing step', async () => {
    const dns = createDnsStore(inProcessApi({ failAt: 'service' }));
    const off = dns.getState().attach();
    await dns.getState().start({});
    off();
    const t = buildTimeline(dns.getState().events);
    expect(t.failed).toMatchObject({ step: 'service', status: 'failed' });
    expect(t.steps.map((s) => s.step)).toEqual(['preflight', 'save', 'discover', 'config', 'service', 'rollback']);
    expect(t.result).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_FAILED' });
  });
});

describe('logs store', () => {
  it('buffers while paused and flushes on resume, capped at 5000', () => {
    const logs = createLogsStore(inProcessApi());
    const a = logLine(0, 'INFO', 'listening to udp', { addr: '127.0.0.1:53' });
    const b = logLine(1, 'ERROR', 'bind: address already in use');
    logs.getState().append([a]);
    logs.getState().setPaused(true);
    logs.getState().append([b]);
    expect(logs.getState().lines).toEqual([a]);
    expect(logs.getState().pending).toEqual([b]);
    logs.getState().setPaused(false);
    expect(logs.getState().lines).toEqual([a, b]);
    logs.getState().append(Array.from({ length: 6000 }, (_, i) => logLine(i, 'DEBUG', `q${i}`)));
    expect(logs.getState().lines).toHaveLength(5000);
    expect(logs.getState().lines.at(-1)!.message).toBe('q5999');
  });

  it('loads the tail from the backend', async () => {
    const logs = createLogsStore(inProcessApi({ running: true }));
    await logs.getState().loadTail(2);
    // The fake serves the captured dnsproxy v0.83.1 run (fixtures/logs/dnsproxy-verbose.log): its last records before shutdown.
    expect(logs.getState().lines.map((l) => [l.message, l.fields.line_num ?? l.fields.raddr])).toEqual([['out', '6'], ['handling request', '127.0.0.1:39423']]);
  });
});

describe('query store', () => {
  it('runs, compares across all targets, and keeps history', async () => {
    const q = createQueryStore(inProcessApi({ running: true }));
    await q.getState().loadTargets();
    q.getState().setForm({ name: 'kube-dns.kube-system.svc.cluster.local', target: 'coredns', transport: 'tcp' });
    await q.getState().run();
    expect(q.getState().result).toMatchObject({ rcode: 'NOERROR', server: '172.21.0.10:53', transport: 'tcp', answers: [{ name: 'kube-dns.kube-system.svc.cluster.local.', type: 'A', ttl: 30, data: '172.21.0.10' }] });
    await q.getState().compareAll();
    expect(q.getState().comparison!.map((r) => `${r.server} ${r.rcode}`)).toEqual([
      'system NOERROR', '127.0.0.1:53 NOERROR', '172.21.0.10:53 NOERROR', '192.168.178.1:53 NXDOMAIN',
    ]);
    expect(q.getState().history).toHaveLength(5);
  });

  it('refuses a form it can tell is wrong with one readable sentence, before sending, and clears the previous answer', async () => {
    const q = createQueryStore(inProcessApi({ running: true }));
    await q.getState().loadTargets();
    await q.getState().run();
    expect(q.getState().result).not.toBeNull();
    q.getState().setForm({ name: 'bad!name' });
    await q.getState().run();
    expect(q.getState().error).toBe('“!” cannot appear in a DNS name here: use letters, digits, “-” and “_” (SRV labels), separated by dots.');
    expect(q.getState().result).toBeNull();
    q.getState().setForm({ name: 'kubernetes.default', type: 'PTR', target: 'proxy' });
    await q.getState().run();
    expect(q.getState().error).toMatch(/^PTR finds the name behind an IP address, so it takes an address such as 172\.21\.0\.10, not the hostname “kubernetes\.default”/);
  });

  it('defaults to the system resolver, re-runs a history row with its target, and tries search-list candidates', async () => {
    const q = createQueryStore(inProcessApi({ running: true }));
    await q.getState().loadTargets();
    expect(q.getState().form.target).toBe('system');
    q.getState().setForm({ name: 'kube-dns.kube-system.svc.cluster.local', target: 'coredns', transport: 'tcp' });
    await q.getState().run();
    q.getState().setForm({ name: 'www.example.test', target: 'system', transport: 'udp' });
    await q.getState().run();
    const coreRow = q.getState().history[1]!;
    expect(coreRow.server).toBe('172.21.0.10:53');
    await q.getState().rerun(coreRow);
    expect(q.getState().form).toEqual({ name: 'kube-dns.kube-system.svc.cluster.local', type: 'A', target: 'coredns', transport: 'tcp' });
    expect(q.getState().result).toMatchObject({ server: '172.21.0.10:53', rcode: 'NOERROR' });
    expect(q.getState().history).toHaveLength(3);
    await q.getState().tryCandidates(['kubernetes.default.svc.cluster.local', 'kubernetes.svc.cluster.local']);
    expect(q.getState().candidates!.map((c) => `${c.name} ${c.result!.rcode}`)).toEqual(['kubernetes.default.svc.cluster.local NOERROR', 'kubernetes.svc.cluster.local NXDOMAIN']);
  });
});

describe('topology store', () => {
  it('while stopped: proxy and CoreDNS grey (not in use), the direct path judged on its own; green everywhere while running', async () => {
    const stopped = createTopologyStore(inProcessApi(), () => 1000);
    await stopped.getState().probe();
    const s = Object.fromEntries(stopped.getState().hops.map((h) => [h.id, `${h.ok}${h.idle ? ' idle' : ''}`]));
    // Host apps' NXDOMAIN for the cluster name while stopped: neutral (null), neither green nor red.
    expect(s).toEqual({ system: 'null', resolver: 'true', 'listener:127.0.0.1:53': 'null idle', 'kube-dns': 'null idle', 'upstream:192.168.178.1': 'true' });
    expect(stopped.getState().report?.verdict).toMatchObject({ level: 'off', cause: 'stopped', action: 'start' });
    const running = createTopologyStore(inProcessApi({ running: true }));
    await running.getState().probe();
    expect(running.getState().hops.map((h) => `${h.id}:${h.ok}`)).toEqual([
      'system:true', 'resolver:true', 'listener:127.0.0.1:53:true', 'listener:172.19.1.1:null', 'kube-dns:true', 'upstream:192.168.178.1:true',
    ]);
    expect(running.getState().report?.verdict.summary).toBe('kubernetes.default.svc.cluster.local resolves via k2s-dnsproxy (127.0.0.1:53)');
  });
});
