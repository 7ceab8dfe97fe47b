/**
 * Cluster discovery: reads from the Kubernetes API everything the proxy config is built from
 * (kube-dns ClusterIP, `kubernetes` ClusterIP, the Corefile and k3s-style extra server files,
 * service/pod CIDRs) and turns the Corefile into zones with shared/corefile.
 */
import type { V1Service } from '@kubernetes/client-node';
import { zonesFromCorefile } from '../../../shared/corefile';
import type { ZonePolicyInput } from '../../../shared/corefile-policy';
import type { ClusterDiscovery } from '../../../shared/types';
import { chooseCidrs, parseKubeadmNetworking, type KubeadmNetworking } from './cluster-cidrs';
import { ClusterResponseError } from './errors';
import { earlyReads, findDnsService, readCorefileSource } from './coredns-config';
import { openKubeClient, type KubeClient } from './kube-client';
import type { KubeconfigFile } from './kubeconfig-file';

export { COREDNS_CUSTOM_DIR, extraFilesOf } from './coredns-config';

/**
 * Options of discoverCluster; `timeoutMs` bounds each API request (default 5000 ms).
 * `allowZones` and `searchDomains` are the host side of the zone policy (shared/corefile-policy.ts).
 */
export interface DiscoverOptions extends ZonePolicyInput {
  kubeconfigPath: string;
  /** The kubeconfig already read (one open, e.g. as the helper's caller); else read from kubeconfigPath. */
  kubeconfig?: string | KubeconfigFile;
  timeoutMs?: number;
}

/** First usable ClusterIP of a Service (headless `None` and empty are not usable). */
function clusterIpOf(svc: V1Service | null | undefined): string | null {
  const ip = svc?.spec?.clusterIP;
  return ip && ip !== 'None' ? ip : null;
}

/** ClusterIP of default/kubernetes, the name `verify` resolves. */
async function kubernetesServiceIp(client: KubeClient): Promise<string> {
  const svc = await client.call('Service default/kubernetes', () =>
    client.core.readNamespacedService({ namespace: 'default', name: 'kubernetes' }),
  );
  const ip = clusterIpOf(svc);
  if (!ip) {
    throw new ClusterResponseError(
      `Service default/kubernetes from ${client.apiServer} has no ClusterIP; check the API server (\`kubectl get svc kubernetes\`).`,
    );
  }
  return ip;
}

/** kubeadm networking, null when kubeadm-config is absent; unreadable YAML becomes a warning. */
async function kubeadmNetworking(client: KubeClient, warnings: string[]): Promise<KubeadmNetworking | null> {
  const cm = await client.callOptional('ConfigMap kube-system/kubeadm-config', () =>
    client.core.readNamespacedConfigMap({ namespace: 'kube-system', name: 'kubeadm-config' }),
  );
  const text = cm?.data?.['ClusterConfiguration'];
  if (typeof text !== 'string') return null;
  try {
    return parseKubeadmNetworking(text);
  } catch (err) {
    warnings.push(
      `kube-system/kubeadm-config data.ClusterConfiguration cannot be read (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); CIDRs come from the nodes or K2s defaults instead.`,
    );
    return null;
  }
}

/** Union of all nodes' spec.podCIDRs (or spec.podCIDR), in node order. */
async function nodePodCidrs(client: KubeClient): Promise<string[]> {
  const nodes = await client.call('the Node list', () => client.core.listNode());
  const cidrs: string[] = [];
  for (const node of nodes?.items ?? []) {
    const own = node.spec?.podCIDRs?.length ? node.spec.podCIDRs : node.spec?.podCIDR ? [node.spec.podCIDR] : [];
    for (const c of own) if (!cidrs.includes(c)) cidrs.push(c);
  }
  return cidrs;
}

/**
 * Discovers the cluster's DNS facts through the API server of the kubeconfig's current context.
 * Throws NoKubeconfigError, ClusterUnreachableError, ClusterUnauthorizedError or
 * ClusterResponseError (errors.ts); every request is bounded by `timeoutMs`.
 */
export async function discoverCluster(opts: DiscoverOptions): Promise<ClusterDiscovery> {
  const client = openKubeClient(opts.kubeconfig ?? opts.kubeconfigPath, opts.timeoutMs);
  const warnings: string[] = [];
  // Independent reads in parallel: total time stays near one timeout when the server hangs. The
  // Corefile's reads that follow the Service on kubeadm and k3s clusters begin with them too
  // (earlyReads: one round trip instead of four).
  const early = earlyReads(client);
  const [{ svc, source }, kubernetesIp, kubeadm] = await Promise.all([
    findDnsService(client).then(async (svc) => ({ svc, source: await readCorefileSource(client, svc, early) })),
    kubernetesServiceIp(client),
    kubeadmNetworking(client, warnings),
  ]);
  const dnsIp = svc.clusterIp;
  const nodeCidrs = kubeadm?.podCidrs.length ? [] : await nodePodCidrs(client);
  const cidrs = chooseCidrs({ kubeadm, nodePodCidrs: nodeCidrs, kubeDnsIp: dnsIp });
  warnings.push(...cidrs.warnings);

  const parsed = zonesFromCorefile({
    corefile: source.corefile,
    extraFiles: source.extraFiles,
    ...(opts.allowZones ? { allowZones: opts.allowZones } : {}),
    ...(opts.searchDomains ? { searchDomains: opts.searchDomains } : {}),
    ...(opts.nameservers ? { nameservers: opts.nameservers } : {}),
    ...(opts.proxyListeners ? { proxyListeners: opts.proxyListeners } : {}),
    kubeDnsIp: dnsIp,
    serviceCidrs: cidrs.serviceCidrs,
    podCidrs: cidrs.podCidrs,
  });
  warnings.push(...parsed.warnings);
  if (kubeadm?.dnsDomain && kubeadm.dnsDomain !== parsed.clusterDomain) {
    warnings.push(
      `kubeadm-config says dnsDomain ${kubeadm.dnsDomain} but the Corefile serves ${parsed.clusterDomain}; using the Corefile's, which is what CoreDNS answers for.`,
    );
  }
  return {
    kubeconfigPath: client.kubeconfigPath,
    context: client.context,
    apiServer: client.apiServer,
    kubeDnsIp: dnsIp,
    kubernetesServiceIp: kubernetesIp,
    clusterDomain: parsed.clusterDomain,
    serviceCidrs: cidrs.serviceCidrs,
    podCidrs: cidrs.podCidrs,
    cidrSource: cidrs.cidrSource,
    zones: parsed.zones,
    warnings,
    refusedZones: parsed.refused,
    allowedZones: parsed.allowed,
    corefileSource: source.configMap,
  };
}
