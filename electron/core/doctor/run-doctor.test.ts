import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestApiServer } from '../../../e2e/support/cluster-test-bed';
import { checkCluster } from './cluster';
import { DOCTOR_CHECKS, runDoctor } from './run-doctor';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';
import { notResolverFix } from '../../../shared/network-writer';
import { setCliName } from '../../../shared/fix';

let server: Awaited<ReturnType<typeof startTestApiServer>>;
beforeAll(async () => {
  server = await startTestApiServer();
});
afterAll(async () => {
  await server.stop();
});
const host = useDoctorHosts();
afterEach(async () => {
  await server.setMode('ok');
});

/** Every file under `dir` with its bytes, to prove doctor changed nothing. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      const p = join(e.parentPath, e.name);
      out[p] = (await readFile(p)).toString('base64');
    }
  }
  return out;
}

describe('cluster', () => {
  it('ok for the recorded cluster, error naming the API server when it is down, info without kubeconfig', async () => {
    const h = await host();
    const ok = await checkCluster(await h.ctx({ kubeconfigPath: server.kubeconfigPath }), 2000);
    expect(ok).toMatchObject({ id: 'cluster', severity: 'ok', meaning: 'Kubernetes v1.33.3: 1/1 nodes Ready, 2/2 CoreDNS pods ready, kube-dns at 172.21.0.10.', detail: { kubeDnsIp: '172.21.0.10' } });
    await server.setMode('down');
    const down = await checkCluster(await h.ctx({ kubeconfigPath: server.kubeconfigPath }), 2000);
    expect(down).toMatchObject({ severity: 'error', title: 'Cluster not reachable', detail: { state: 'unreachable', apiServer: server.url } });
    expect(down.meaning).toContain('ECONNREFUSED');
    expect(down.fix).toBe("Start the cluster (`k2s start`) or check the kubeconfig's server address.");
    // In the sandbox (its wrapper and nameserver set, as e2e/sandbox-app.ts does), the same check
    // names the sandbox's control, which exists there, in its fix as in its meaning (walk 12 H1).
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const inSandbox = await checkCluster(await h.ctx({ kubeconfigPath: server.kubeconfigPath }), 2000);
      expect(inSandbox.fix).toBe("Start the sandbox's test API (`npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up` in a root shell in the checkout) or check the kubeconfig's server address.");
      expect(inSandbox.meaning).toContain('`npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up` brings it back.');
    } finally {
      setCliName('npx k2s-dns');
    }
    const none = await checkCluster(await h.ctx());
    expect(none).toMatchObject({ severity: 'info', title: 'No kubeconfig: cluster not checked' });
    expect(none.remedy?.gui).toBe('Restart the app with the kubeconfig (npm start -- --kubeconfig PATH), or start K2s so /etc/kubernetes/admin.conf exists.');
    // Where the package is installed there is no `npm start` (new-user walk 20): its CLI's `app` verb.
    setCliName('k2s-dns');
    try {
      expect((await checkCluster(await h.ctx())).remedy?.gui).toBe('Restart the app with the kubeconfig (k2s-dns app --kubeconfig PATH), or start K2s so /etc/kubernetes/admin.conf exists.');
    } finally {
      setCliName('npx k2s-dns');
    }
  });
});

describe('runDoctor', () => {
  it('reports one finding per check, in order, and changes nothing on the host', async () => {
    const h = await host('nameserver 127.0.0.1\n');
    h.world.portHolder = { pid: 901, command: 'systemd-resolved' };
    const before = await tree(h.root);
    const findings = await runDoctor(h.deps, { kubeconfigPath: server.kubeconfigPath });
    expect(findings.map((f) => f.id)).toEqual(DOCTOR_CHECKS.map((c) => c.id));
    const bySeverity = Object.fromEntries(findings.map((f) => [f.id, f.severity]));
    expect(bySeverity).toMatchObject({ health: 'info', 'lifecycle-state': 'ok', 'port-53': 'error', 'nameserver-loop': 'error', kubeswitch: 'warn', 'dnsproxy-version': 'info', cluster: 'ok' });
    // Every title states the case found, so it never contradicts its severity.
    expect(Object.fromEntries(findings.map((f) => [f.id, f.title]))).toEqual({
      health: 'kubernetes.default.svc.cluster.local resolves without K2s DNS (another resolver or /etc/hosts answers it)',
      'lifecycle-state': 'K2s DNS state: stopped',
      'resolv-immutable': '/etc/resolv.conf is not immutable',
      'resolv-bind-mount': '/etc/resolv.conf is not bind-mounted',
      'resolv-writable': 'Only root may write /etc/resolv.conf',
      wsl: 'Not WSL: /etc/resolv.conf is not WSL-generated',
      'port-53': '127.0.0.1:53 is held by systemd-resolved (PID 901)',
      'nameserver-loop': 'Original nameservers point at the proxy (loop)',
      'nameserver-count': 'At most 3 nameservers',
      'upstream-answers': 'No original upstream to probe',
      'kubelet-resolvconf': 'No kubelet config on this host',
      'coredns-loop': 'No query log to check for a CoreDNS loop',
      'container-runtime-dns': 'No container runtime config found',
      kubeswitch: 'KubeSwitch address 172.19.1.1 not assigned',
      'resolved-route': 'No systemd-resolved route in use',
      'networkmanager-kubeswitch': 'NetworkManager does not manage k2s-proxy0',
      'dnsproxy-version': 'AdGuard dnsproxy not installed; the dnsmasq engine will be used',
      cluster: 'Cluster reachable',
    });
    // Internal check ids are not words for users: a finding points at another by its title.
    const ids = DOCTOR_CHECKS.map((c) => c.id).filter((id) => id.includes('-'));
    for (const f of findings) {
      const shown = [f.title, f.meaning, f.fix ?? '', f.remedy?.gui ?? ''].join(' ');
      for (const id of ids) expect(shown, `${f.id} names ${id}`).not.toMatch(new RegExp(`(^|[^\\w/.-])${id}([^\\w-]|$)`));
      expect(f.meaning, f.id).toMatch(/[.)]$/);
      expect(f.severity === 'ok' ? f.fix === null : true, f.id).toBe(true);
    }
    expect(await tree(h.root)).toEqual(before);
  });

  // Walk 9 L3: stopped on a NUL-byte file with no nameserver line, "No original upstream to probe"
  // said see “Original resolver has no nameserver line”, a title no finding of that run had.
  it.each([
    ['NUL bytes, no nameserver line', '\0\0\0garbage\0\n'],
    ['NUL bytes beside 127.0.0.1', 'nameserver 127.0.0.1\n\0junk\n'],
    ['no nameserver line', 'search lan\n'],
    ['only 127.0.0.1', 'nameserver 127.0.0.1\n'],
  ])('a finding that says see “TITLE” names a title listed in the same run (%s)', async (_case, text) => {
    const h = await host(text);
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const titles = new Set(findings.map((f) => f.title));
    const refs = findings.flatMap((f) => [...[f.meaning, f.fix ?? '', f.remedy?.gui ?? ''].join(' ').matchAll(/see “([^”]+)”/g)].map((m) => m[1]!));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect([...titles], ref).toContain(ref);
  });

  // Walk 11 L5: stopped on a NUL-byte file, the health finding (info) and the loop error gave
  // start's NOT_RESOLVER_FILE fix word for word: the error carries it, the health finding points at it.
  it('a NUL-byte file: the loop error carries the fix, the health finding points at it (above when info, below when an error)', async () => {
    const h = await host('nameserver 192.0.2.53\n\0\0junk\n');
    h.world.systemAnswer = null;
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const health = findings.find((f) => f.id === 'health')!;
    const loop = findings.find((f) => f.id === 'nameserver-loop')!;
    expect(loop).toMatchObject({ severity: 'error', title: '/etc/resolv.conf is no resolver file', fix: notResolverFix() });
    expect(health).toMatchObject({ severity: 'info', fix: 'See the error "/etc/resolv.conf is no resolver file" above: its fix is this one\'s.', detail: { pointsAt: 'nameserver-loop' } });
    expect(health.title).toBe('Cluster names do not resolve on this host: K2s DNS is stopped, and start would refuse this /etc/resolv.conf (NOT_RESOLVER_FILE): it is not text (it holds NUL bytes), so K2s will not save it as your original');
    const gui = (await runDoctor(h.deps, { kubeconfigPath: null, frontEnd: 'gui' })).find((f) => f.id === 'health')!;
    expect(gui.fix).toBe(health.fix);
    // No name resolves (its nameserver is silent): the health finding is an error too, listed first.
    const query = h.deps.query;
    h.deps.query = async (q) => (q.server.startsWith('192.0.2.53') ? { ...(await query(q)), rcode: 'TIMEOUT', answers: [], error: 'no reply' } : query(q));
    const dead = (await runDoctor(h.deps, { kubeconfigPath: null })).find((f) => f.id === 'health')!;
    expect(dead).toMatchObject({ severity: 'error', fix: 'See the error "/etc/resolv.conf is no resolver file" below: its fix is this one\'s.' });
  });

  it('turns a check that throws into a warn finding instead of failing', async () => {
    const h = await host();
    h.deps.hostAddresses = () => Promise.reject(new Error('netlink unavailable'));
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const ks = findings.find((f) => f.id === 'kubeswitch')!;
    expect(ks).toMatchObject({ severity: 'warn', title: 'KubeSwitch address: could not check' });
    expect(ks.meaning).toBe('This check could not run (netlink unavailable), so the condition is unknown.');
  });
});

describe('health finding', () => {
  it('is an error naming CoreDNS when kube-dns does not answer while K2s DNS runs, with the fix for the front end', async () => {
    const h = await host();
    const { startDns } = await import('../lifecycle/start');
    expect((await startDns(h.deps, { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' }, () => undefined)).ok).toBe(true);
    const query = h.deps.query;
    h.deps.query = async (q) => (q.server.startsWith('172.21.0.10') || q.server.startsWith('127.0.0.1') ? { ...(await query(q)), rcode: 'TIMEOUT', answers: [], error: 'no reply' } : query(q));
    h.world.systemAnswer = null;
    const findings = await runDoctor(h.deps, { kubeconfigPath: null });
    const f = findings.find((x) => x.id === 'health')!;
    expect(f).toMatchObject({ severity: 'error', fix: expect.stringMatching(/^kubectl -n kube-system logs -l k8s-app=kube-dns /) });
    expect(f.title).toMatch(/^Cluster names do not resolve on this host: CoreDNS \(kube-dns 172\.21\.0\.10:53\) does not answer/);
    expect(f.meaning).toContain('CoreDNS (kube-dns 172.21.0.10:53): does not answer (no reply in ');
    const gui = (await runDoctor(h.deps, { kubeconfigPath: null, frontEnd: 'gui' })).find((x) => x.id === 'health')!;
    expect(gui.fix).toMatch(/^The Cluster card’s “pods ready” is the API’s view and can be green while the kube-dns ClusterIP does not answer/);
  });
});
