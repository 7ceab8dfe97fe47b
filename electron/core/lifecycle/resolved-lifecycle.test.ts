import { describe, expect, it } from 'vitest';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Exec } from '../host/exec';
import { nodeExec } from '../host/exec';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import type { HostPath } from './host-paths';
import type { ClusterDiscovery } from '../../../shared/types';
import { startDns } from './start';
import { stopDns } from './stop';
import { dnsStatus } from './status';
import { readState } from '../host/resolver-state';
import { parseRouteFile } from '../../../shared/resolved-route-unit';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const host = trackedHosts();
const STUB = 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch example.test\n';

/** A systemd-resolved host: systemctl/resolvectl/ip answered as on Debian 13, every call recorded. */
async function resolvedHost(opts: { kubeSwitch?: boolean; linkDns?: string } = {}) {
  const h = await host(STUB);
  const calls: string[] = [];
  const exec: Exec = {
    async run(file, args, o) {
      const line = [file, ...args].join(' ');
      if (file === 'systemctl' && args[0] === 'is-active' && args[1] === 'systemd-resolved.service') return calls.push(line), { code: 0, stdout: 'active\n', stderr: '' };
      if (file === 'systemctl' && args[0] === 'try-restart') return calls.push(line), { code: 0, stdout: '', stderr: '' };
      if (file === 'ip') {
        const kube = opts.kubeSwitch === false ? '' : '3: k2s-proxy0    inet 172.19.1.1/24 scope global k2s-proxy0\\       valid_lft forever preferred_lft forever\n';
        return { code: 0, stdout: `1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n${kube}`, stderr: '' };
      }
      if (file === 'resolvectl' && line === 'resolvectl dns') return { code: 0, stdout: 'Global:\nLink 2 (eth0): 192.0.2.53\nLink 3 (k2s-proxy0):\n', stderr: '' };
      if (file === 'resolvectl' && line === 'resolvectl dns k2s-proxy0') return { code: 0, stdout: `Link 3 (k2s-proxy0):${opts.linkDns ? ` ${opts.linkDns}` : ''}\n`, stderr: '' };
      if (file === 'resolvectl') return calls.push(line), { code: 0, stdout: '', stderr: '' };
      return nodeExec.run(file, args, o);
    },
  };
  h.world.hostAddresses = opts.kubeSwitch === false ? ['127.0.0.1'] : ['127.0.0.1', '172.19.1.1'];
  const services = h.services;
  h.deps.exec = exec;
  // The same fake service, reported as systemd's (resolved runs only under systemd).
  h.deps.services = { kind: 'systemd', start: (s) => services.start(s), stop: () => services.stop(), status: () => services.status() };
  h.deps.tcpListening = async (address) => address === '127.0.0.53' || services.running;
  return { ...h, calls };
}

const sink = () => {
  const events: LifecycleEvent[] = [];
  return { events, sink: (e: LifecycleEvent) => events.push(e) };
};

const path = (label: string, answer: string | null): HostPath => ({
  label,
  ask: async (name) => ({ name, type: 'A', server: label, transport: 'getaddrinfo', rcode: answer ? 'NOERROR' : 'NXDOMAIN', answers: answer ? [{ name, type: 'A', ttl: 0, data: answer }] : [], latencyMs: 1 }),
});

describe('start/stop on a systemd-resolved host', () => {
  it('routes the cluster zones on the KubeSwitch link only, names the stub (not 127.0.0.1) in resolv.conf, writes no drop-in; stop reverts and restarts resolved, byte for byte', async () => {
    const h = await resolvedHost();
    const asked: string[] = [];
    h.deps.lookupPaths = async (o) => (asked.push(o.resolvConfText), [path('systemd-resolved (resolvectl query)', '172.21.0.1')]);
    const r = await startDns(h.deps, TEST_START_OPTS, sink().sink);
    expect(r, r.message).toMatchObject({ ok: true, exitCode: 0 });
    const routeCalls = h.calls.filter((c) => c.startsWith('resolvectl'));
    expect(routeCalls).toEqual([
      'resolvectl dns k2s-proxy0 172.19.1.1',
      expect.stringMatching(/^resolvectl domain k2s-proxy0 ~cluster\.local( ~\S+\.in-addr\.arpa)+$/),
      'resolvectl default-route k2s-proxy0 no',
    ]);
    const managed = await readFile(join(h.root, 'etc/resolv.conf'), 'utf8');
    expect(managed.split('\n').slice(2)).toEqual(['nameserver 127.0.0.53', 'search example.test', 'options edns0 trust-ad', '']);
    expect(asked).toEqual([managed]);
    expect(await lstat(join(h.root, 'etc/systemd/resolved.conf.d/20-k2s-dns.conf')).catch(() => null)).toBeNull();
    const state = await readState(h.deps.fs);
    expect(state?.resolvedRoute).toMatchObject({ link: 'k2s-proxy0', address: '172.19.1.1' });
    // resolved's own servers, never its stub nor our link, are the proxy's upstreams.
    expect(state?.upstreams).toEqual(['192.0.2.53']);
    // The route k2s-dnsproxy-resolved re-applies when the link comes back: root's, 0600, the same route.
    const routeFile = join(h.root, 'var/lib/k2s/dns-resolved-route.conf');
    expect(parseRouteFile(await readFile(routeFile, 'utf8'))).toEqual(state?.resolvedRoute);
    expect((await lstat(routeFile)).mode & 0o777).toBe(0o600);

    h.calls.length = 0;
    const s = await stopDns(h.deps, {}, sink().sink);
    expect(s, s.message).toMatchObject({ ok: true });
    expect(h.calls).toEqual(['resolvectl revert k2s-proxy0', 'systemctl is-active systemd-resolved.service', 'systemctl try-restart systemd-resolved.service']);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(STUB);
    expect(await lstat(routeFile).catch(() => null)).toBeNull();
  });

  it('a lookup path that misses cluster names fails verify and rolls everything back (route reverted, resolved restarted, resolv.conf as before)', async () => {
    const h = await resolvedHost();
    h.deps.lookupPaths = async () => [path('nss dns (getent -s dns hosts)', '172.21.0.1'), path('systemd-resolved (resolvectl query)', null)];
    const r = await startDns(h.deps, TEST_START_OPTS, sink().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_SYSTEM' });
    expect(r.message).toContain('systemd-resolved (resolvectl query) answered kubernetes.default.svc.cluster.local with NXDOMAIN');
    expect(r.message).toContain('Every change was rolled back');
    expect(h.calls).toContain('resolvectl revert k2s-proxy0');
    expect(h.calls.at(-1)).toBe('resolvectl revert k2s-proxy0');
    expect(h.calls).toContain('systemctl try-restart systemd-resolved.service');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(STUB);
    expect(h.services.running).toBe(false);
  });

  it('257 zones are refused at discovery (resolved takes 256 domains per link), before the proxy or resolved is touched; 256 start', async () => {
    const h = await resolvedHost();
    h.deps.lookupPaths = async () => [path('systemd-resolved (resolvectl query)', '172.21.0.1')];
    const base = h.world.discovery as ClusterDiscovery;
    const zonesOf = (n: number) => [...base.zones, ...Array.from({ length: n - base.zones.length }, (_, i) => ({ ...base.zones[0]!, zone: `z${i}.corp.example`, clusterDomain: false }))];
    h.world.discovery = { ...base, zones: zonesOf(257) };
    const r = await startDns(h.deps, TEST_START_OPTS, sink().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(r.message).toContain('The cluster has 257 zones to route, but systemd-resolved takes at most 256 domains per link (LINK_SEARCH_DOMAINS_MAX, systemd src/resolve/resolved-link.h), so k2s-proxy0 cannot carry them all');
    expect(h.calls.filter((c) => c.startsWith('resolvectl'))).toEqual([]);
    expect(h.services.started).toHaveLength(0);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(STUB);
    h.world.discovery = { ...base, zones: zonesOf(256) };
    const ok = await startDns(h.deps, TEST_START_OPTS, sink().sink);
    expect(ok, ok.message).toMatchObject({ ok: true });
    expect(h.calls.find((c) => c.startsWith('resolvectl domain'))!.split(' ').length).toBe(3 + 256);
  });

  it('refuses without the KubeSwitch address, or when another program owns DNS on its link; nothing changed', async () => {
    const none = await resolvedHost({ kubeSwitch: false });
    const r = await startDns(none.deps, TEST_START_OPTS, sink().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RESOLVED_NO_KUBESWITCH' });
    expect(r.message).toContain('systemctl start k2s-proxy-network');
    expect(await readFile(join(none.root, 'etc/resolv.conf'), 'utf8')).toBe(STUB);
    const taken = await resolvedHost({ linkDns: '10.0.0.53' });
    expect(await startDns(taken.deps, TEST_START_OPTS, sink().sink)).toMatchObject({ ok: false, exitCode: 3, code: 'RESOLVED_LINK_TAKEN' });
    expect(taken.calls.filter((c) => c.startsWith('resolvectl'))).toEqual([]);
  });
  it("status shows doctor's resolved-route finding: a route lost from the link is an error with its fix (degraded), the route in place is ok (running)", async () => {
    const h = await resolvedHost();
    h.deps.lookupPaths = async () => [path('systemd-resolved (resolvectl query)', '172.21.0.1')];
    const r = await startDns(h.deps, TEST_START_OPTS, sink().sink);
    expect(r, r.message).toMatchObject({ ok: true });
    const state = await readState(h.deps.fs);
    const domains = state?.resolvedRoute?.domains ?? [];
    // resolvectl as systemd 257 answers for the link: first re-created without the route, then with it.
    let link = { dns: '', domain: '', route: 'yes' };
    const started = h.deps.exec;
    h.deps.exec = {
      async run(file, args, o) {
        if (file === 'resolvectl' && args.length === 2 && args[1] === 'k2s-proxy0') {
          const v = args[0] === 'dns' ? link.dns : args[0] === 'domain' ? link.domain : link.route;
          return { code: 0, stdout: `Link 3 (k2s-proxy0): ${v}\n`, stderr: '' };
        }
        if (file === 'systemctl' && args[0] === 'is-active' && args[1] === 'k2s-dnsproxy-resolved.service') return { code: 3, stdout: 'inactive\n', stderr: '' };
        return started.run(file, args, o);
      },
    };
    // The companion unit start installs (the fake service writes no units).
    await h.deps.fs.mkdirp('/etc/systemd/system', 0o755);
    await h.deps.fs.writeFileAtomic('/etc/systemd/system/k2s-dnsproxy-resolved.service', '[Unit]\n', { mode: 0o644 });
    const lost = await dnsStatus(h.deps);
    expect(lost.state).toBe('degraded');
    expect(lost.routeCheck).toMatchObject({ id: 'resolved-route', severity: 'error', title: 'systemd-resolved route on k2s-proxy0 missing' });
    expect(lost.messages).toContain(`systemd-resolved route on k2s-proxy0 missing: On k2s-proxy0 its DNS servers are none, not 172.19.1.1; it lacks the routing domains ${domains.join(' ')}; it is a default route for every name, not routing-only (k2s-dnsproxy-resolved.service is inactive), so cluster names asked through systemd-resolved (nss-resolve, the 127.0.0.53 stub, resolvectl query) fail or go to the other nameservers. Run \`systemctl restart k2s-dnsproxy-resolved\` (it applies the route again from /var/lib/k2s/dns-resolved-route.conf once 172.19.1.1 is on k2s-proxy0), or stop and start K2s DNS (\`sudo npx k2s-dns stop\`, then \`sudo npx k2s-dns start --verify-name www.example.test\`).`);
    // The app gets the button's words.
    expect((await dnsStatus(h.deps, 'gui')).messages.at(-1)).toMatch(/ Stop and Start K2s DNS: start gives systemd-resolved the route for the cluster zones again\.$/);
    link = { dns: '172.19.1.1', domain: domains.join(' '), route: 'no' };
    const back = await dnsStatus(h.deps);
    expect(back.state).toBe('running');
    expect(back.routeCheck?.severity).toBe('ok');
    expect(back.messages.filter((m) => m.includes('systemd-resolved route'))).toEqual([]);
    h.deps.exec = started;
    expect((await stopDns(h.deps, {}, sink().sink)).ok).toBe(true);
    expect((await dnsStatus(h.deps)).routeCheck).toBeUndefined();
  });
  it('start while K2s DNS already runs, started by a version without k2s-dnsproxy-resolved.service: writes the route file from the state and installs the unit; the proxy and resolv.conf stay', async () => {
    const h = await resolvedHost();
    h.deps.lookupPaths = async () => [path('systemd-resolved (resolvectl query)', '172.21.0.1')];
    expect((await startDns(h.deps, TEST_START_OPTS, sink().sink)).ok).toBe(true);
    const state = await readState(h.deps.fs);
    const managed = await readFile(join(h.root, 'etc/resolv.conf'), 'utf8');
    // What the package upgrade leaves: state with the route, no route file, no unit.
    await h.deps.fs.remove('/var/lib/k2s/dns-resolved-route.conf');
    const installed: string[] = [];
    h.deps.services.installRouteUnit = async (file) => {
      installed.push(file);
      await h.deps.fs.mkdirp('/etc/systemd/system', 0o755);
      await h.deps.fs.writeFileAtomic('/etc/systemd/system/k2s-dnsproxy-resolved.service', '[Unit]\n', { mode: 0o644 });
    };
    const again = sink();
    const r = await startDns(h.deps, TEST_START_OPTS, again.sink);
    expect(r, r.message).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
    expect(installed).toEqual([join(h.root, 'var/lib/k2s/dns-resolved-route.conf')]);
    expect(parseRouteFile(await readFile(join(h.root, 'var/lib/k2s/dns-resolved-route.conf'), 'utf8'))).toEqual(state?.resolvedRoute);
    expect((await lstat(join(h.root, 'var/lib/k2s/dns-resolved-route.conf'))).mode & 0o777).toBe(0o600);
    expect(again.events).toContainEqual(expect.objectContaining({ step: 'service', status: 'done', message: expect.stringMatching(/^Installed k2s-dnsproxy-resolved\.service: it applies the route ~cluster\.local .* on k2s-proxy0 again whenever 172\.19\.1\.1 comes back$/) }));
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(managed);
    // No journal is left: the next command would take it for a killed start and roll the running K2s DNS back.
    expect(await lstat(join(h.root, 'var/lib/k2s/dns-lifecycle-journal.json')).then(() => 'journal left', () => 'no journal')).toBe('no journal');
    // With the unit in place a start while running changes nothing (and recovers nothing).
    const third = sink();
    expect(await startDns(h.deps, TEST_START_OPTS, third.sink)).toMatchObject({ ok: true, message: 'K2s DNS is already running; nothing changed.' });
    expect(third.events.filter((e) => e.type === 'step' && e.step === 'recover')).toEqual([]);
    expect(h.services.stops).toBe(0);
    expect(installed).toHaveLength(1);
    expect((await stopDns(h.deps, {}, sink().sink)).ok).toBe(true);
  });
});
