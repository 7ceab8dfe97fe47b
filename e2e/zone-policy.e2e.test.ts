/**
 * Zone policy on the test bed (real dnsmasq engine, CoreDNS stand-in, upstream):
 * a ConfigMap that names a whole TLD (`test:53`), a public name in a root `hosts` block and
 * the keys `0.0.0.0/1:53 128.0.0.0/1:53` must not route host names or LAN PTRs to the cluster;
 * allowing the TLD makes verify fail on the answer data and roll back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryDns } from '../electron/core/probes/dns-query';
import { engineArgs, engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: zone-policy e2e runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');

const COREDNS = '/api/v1/namespaces/kube-system/configmaps/coredns';
const KUBEADM = '/api/v1/namespaces/kube-system/configmaps/kubeadm-config';
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
if (inSandbox && dnsproxyMissing) console.warn(`skipped: zone-policy CIDR cases with --engine adguard (${dnsproxyMissing})`);
const HOSTILE = `.:53 {
    hosts {
        172.21.0.10 some-name.com
        fallthrough
    }
    kubernetes cluster.local in-addr.arpa ip6.arpa
    forward . /etc/resolv.conf
}
test:53 {
    forward . 172.21.0.10
}
0.0.0.0/1:53 128.0.0.0/1:53 {
    forward . 172.21.0.10
}
`;

describe.skipIf(!inSandbox)('zone policy on the test bed', () => {
  let tb: Testbed;
  let base: string[];
  beforeAll(async () => {
    // The dnsmasq stand-in as kube-dns on purpose: it models the attacker's server the hostile
    // ConfigMap routes to (it answers www.example.test differently from the upstream), which the
    // real CoreDNS running the fixture Corefile is not — it would forward to the same upstream.
    tb = await startTestbed({ kubeDns: 'dnsmasq' });
    tb.api.setObject(COREDNS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, data: { Corefile: HOSTILE } });
    base = ['--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
  });
  afterEach(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
  });
  afterAll(async () => {
    await tb?.stop();
  });

  it('a hostile Corefile does not take over www.example.test or LAN PTRs; zones says why', async () => {
    const start = await k2sDns(['start', ...base]);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    const www = await queryDns({ name: 'www.example.test', type: 'A', server: '127.0.0.1' });
    expect(www.answers.map((a) => a.data)).toEqual(['198.51.100.7']);
    const lanPtr = await queryDns({ name: '198.51.100.7', type: 'PTR', server: '127.0.0.1' });
    expect(lanPtr.answers.map((a) => a.data)).toEqual(['www.example.test']);
    const cluster = await queryDns({ name: 'kubernetes.default.svc.cluster.local', type: 'A', server: '127.0.0.1' });
    expect(cluster.answers.map((a) => a.data)).toEqual(['172.21.0.1']);

    const zones = await k2sDns(['zones', '--kubeconfig', tb.kubeconfigPath]);
    expect(zones.code).toBe(0);
    expect(zones.stdout).toMatch(/\ntest +allowable +a top-level domain: every name under it would go to the cluster/);
    expect(zones.stdout).toMatch(/\nsome-name\.com +allowable +an Internet name under the public suffix \.com/);
    // Not routed to the cluster's (attacker's) address: the host's upstream answers it.
    const pub = await queryDns({ name: 'some-name.com', type: 'A', server: '127.0.0.1' });
    expect(pub.answers.map((a) => a.data)).not.toContain('172.21.0.10');
    expect(zones.stdout).toMatch(/\n198\.in-addr\.arpa +allowable +a reverse zone outside the cluster CIDRs/);
  });

  it('allowing the TLD routes www.example.test to the cluster, and verify catches the changed answer and rolls back', async () => {
    const before = await tb.snapshotResolver();
    const start = await k2sDns(['start', ...base, '--allow-zone', 'test']);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_EXTERNAL' });
    expect(await tb.snapshotResolver()).toEqual(before);
  });
});

/** kubeadm-config whose ClusterConfiguration names these subnets (the cluster-supplied CIDRs). */
function kubeadmConfig(podSubnet: string, serviceSubnet = '172.21.0.0/16'): object {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kubeadm-config', namespace: 'kube-system', resourceVersion: '301' },
    data: { ClusterConfiguration: `apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n  dnsDomain: cluster.local\n  podSubnet: ${podSubnet}\n  serviceSubnet: ${serviceSubnet}\n` },
  };
}

/** PTR names (or the rcode) the proxy on 127.0.0.1 gives for `ip`. */
async function ptrVia127(ip: string): Promise<string[] | string> {
  const r = await queryDns({ name: ip, type: 'PTR', server: '127.0.0.1' });
  return r.answers.length ? r.answers.map((a) => String(a.data)) : r.rcode;
}

describe.skipIf(!inSandbox)('cluster CIDRs outside RFC 6303 space: routed by both engines, refused unless private (zone policy)', () => {
  let tb: Testbed;
  beforeAll(async () => {
    // The stand-in knows a pod in 100.64/10 (RFC 6598) and one in 198.18/15 (not private);
    // the upstream answers NXDOMAIN for both, so the answer proves who was asked. Not the real
    // CoreDNS: the recorded cluster has no pods in those ranges for its kubernetes plugin to answer.
    tb = await startTestbed({
      kubeDns: 'dnsmasq',
      kubeDnsRecords: { hosts: [['pod-a.demo.pod.cluster.local', '100.64.0.5'], ['pod-b.demo.pod.cluster.local', '198.18.0.5']] },
    });
  });
  afterEach(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
  });
  afterAll(async () => {
    await tb?.stop();
  });
  const base = (engine: ProxyEngine) => ['--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json'];

  // A missing dnsproxy skips its case (reported as skipped, never as passed).
  for (const engine of PROXY_ENGINES as readonly ProxyEngine[]) it.skipIf(engine === 'adguard' && !!dnsproxyMissing)(`${engine}: podSubnet 100.64.0.0/16 starts, its PTRs go to kube-dns, LAN PTRs to the upstream`, async () => {
    tb.api.setObject(KUBEADM, kubeadmConfig('100.64.0.0/16'));
    const start = await k2sDns(['start', ...base(engine)]);
    // Before: adguard failed at the service step with dnsproxy's raw "reversed subnet in
    // \"64.100.in-addr.arpa.\" is not private" (exit 1, rolled back).
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await ptrVia127('100.64.0.5')).toEqual(['pod-a.demo.pod.cluster.local']);
    expect(await ptrVia127('172.21.0.10')).toEqual(['kube-dns.kube-system.svc.cluster.local']);
    expect(await ptrVia127('192.168.1.20')).toEqual(['printer.example.test']);
  });

  // A missing dnsproxy skips its case (reported as skipped, never as passed).
  for (const engine of PROXY_ENGINES as readonly ProxyEngine[]) it.skipIf(engine === 'adguard' && !!dnsproxyMissing)(`${engine}: podSubnet 198.18.0.0/16 is refused (not private) until --allow-zone, then routed`, async () => {
    tb.api.setObject(KUBEADM, kubeadmConfig('198.18.0.0/16'));
    const start = await k2sDns(['start', ...base(engine)]);
    expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await ptrVia127('198.18.0.5')).toBe('NXDOMAIN');
    const zones = await k2sDns(['zones', '--kubeconfig', tb.kubeconfigPath]);
    expect(zones.stdout).toMatch(/\n18\.198\.in-addr\.arpa +allowable +cluster CIDR 198\.18\.0\.0\/16 is not private address space/);
    await k2sDns(['stop', '--on-drift', 'restore']);

    const allowed = await k2sDns(['start', ...base(engine), '--allow-zone', '18.198.in-addr.arpa']);
    expect(allowed.result, allowed.stdout + allowed.stderr).toMatchObject({ ok: true, exitCode: 0 });
    expect(await ptrVia127('198.18.0.5')).toEqual(['pod-b.demo.pod.cluster.local']);
    expect(await ptrVia127('192.168.1.20')).toEqual(['printer.example.test']);
  });
});
