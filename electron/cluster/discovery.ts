/**
 * Cluster discovery: reads from the Kubernetes API everything the proxy config is built from
 * (kube-dns ClusterIP, `kubernetes` ClusterIP, the Corefile and k3s-style extra server files,
 * service/pod CIDRs) and turns the Corefile into zones with shared/corefile.
 */
import type { V1ConfigMap, V1Service } from '@kubernetes/client-node';
import { zonesFromCorefile } from '../../shared/corefile';
import type { ClusterDiscovery } from '../../shared/types';
import { chooseCidrs, parseKubeadmNetworking, type KubeadmNetworking } from './cluster-cidrs';
import { ClusterResponseError } from './errors';
import { openKubeClient, type KubeClient } from './kube-client';

/** Where k3s mounts the `coredns-custom` ConfigMap; its Corefile imports `/etc/coredns/custom/*.server`. */
export const COREDNS_CUSTOM_DIR = '/etc/coredns/custom';

/** Options of discoverCluster; `timeoutMs` bounds each API request (default 5000 ms). */
export interface DiscoverOptions {
  kubeconfigPath: string;
  timeoutMs?: number;
}

/** First usable ClusterIP of a Service (headless `None` and empty are not usable). */
function clusterIpOf(svc: V1Service | null | undefined): string | null {
  const ip = svc?.spec?.clusterIP;
  return ip && ip !== 'None' ? ip : null;
}

/** kube-dns ClusterIP: the Service labelled k8s-app=kube-dns in kube-system, else the Service named kube-dns. */
async function kubeDnsIp(client: KubeClient): Promise<string> {
  const list = await client.call('Services labelled k8s-app=kube-dns in kube-system', () =>
    client.core.listNamespacedService({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' }),
  );
  if (!Array.isArray(list?.items)) {
    throw new ClusterResponseError(
      `The Kubernetes API server at ${client.apiServer} answered the Service list of kube-system without items; check that the kubeconfig's server URL points at the API server.`,
    );
  }
  for (const svc of list.items) {
    const ip = clusterIpOf(svc);
    if (ip) return ip;
  }
  const named = await client.callOptional('Service kube-system/kube-dns', () =>
    client.core.readNamespacedService({ namespace: 'kube-system', name: 'kube-dns' }),
  );
  const ip = clusterIpOf(named);
  if (ip) return ip;
  throw new ClusterResponseError(
    'No Service with a ClusterIP labelled k8s-app=kube-dns (or named kube-dns) exists in kube-system; deploy CoreDNS (`kubectl -n kube-system get svc,deploy`) before starting K2s DNS.',
  );
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

/** data.Corefile of kube-system/coredns; throws ClusterResponseError when missing. */
async function corefileText(client: KubeClient): Promise<string> {
  const cm = await client.callOptional('ConfigMap kube-system/coredns', () =>
    client.core.readNamespacedConfigMap({ namespace: 'kube-system', name: 'coredns' }),
  );
  const text = cm?.data?.['Corefile'];
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ClusterResponseError(
      cm
        ? 'ConfigMap kube-system/coredns has no data.Corefile; restore the CoreDNS configuration (`kubeadm init phase addon coredns`) before starting K2s DNS.'
        : 'ConfigMap kube-system/coredns does not exist, so the zones CoreDNS serves are unknown; deploy CoreDNS (`kubeadm init phase addon coredns`) before starting K2s DNS.',
    );
  }
  return text;
}

/** `*.server` / `*.override` keys of coredns-custom as files under COREDNS_CUSTOM_DIR (k3s layout). */
export function extraFilesOf(cm: V1ConfigMap | null): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [key, value] of Object.entries(cm?.data ?? {})) {
    if ((key.endsWith('.server') || key.endsWith('.override')) && typeof value === 'string') {
      files[`${COREDNS_CUSTOM_DIR}/${key}`] = value;
    }
  }
  return files;
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
  const client = openKubeClient(opts.kubeconfigPath, opts.timeoutMs);
  const warnings: string[] = [];
  // Independent reads in parallel: total time stays near one timeout when the server hangs.
  const [dnsIp, kubernetesIp, corefile, custom, kubeadm] = await Promise.all([
    kubeDnsIp(client),
    kubernetesServiceIp(client),
    corefileText(client),
    // A 404 is normal: only k3s-style clusters have coredns-custom.
    client.callOptional('ConfigMap kube-system/coredns-custom', () =>
      client.core.readNamespacedConfigMap({ namespace: 'kube-system', name: 'coredns-custom' }),
    ),
    kubeadmNetworking(client, warnings),
  ]);
  const nodeCidrs = kubeadm?.podCidrs.length ? [] : await nodePodCidrs(client);
  const cidrs = chooseCidrs({ kubeadm, nodePodCidrs: nodeCidrs, kubeDnsIp: dnsIp });
  warnings.push(...cidrs.warnings);

  const extraFiles = extraFilesOf(custom);
  const parsed = zonesFromCorefile({
    corefile,
    extraFiles,
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
  };
}
