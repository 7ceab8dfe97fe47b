import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDns } from '../electron/core/probes/dns-query';
import { systemLookup } from '../electron/core/probes/system-lookup';
import type { Exec } from '../electron/core/host/exec';
import { LAYOUT_CONTENT, NONROOT_ID, RESOLV_LAYOUTS, type ResolvLayout } from './bed/resolv-layout';
import { startTestbed, type Testbed } from './bed/testbed';
import { linkAddresses } from './bed/netns-links';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: the test bed runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');

/** Exec for getent that never writes the child's stdin (see system-lookup.test.ts). */
const getentExec: Exec = {
  run: (file, args) =>
    new Promise((resolve) => {
      execFile(file, [...args], { timeout: 15_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
      );
    }),
};

describe.skipIf(!inSandbox)('test bed', () => {
  let tb: Testbed;
  let before: Awaited<ReturnType<Testbed['snapshotResolver']>>;

  beforeAll(async () => {
    // What the sandbox's private /etc had before the test bed touched it.
    const { snapshotResolver } = await import('./bed/resolv-layout');
    before = await snapshotResolver();
    tb = await startTestbed();
  });
  afterAll(async () => {
    await tb?.stop();
  });

  it('puts the addresses on the veth pair', async () => {
    expect(await linkAddresses('k2s-proxy0')).toContain('172.19.1.1/24');
    expect(await linkAddresses('k2s-upstream0')).toEqual(
      expect.arrayContaining(tb.kubeDnsKind === 'coredns' ? ['192.0.2.53/32'] : ['172.21.0.10/32', '192.0.2.53/32']),
    );
  });

  it('kube-dns answers the cluster names and PTRs on the ClusterIP with TTL 30', async () => {
    const a = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: tb.addresses.kubeDns });
    expect(a.rcode).toBe('NOERROR');
    expect(a.answers).toEqual([{ name: 'kubernetes.default.svc.cluster.local', type: 'A', ttl: 30, data: '172.21.0.1' }]);
    const ptr = await queryDns({ name: '172.21.0.10', type: 'PTR', server: tb.addresses.kubeDns, transport: 'tcp' });
    expect(ptr).toMatchObject({
      name: '10.0.21.172.in-addr.arpa',
      transport: 'tcp',
      rcode: 'NOERROR',
      answers: [{ name: '10.0.21.172.in-addr.arpa', type: 'PTR', ttl: 30, data: 'kube-dns.kube-system.svc.cluster.local' }],
    });
    const web = await queryDns({ name: 'web.demo.svc.cluster.local', type: 'A', server: '172.21.0.10:53' });
    expect(web.answers.map((x) => x.data)).toEqual(['172.21.14.7']);
    expect((await queryDns({ name: 'nope.svc.cluster.local', type: 'A', server: tb.addresses.kubeDns })).rcode).toBe('NXDOMAIN');
  });

  it('real CoreDNS: the fixture Corefile, in-cluster API reads, SRV, NXDOMAIN, and forward to the upstream', async (ctx) => {
    if (tb.kubeDnsKind !== 'coredns') {
      console.warn('skipped: real CoreDNS is not built here (bash scripts/build-engines.sh needs Go)');
      ctx.skip();
    }
    const srv = await queryDns({ name: '_dns._udp.kube-dns.kube-system.svc.cluster.local', type: 'SRV', server: tb.addresses.kubeDns });
    expect(srv.answers).toEqual([
      { name: '_dns._udp.kube-dns.kube-system.svc.cluster.local', type: 'SRV', ttl: 30, data: '0 100 53 kube-dns.kube-system.svc.cluster.local' },
    ]);
    expect((await queryDns({ name: 'nope.default.svc.cluster.local', type: 'A', server: tb.addresses.kubeDns })).rcode).toBe('NXDOMAIN');
    // `forward . /etc/resolv.conf` reads the pod's own resolv.conf (192.0.2.53); `cache 30` caps the TTL 60.
    const www = await queryDns({ name: 'www.example.test', type: 'A', server: tb.addresses.kubeDns });
    expect(www.answers).toEqual([{ name: 'www.example.test', type: 'A', ttl: 30, data: '198.51.100.7' }]);
    // LIST then WATCH of the three informers, over the in-cluster HTTPS listener.
    expect(new Set(tb.api.inClusterRequests)).toEqual(
      new Set(['/api/v1/services', '/api/v1/namespaces', '/apis/discovery.k8s.io/v1/endpointslices',
        '/api/v1/services?watch', '/api/v1/namespaces?watch', '/apis/discovery.k8s.io/v1/endpointslices?watch']),
    );
    expect(await tb.coreDnsLog()).toContain('CoreDNS-1.12.4');
  });

  it('the upstream answers example.test and NXDOMAIN for unknown names', async () => {
    const www = await queryDns({ name: 'www.example.test', type: 'A', server: tb.addresses.upstream });
    expect(www.answers).toEqual([{ name: 'www.example.test', type: 'A', ttl: 60, data: '198.51.100.7' }]);
    expect((await queryDns({ name: 'nope.example.test', type: 'A', server: tb.addresses.upstream })).rcode).toBe('NXDOMAIN');
    // Only CoreDNS knows the cluster domain.
    expect((await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: tb.addresses.upstream })).rcode).toBe(
      'NXDOMAIN',
    );
    const lanPtr = await queryDns({ name: '198.51.100.7', type: 'PTR', server: tb.addresses.upstream });
    expect(lanPtr.answers.map((x) => x.data)).toEqual(['www.example.test']);
    const printer = await queryDns({ name: tb.addresses.lanPrinter, type: 'PTR', server: tb.addresses.upstream });
    expect(printer.answers).toEqual([{ name: '20.1.168.192.in-addr.arpa', type: 'PTR', ttl: 60, data: 'printer.example.test' }]);
  });

  it('getaddrinfo goes through the private resolv.conf to the upstream', async () => {
    const r = await systemLookup('www.example.test', getentExec);
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers.map((x) => x.data)).toEqual(['198.51.100.7']);
    // Without the K2s proxy the cluster name does not resolve for the host.
    expect((await systemLookup('kubernetes.default.svc.cluster.local', getentExec)).rcode).toBe('NXDOMAIN');
  });

  it('stopCoreDns makes the ClusterIP silent, startCoreDns brings it back', async () => {
    const pid = tb.coreDnsPid();
    await tb.stopCoreDns();
    expect(tb.coreDnsPid()).toBeNull();
    const silent = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: tb.addresses.kubeDns, timeoutMs: 300 });
    // The stand-in's address goes with it (timeout); the CoreDNS pod's port is closed (ICMP error).
    expect(['TIMEOUT', 'ERROR']).toContain(silent.rcode);
    await tb.startCoreDns();
    expect(tb.coreDnsPid()).not.toBe(pid);
    expect((await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: tb.addresses.kubeDns })).rcode).toBe('NOERROR');
  });

  it('kube-dns killed from outside (kill -9 of its PID, as in the sandbox\'s root shell): the bed sees it down, startCoreDns brings it back', async () => {
    const pid = tb.coreDnsPid()!;
    expect(pid).toBeGreaterThan(1);
    process.kill(pid, 'SIGKILL'); // the bed's own child, started by this file's startTestbed
    const deadline = Date.now() + 10_000;
    while (tb.coreDnsPid() !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20)); // polling the child's exit event
    expect(tb.coreDnsPid()).toBeNull();
    await tb.startCoreDns();
    expect(tb.coreDnsPid()).not.toBeNull();
    expect(tb.coreDnsPid()).not.toBe(pid);
    const a = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: tb.addresses.kubeDns });
    expect(a.rcode).toBe('NOERROR');
    expect(a.answers.map((x) => x.data)).toEqual(['172.21.0.1']);
  });

  it('serves the recorded kube-dns Service with the token from its kubeconfig', async () => {
    const res = await fetch(`${tb.api.url}/api/v1/namespaces/kube-system/services/kube-dns`, {
      headers: { authorization: `Bearer ${tb.api.token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { spec: { clusterIP: string } }).spec.clusterIP).toBe('172.21.0.10');
  });

  const expected: Record<ResolvLayout, { kind: string; target: string | null; bytes: string | null; mode: number; uid: number }> = {
    file: { kind: 'file', target: null, bytes: LAYOUT_CONTENT.file, mode: 0o644, uid: 0 },
    'absolute-symlink': { kind: 'symlink', target: '/run/NetworkManager/resolv.conf', bytes: LAYOUT_CONTENT.networkManager, mode: 0o777, uid: 0 },
    'relative-symlink-run': { kind: 'symlink', target: '../run/systemd/resolve/stub-resolv.conf', bytes: LAYOUT_CONTENT.stub, mode: 0o777, uid: 0 },
    'dangling-symlink': { kind: 'symlink', target: '../run/resolvconf/resolv.conf', bytes: null, mode: 0o777, uid: 0 },
    'file-0640-nonroot': { kind: 'file', target: null, bytes: LAYOUT_CONTENT.file, mode: 0o640, uid: NONROOT_ID },
    'crlf-no-newline': { kind: 'file', target: null, bytes: LAYOUT_CONTENT.crlf, mode: 0o644, uid: 0 },
  };

  it.each(RESOLV_LAYOUTS.map((l) => [l]))('creates the %s layout exactly', async (layout) => {
    await tb.setResolvLayout(layout);
    const snap = await tb.snapshotResolver();
    const want = expected[layout];
    expect({ kind: snap.kind, target: snap.target, bytes: snap.bytes?.toString('latin1') ?? null, mode: snap.mode, uid: snap.uid }).toEqual(
      want,
    );
  });

  it('stop() restores the resolver it found, byte for byte, and removes its links', async () => {
    await tb.setResolvLayout('dangling-symlink');
    await tb.stop();
    expect(await tb.snapshotResolver()).toEqual(before);
    await expect(linkAddresses('k2s-proxy0')).rejects.toThrow('does not exist');
    // Nothing answers on the ClusterIP any more (the address is gone with the link).
    const r = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '172.21.0.10', timeoutMs: 300 });
    expect(['TIMEOUT', 'ERROR']).toContain(r.rcode);
  });
});

describe.skipIf(!inSandbox)('test bed options', () => {
  it('kubeSwitch: false leaves k2s-proxy0 without the KubeSwitch address; the layout is applied at start', async () => {
    const tb = await startTestbed({ kubeSwitch: false, resolv: 'crlf-no-newline' });
    const addrs = await linkAddresses('k2s-proxy0');
    const snap = await tb.snapshotResolver();
    await tb.stop();
    expect(addrs.filter((x) => x.startsWith('172.19.'))).toEqual([]);
    expect(snap.bytes?.toString('latin1')).toBe(LAYOUT_CONTENT.crlf);
  });
});
