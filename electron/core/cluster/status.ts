/**
 * Cluster health for the Cluster panel and `k2s-dns status`: API version, nodes, CoreDNS pods
 * and the kube-dns ClusterIP. Never throws: failures become a state and one sentence.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterStatus } from '../../../shared/types';
import { ClusterError, NoKubeconfigError } from './errors';
import { appKubeconfigCommand } from '../../../shared/fix';
import { clusterAsRootMessage } from '../../../shared/root-kubeconfig';
import { openKubeClient, type KubeClient } from './kube-client';

/** Options of clusterStatus; `timeoutMs` bounds each API request (default 5000 ms). */
export interface ClusterStatusOptions {
  /** null when no kubeconfig was found (findKubeconfig). */
  kubeconfigPath: string | null;
  /** What findKubeconfig tried, for the no-kubeconfig message. */
  lookup?: { tried: string[]; explicit: boolean };
  /**
   * When `kubeconfigPath` is null: the kubeconfig a start finds as root by itself
   * (kubeconfig-default.ts kubeconfigForSudo), or null. The status then says Start reads it.
   */
  startKubeconfig?: string | null;
  timeoutMs?: number;
}

/** An empty status in `state` with `message`; `no-kubeconfig` also names the line that starts the app with one (appKubeconfigCommand). */
function emptyStatus(state: ClusterStatus['state'], message: string, kubeconfigPath: string | null): ClusterStatus {
  return {
    ...(state === 'no-kubeconfig' ? { appKubeconfigCommand: appKubeconfigCommand() } : {}),
    state,
    message,
    kubeconfigPath,
    context: null,
    apiServer: null,
    version: null,
    nodes: [],
    coreDnsPods: [],
    kubeDnsIp: null,
  };
}

/** Ready condition of a pod, falling back to all containers ready. */
function podReady(pod: V1Pod): boolean {
  const cond = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (cond) return cond.status === 'True';
  const cs = pod.status?.containerStatuses ?? [];
  return cs.length > 0 && cs.every((c) => c.ready);
}

/** Reads version, nodes, CoreDNS pods and kube-dns in parallel. */
async function readStatus(client: KubeClient): Promise<ClusterStatus> {
  const [version, nodes, pods, services] = await Promise.all([
    client.call('/version', () => client.version.getCode()),
    client.call('the Node list', () => client.core.listNode()),
    client.call('CoreDNS pods (k8s-app=kube-dns) in kube-system', () =>
      client.core.listNamespacedPod({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' }),
    ),
    client.call('Services labelled k8s-app=kube-dns in kube-system', () =>
      client.core.listNamespacedService({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' }),
    ),
  ]);
  const nodeList = (nodes?.items ?? []).map((n) => ({
    name: n.metadata?.name ?? '(unnamed)',
    ready: n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    kubeletVersion: n.status?.nodeInfo?.kubeletVersion ?? 'unknown',
  }));
  const podList = (pods?.items ?? []).map((p) => ({
    name: p.metadata?.name ?? '(unnamed)',
    ready: podReady(p),
    restarts: (p.status?.containerStatuses ?? []).reduce((sum, c) => sum + (c.restartCount ?? 0), 0),
    node: p.spec?.nodeName ?? null,
  }));
  const kubeDnsIp =
    (services?.items ?? []).map((s) => s.spec?.clusterIP).find((ip): ip is string => !!ip && ip !== 'None') ?? null;

  const readyNodes = nodeList.filter((n) => n.ready).length;
  const readyPods = podList.filter((p) => p.ready).length;
  const gitVersion = version?.gitVersion ?? null;
  const problems: string[] = [];
  if (readyNodes < nodeList.length || nodeList.length === 0) problems.push(`${readyNodes}/${nodeList.length} nodes Ready`);
  if (readyPods === 0) problems.push(`${readyPods}/${podList.length} CoreDNS pods ready`);
  if (!kubeDnsIp) problems.push('no kube-dns Service');
  const summary = `Kubernetes ${gitVersion ?? '(unknown version)'}: ${readyNodes}/${nodeList.length} nodes Ready, ${readyPods}/${podList.length} CoreDNS pods ready, kube-dns at ${kubeDnsIp ?? 'none'}.`;

  return {
    // A cluster that answers but cannot serve DNS is an error the user must act on.
    state: problems.length === 0 ? 'ok' : 'error',
    message:
      problems.length === 0
        ? summary
        : `${summary.slice(0, -1)}; cluster DNS cannot work (${problems.join(', ')}): check \`kubectl -n kube-system get pods -l k8s-app=kube-dns\`.`,
    kubeconfigPath: client.kubeconfigPath,
    context: client.context,
    apiServer: client.apiServer,
    version: gitVersion,
    nodes: nodeList,
    coreDnsPods: podList,
    kubeDnsIp,
  };
}

/** State of a ClusterError for the panel. */
function stateOf(err: ClusterError): ClusterStatus['state'] {
  switch (err.code) {
    case 'CLUSTER_UNREACHABLE':
      return 'unreachable';
    case 'CLUSTER_UNAUTHORIZED':
      return 'unauthorized';
    case 'NO_KUBECONFIG':
      return 'no-kubeconfig';
    default:
      return 'error';
  }
}

/** Cluster health through the kubeconfig's current context; never throws (errors map to `state`). */
export async function clusterStatus(opts: ClusterStatusOptions): Promise<ClusterStatus> {
  if (opts.kubeconfigPath === null) {
    const asRoot = opts.startKubeconfig ?? null;
    if (asRoot !== null) return { ...emptyStatus('no-kubeconfig', clusterAsRootMessage(asRoot), null), startKubeconfig: asRoot };
    return emptyStatus('no-kubeconfig', NoKubeconfigError.fromLookup(opts.lookup ?? { tried: [], explicit: false }).message, null);
  }
  let client: KubeClient | null = null;
  try {
    client = openKubeClient(opts.kubeconfigPath, opts.timeoutMs);
    return await readStatus(client);
  } catch (err) {
    const status =
      err instanceof ClusterError
        ? emptyStatus(stateOf(err), err.message, opts.kubeconfigPath)
        : emptyStatus('error', `Reading cluster status failed (${err instanceof Error ? err.message : String(err)}); check the cluster with \`kubectl get nodes\`.`, opts.kubeconfigPath);
    if (client) {
      status.context = client.context;
      status.apiServer = client.apiServer;
    }
    return status;
  }
}
