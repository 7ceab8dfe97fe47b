import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discoverCluster, extraFilesOf } from './discovery';
import { ClusterResponseError, ClusterUnauthorizedError, ClusterUnreachableError, NoKubeconfigError } from './errors';
import { K8S_FIXTURES, startTestApiServer } from '../../../e2e/support/cluster-test-bed';

const fixture = (name: string): unknown => JSON.parse(readFileSync(`${K8S_FIXTURES}/${name}`, 'utf8'));
const corefileFixture = (name: string): string =>
  readFileSync(new URL(`../../../fixtures/corefiles/${name}`, import.meta.url), 'utf8');

const COREDNS = '/api/v1/namespaces/kube-system/configmaps/coredns';
const COREDNS_CUSTOM = '/api/v1/namespaces/kube-system/configmaps/coredns-custom';
const KUBEADM = '/api/v1/namespaces/kube-system/configmaps/kubeadm-config';
const DNS_SVC_LIST = '/api/v1/namespaces/kube-system/services?labelSelector=k8s-app%3Dkube-dns';

let server: Awaited<ReturnType<typeof startTestApiServer>>;
beforeAll(async () => {
  server = await startTestApiServer();
});
afterAll(async () => {
  await server.stop();
});
afterEach(async () => {
  // Restore the recorded objects and the ok mode for the next test.
  await server.setMode('ok');
  server.setObject(COREDNS, fixture('configmap-coredns.json'));
  server.setObject(KUBEADM, fixture('configmap-kubeadm-config.json'));
  server.setObject(DNS_SVC_LIST, fixture('services-kube-system.json'));
  server.setObject(COREDNS_CUSTOM, null);
});

/** zone → upstream of a discovery, for compact assertions. */
const routes = (zones: { zone: string; upstream: string }[]) => Object.fromEntries(zones.map((z) => [z.zone, z.upstream]));

describe('discoverCluster against the fake API server', () => {
  it('discovers the recorded K2s cluster: ClusterIPs, domain, kubeadm CIDRs and their reverse zones', async () => {
    const d = await discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(d).toMatchObject({
      kubeconfigPath: server.kubeconfigPath,
      context: 'k2s-test',
      apiServer: server.url,
      kubeDnsIp: '172.21.0.10',
      kubernetesServiceIp: '172.21.0.1',
      clusterDomain: 'cluster.local',
      serviceCidrs: ['172.21.0.0/16'],
      podCidrs: ['172.20.0.0/16'],
      cidrSource: 'kubeadm-config',
    });
    expect(routes(d.zones)).toEqual({
      'cluster.local': '172.21.0.10',
      '20.172.in-addr.arpa': '172.21.0.10',
      '21.172.in-addr.arpa': '172.21.0.10',
    });
    expect(d.zones.find((z) => z.zone === 'cluster.local')).toMatchObject({ clusterDomain: true, reverse: false });
    expect(d.warnings).toEqual([]);
    // kubeadm-config had the pod CIDR: the node list was never needed.
    expect(server.requests).not.toContain('/api/v1/nodes');
    expect(server.requests).toContain('/api/v1/namespaces/kube-system/configmaps/coredns-custom');
  });

  it('adds the zones of extra server blocks in the coredns ConfigMap', async () => {
    const cm = fixture('configmap-coredns.json') as { data: Record<string, string> };
    cm.data['Corefile'] = corefileFixture('custom-server-blocks.Corefile');
    server.setObject(COREDNS, cm);
    const d = await discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(d.zones.map((z) => z.zone).sort()).toEqual(
      ['cluster.local', 'consul.internal', 'mesh.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa'].sort(),
    );
    // Internet names (ICANN .org/.net) need the user's allow (zone policy).
    expect(d.refusedZones?.map((z) => z.zone)).toEqual(['example.org', 'lab.example.net']);
    expect(routes(d.zones)['consul.internal']).toBe('172.21.0.10');
  });

  it('reads *.server files from the coredns-custom ConfigMap (k3s layout)', async () => {
    const cm = fixture('configmap-coredns.json') as { data: Record<string, string> };
    cm.data['Corefile'] = `${cm.data['Corefile']}import /etc/coredns/custom/*.server\n`;
    server.setObject(COREDNS, cm);
    server.setObject(COREDNS_CUSTOM, {
      kind: 'ConfigMap',
      metadata: { name: 'coredns-custom', namespace: 'kube-system' },
      data: { 'corp.server': 'corp.example:53 {\n    forward . 10.1.2.3\n}\n', 'README.txt': 'not a server file' },
    });
    const d = await discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(routes(d.zones)['corp.example']).toBe('172.21.0.10');
  });

  it('falls back to the nodes\' podCIDRs when kubeadm-config is absent', async () => {
    server.setObject(KUBEADM, null);
    const d = await discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(d.cidrSource).toBe('node-podcidr');
    expect(d.podCidrs).toEqual(['172.20.0.0/24']);
    expect(d.serviceCidrs).toEqual(['172.21.0.0/16']);
    expect(routes(d.zones)['0.20.172.in-addr.arpa']).toBe('172.21.0.10');
    expect(routes(d.zones)['21.172.in-addr.arpa']).toBe('172.21.0.10');
    expect(d.warnings).toContain(
      'No serviceSubnet in kube-system/kubeadm-config: using the K2s default service CIDR 172.21.0.0/16 (stated fallback; it contains the kube-dns ClusterIP 172.21.0.10).',
    );
    expect(d.warnings).toContain("No podSubnet in kube-system/kubeadm-config: using the nodes' podCIDRs 172.20.0.0/24.");
  });

  it('a kubeadm-config with podSubnet 0.0.0.0/1 and a public serviceSubnet routes no reverse zone of them (zone policy)', async () => {
    const cm = fixture('configmap-kubeadm-config.json') as { data: Record<string, string> };
    cm.data['ClusterConfiguration'] = cm.data['ClusterConfiguration']!.replace('podSubnet: 172.20.0.0/16', 'podSubnet: 0.0.0.0/1').replace('serviceSubnet: 172.21.0.0/16', 'serviceSubnet: 172.21.0.0/16,203.0.0.0/16');
    server.setObject(KUBEADM, cm);
    const d = await discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(d.podCidrs).toEqual(['0.0.0.0/1']);
    expect(routes(d.zones)).toEqual({ 'cluster.local': '172.21.0.10', '21.172.in-addr.arpa': '172.21.0.10' });
    expect(d.refusedZones).toHaveLength(129);
    expect(d.refusedZones?.find((z) => z.zone === '0.203.in-addr.arpa')).toMatchObject({ reason: 'service CIDR 203.0.0.0/16', allowable: true });
    expect(d.refusedZones?.find((z) => z.zone === '100.in-addr.arpa')?.why).toContain('cluster CIDR 0.0.0.0/1 is a /1, larger than any cluster network');
  });

  it('falls back to the Service named kube-dns when no Service carries the label', async () => {
    server.setObject(DNS_SVC_LIST, { kind: 'ServiceList', apiVersion: 'v1', metadata: {}, items: [] });
    const d = await discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(d.kubeDnsIp).toBe('172.21.0.10');
    expect(server.requests).toContain('/api/v1/namespaces/kube-system/services/kube-dns');
  });

  it('fails with ClusterResponseError when the coredns ConfigMap is missing', async () => {
    server.setObject(COREDNS, null);
    await expect(discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 })).rejects.toThrow(
      new ClusterResponseError(
        'No ConfigMap with a Corefile was found for the DNS Service kube-system/kube-dns (tried kube-system/coredns, kube-system/rke2-coredns-rke2-coredns, openshift-dns/dns-default), so the zones CoreDNS serves are unknown; deploy CoreDNS (kubeadm: `kubeadm init phase addon coredns`; k3s: restore /var/lib/rancher/k3s/server/manifests/coredns.yaml), then start K2s DNS again.',
      ),
    );
  });

  it('down → ClusterUnreachableError at once', async () => {
    await server.setMode('down');
    const started = Date.now();
    const run = discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    await expect(run).rejects.toBeInstanceOf(ClusterUnreachableError);
    await expect(run).rejects.toThrow(`The Kubernetes API server at ${server.url} refused the connection (ECONNREFUSED)`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('hang → ClusterUnreachableError after the timeout, not later', async () => {
    await server.setMode('hang');
    const started = Date.now();
    await expect(discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 300 })).rejects.toThrow(
      `The Kubernetes API server at ${server.url} did not answer within 300 ms; is the cluster running (\`k2s status\`)?`,
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('unauthorized → ClusterUnauthorizedError naming the kubeconfig', async () => {
    await server.setMode('unauthorized');
    const run = discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    await expect(run).rejects.toBeInstanceOf(ClusterUnauthorizedError);
    await expect(run).rejects.toThrow(`rejected the credentials in ${server.kubeconfigPath} (401 Unauthorized)`);
  });

  it('garbage → ClusterResponseError', async () => {
    await server.setMode('garbage');
    const run = discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    await expect(run).rejects.toBeInstanceOf(ClusterResponseError);
    await expect(run).rejects.toThrow('with something that is not JSON');
  });

  it('a missing kubeconfig → NoKubeconfigError', async () => {
    await expect(discoverCluster({ kubeconfigPath: `${server.kubeconfigPath}.missing` })).rejects.toBeInstanceOf(NoKubeconfigError);
  });
});

describe('extraFilesOf', () => {
  it('keeps *.server and *.override keys as files under /etc/coredns/custom', () => {
    expect(
      extraFilesOf({ data: { 'a.server': 'A', 'b.override': 'B', 'c.txt': 'C' } }),
    ).toEqual({ '/etc/coredns/custom/a.server': 'A', '/etc/coredns/custom/b.override': 'B' });
    expect(extraFilesOf(null)).toEqual({});
  });
});
