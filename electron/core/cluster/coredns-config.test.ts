/** Discovery on RKE2/OpenShift-shaped clusters, served by the unit-test API server. */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discoverCluster } from './discovery';
import { selectorText } from './coredns-config';
import { K8S_FIXTURES, startTestApiServer } from '../../../e2e/support/cluster-test-bed';

const load = (dir: string, name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/${dir}/${name}`, import.meta.url), 'utf8'));
const kubeadmFixture = (name: string): unknown => JSON.parse(readFileSync(`${K8S_FIXTURES}/${name}`, 'utf8'));

const NS = '/api/v1/namespaces';
const DNS_SVC_LIST = `${NS}/kube-system/services?labelSelector=k8s-app%3Dkube-dns`;
const KUBE_DNS = `${NS}/kube-system/services/kube-dns`;
const COREDNS = `${NS}/kube-system/configmaps/coredns`;
const KUBEADM_PODS = `${NS}/kube-system/pods?labelSelector=k8s-app%3Dkube-dns`;
const RKE2_SELECTOR = 'app.kubernetes.io/instance=rke2-coredns,app.kubernetes.io/name=rke2-coredns,k8s-app=kube-dns';
const RKE2_PODS = `${NS}/kube-system/pods?labelSelector=${encodeURIComponent(RKE2_SELECTOR)}`;
const RKE2_CM = `${NS}/kube-system/configmaps/rke2-coredns-rke2-coredns`;
const OS_SVC = `${NS}/openshift-dns/services/dns-default`;
const OS_PODS = `${NS}/openshift-dns/pods?labelSelector=${encodeURIComponent('dns.operator.openshift.io/daemonset-dns=default')}`;
const OS_CM = `${NS}/openshift-dns/configmaps/dns-default`;

let server: Awaited<ReturnType<typeof startTestApiServer>>;
beforeAll(async () => {
  server = await startTestApiServer();
});
afterAll(async () => {
  await server.stop();
});
afterEach(() => {
  server.setObject(DNS_SVC_LIST, kubeadmFixture('services-kube-system.json'));
  server.setObject(KUBE_DNS, kubeadmFixture('service-kube-dns.json'));
  server.setObject(COREDNS, kubeadmFixture('configmap-coredns.json'));
  server.setObject(KUBEADM_PODS, kubeadmFixture('pods-coredns.json'));
  for (const p of [RKE2_PODS, RKE2_CM, OS_SVC, OS_PODS, OS_CM, `${NS}/kube-system/configmaps/coredns-live`]) server.setObject(p, null);
});
const discover = () => discoverCluster({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 3000 });

describe('finding the Corefile from what the cluster runs', () => {
  it('RKE2: kube-system/rke2-coredns-rke2-coredns through the pods of the kube-dns-labelled Service, no kube-system/coredns', async () => {
    server.setObject(DNS_SVC_LIST, load('k8s-rke2', 'services-kube-system.json'));
    server.setObject(RKE2_PODS, load('k8s-rke2', 'pods-rke2-coredns.json'));
    server.setObject(RKE2_CM, load('k8s-rke2', 'configmap-rke2-coredns-rke2-coredns.json'));
    server.setObject(COREDNS, null);
    const d = await discover();
    expect(d.kubeDnsIp).toBe('10.43.0.10');
    expect(d.corefileSource).toBe('kube-system/rke2-coredns-rke2-coredns');
    expect(d.clusterDomain).toBe('cluster.local');
    expect(d.zones[0]).toMatchObject({ zone: 'cluster.local', upstream: '10.43.0.10', clusterDomain: true });
    expect(server.requests).toContain(RKE2_PODS);
  });

  it('RKE2 with a kube-system/coredns too (read ahead, as on kubeadm): the pods\' ConfigMap is the one used', async () => {
    server.setObject(DNS_SVC_LIST, load('k8s-rke2', 'services-kube-system.json'));
    server.setObject(RKE2_PODS, load('k8s-rke2', 'pods-rke2-coredns.json'));
    server.setObject(RKE2_CM, load('k8s-rke2', 'configmap-rke2-coredns-rke2-coredns.json'));
    const d = await discover();
    expect(d.corefileSource).toBe('kube-system/rke2-coredns-rke2-coredns');
    expect(d.kubeDnsIp).toBe('10.43.0.10');
    expect(d.zones[0]).toMatchObject({ zone: 'cluster.local', upstream: '10.43.0.10', clusterDomain: true });
  });

  it('OpenShift: openshift-dns/dns-default (Service, DaemonSet pods, ConfigMap); hostname.bind is never a route', async () => {
    server.setObject(DNS_SVC_LIST, { kind: 'ServiceList', apiVersion: 'v1', metadata: {}, items: [] });
    server.setObject(KUBE_DNS, null);
    server.setObject(COREDNS, null);
    server.setObject(OS_SVC, load('k8s-openshift', 'service-dns-default.json'));
    server.setObject(OS_PODS, load('k8s-openshift', 'pods-dns-default.json'));
    server.setObject(OS_CM, load('k8s-openshift', 'configmap-dns-default.json'));
    const d = await discover();
    expect(d.kubeDnsIp).toBe('172.30.0.10');
    expect(d.corefileSource).toBe('openshift-dns/dns-default');
    expect(d.clusterDomain).toBe('cluster.local');
    expect(d.zones.map((z) => z.zone)).not.toContain('hostname.bind');
    expect(d.refusedZones).toContainEqual({
      zone: 'hostname.bind',
      reason: 'Corefile server block "hostname.bind:5353"',
      why: 'a CHAOS-class server identity name (RFC 4892), not an Internet zone',
      allowable: false,
    });
  });

  it('kubeadm: the ConfigMap the pods mount wins over a stale kube-system/coredns', async () => {
    const pods = structuredClone(kubeadmFixture('pods-coredns.json')) as { items: { spec: { volumes?: unknown[] } }[] };
    for (const p of pods.items) p.spec.volumes = [{ name: 'config-volume', configMap: { name: 'coredns-live' } }];
    server.setObject(KUBEADM_PODS, pods);
    server.setObject(`${NS}/kube-system/configmaps/coredns-live`, {
      kind: 'ConfigMap',
      data: { Corefile: '.:53 {\n  kubernetes k2s.internal in-addr.arpa ip6.arpa\n  forward . /etc/resolv.conf\n}\n' },
    });
    const d = await discover();
    expect(d.corefileSource).toBe('kube-system/coredns-live');
    expect(d.clusterDomain).toBe('k2s.internal');
  });

  it('without any Corefile: names the DNS Service, what was tried, and the RKE2 fix', async () => {
    server.setObject(DNS_SVC_LIST, load('k8s-rke2', 'services-kube-system.json'));
    server.setObject(RKE2_PODS, load('k8s-rke2', 'pods-rke2-coredns.json'));
    server.setObject(COREDNS, null);
    await expect(discover()).rejects.toThrow(
      'No ConfigMap with a Corefile was found for the DNS Service kube-system/rke2-coredns-rke2-coredns (tried kube-system/rke2-coredns-rke2-coredns, kube-system/coredns, openshift-dns/dns-default), so the zones CoreDNS serves are unknown; RKE2 deploys it with the rke2-coredns Helm chart',
    );
  });

  it('selectorText sorts keys so the pod list request is stable', () => {
    expect(selectorText({ 'k8s-app': 'kube-dns', 'app.kubernetes.io/name': 'rke2-coredns' })).toBe('app.kubernetes.io/name=rke2-coredns,k8s-app=kube-dns');
  });
});
