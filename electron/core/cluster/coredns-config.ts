/**
 * Finds the cluster DNS Service and the ConfigMap CoreDNS really reads: from the
 * configMap volumes of the pods behind the kube-dns Service, not by a fixed name. Layouts:
 * kubeadm and k3s `kube-system/coredns` (k3s adds `coredns-custom` mounted at
 * /etc/coredns/custom), RKE2 `kube-system/rke2-coredns-rke2-coredns` (Helm chart rke2-coredns),
 * OpenShift `openshift-dns/dns-default` (DNS operator; Service `dns-default`, key `Corefile`).
 */
import type { V1ConfigMap, V1Pod, V1Service } from '@kubernetes/client-node';
import { ClusterResponseError, ClusterUnauthorizedError } from './errors';
import type { KubeClient } from './kube-client';

/** Where k3s mounts the `coredns-custom` ConfigMap; its Corefile imports `/etc/coredns/custom/*.server`. */
export const COREDNS_CUSTOM_DIR = '/etc/coredns/custom';

/** The cluster DNS Service: where it lives, its ClusterIP and its pod selector. */
export interface DnsService {
  namespace: string;
  name: string;
  clusterIp: string;
  /** spec.selector; empty when the Service selects no pods. */
  selector: Record<string, string>;
}

/** Where the Corefile came from, plus k3s-style extra server files. */
export interface CorefileSource {
  /** `namespace/name` of the ConfigMap. */
  configMap: string;
  corefile: string;
  /** `*.server` / `*.override` files by path under COREDNS_CUSTOM_DIR. */
  extraFiles: Record<string, string>;
  /** Whether the ConfigMap was found through a pod volume (false: a well-known name). */
  viaPods: boolean;
}

/** OpenShift's DNS operator Service and ConfigMap (openshift/cluster-dns-operator). */
const OPENSHIFT = { namespace: 'openshift-dns', name: 'dns-default' };
/** Well-known ConfigMap names, tried when no pod volume names one: kubeadm/k3s, RKE2, OpenShift. */
const WELL_KNOWN = ['kube-system/coredns', 'kube-system/rke2-coredns-rke2-coredns', 'openshift-dns/dns-default'];

/** First usable ClusterIP of a Service (headless `None` and empty are not usable). */
function clusterIpOf(svc: V1Service | null | undefined): string | null {
  const ip = svc?.spec?.clusterIP;
  return ip && ip !== 'None' ? ip : null;
}

function asDnsService(svc: V1Service, fallbackNs: string): DnsService {
  return {
    namespace: svc.metadata?.namespace ?? fallbackNs,
    name: svc.metadata?.name ?? 'kube-dns',
    clusterIp: clusterIpOf(svc)!,
    selector: { ...(svc.spec?.selector ?? {}) },
  };
}

/**
 * The cluster DNS Service: one labelled k8s-app=kube-dns in kube-system (kubeadm, k3s, RKE2's
 * `rke2-coredns-rke2-coredns`), else `kube-system/kube-dns`, else OpenShift's
 * `openshift-dns/dns-default`. Throws ClusterResponseError when none has a ClusterIP.
 */
export async function findDnsService(client: KubeClient): Promise<DnsService> {
  const list = await client.call('Services labelled k8s-app=kube-dns in kube-system', () =>
    client.core.listNamespacedService({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' }),
  );
  if (!Array.isArray(list?.items)) {
    throw new ClusterResponseError(
      `The Kubernetes API server at ${client.apiServer} answered the Service list of kube-system without items; check that the kubeconfig's server URL points at the API server.`,
    );
  }
  for (const svc of list.items) if (clusterIpOf(svc)) return asDnsService(svc, 'kube-system');
  const named = await client.callOptional('Service kube-system/kube-dns', () =>
    client.core.readNamespacedService({ namespace: 'kube-system', name: 'kube-dns' }),
  );
  if (clusterIpOf(named)) return asDnsService(named!, 'kube-system');
  const openshift = await client.callOptional(`Service ${OPENSHIFT.namespace}/${OPENSHIFT.name}`, () =>
    client.core.readNamespacedService(OPENSHIFT),
  );
  if (clusterIpOf(openshift)) return asDnsService(openshift!, OPENSHIFT.namespace);
  throw new ClusterResponseError(
    'No cluster DNS Service with a ClusterIP exists (looked for k8s-app=kube-dns and kube-dns in kube-system, and OpenShift\'s openshift-dns/dns-default); deploy CoreDNS (`kubectl -n kube-system get svc,deploy`) before starting K2s DNS.',
  );
}

/** `a=1,b=2` from a selector map, keys sorted. */
export function selectorText(selector: Record<string, string>): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}

/** configMap volume names of the first pod that has any, in volume order. */
function configMapVolumes(pods: V1Pod[]): string[] {
  for (const pod of pods) {
    const names = (pod.spec?.volumes ?? []).flatMap((v) => (v.configMap?.name ? [v.configMap.name] : []));
    if (names.length > 0) return names;
  }
  return [];
}

/**
 * Requests begun before the DNS Service is known (earlyReads), each kept under the request it is
 * — `pods NAMESPACE SELECTOR`, `configmap NAMESPACE/NAME` — as client-node's own promise, its
 * errors not yet mapped. One is taken (once) only where readCorefileSource makes that very
 * request, and mapped there with that call's own words (KubeClient.callOptional), so its answer
 * and any error are what the request made then would give; one never taken is dropped unseen.
 */
export type EarlyReads = Map<string, Promise<unknown>>;

/** The pods of kubeadm's and k3s's kube-dns Service (kube-system, k8s-app=kube-dns), listed ahead. */
const USUAL_PODS = { namespace: 'kube-system', selector: 'k8s-app=kube-dns' };
/** The ConfigMaps read ahead: kubeadm's and k3s's Corefile, and k3s's coredns-custom (read at the end unless a volume gave extra files). */
const USUAL_CONFIG_MAPS = ['kube-system/coredns', 'kube-system/coredns-custom'];

/**
 * Begins, alongside the Service lookup, the requests readCorefileSource makes on kubeadm and k3s
 * clusters — the pods behind k8s-app=kube-dns, their `coredns` volume, `coredns-custom` — which
 * would otherwise each wait for the one before: one round trip to the API server instead of
 * four. On other layouts (RKE2, OpenShift) a request not taken is one extra GET that changes nothing.
 */
export function earlyReads(client: KubeClient): EarlyReads {
  const reads: EarlyReads = new Map();
  const keep = (key: string, read: () => Promise<unknown>) => {
    const p = Promise.resolve().then(read);
    p.catch(() => undefined); // mapped and thrown where it is taken; one not taken has no reader
    reads.set(key, p);
  };
  keep(podsKey(USUAL_PODS.namespace, USUAL_PODS.selector), () => client.core.listNamespacedPod({ namespace: USUAL_PODS.namespace, labelSelector: USUAL_PODS.selector }));
  for (const ref of USUAL_CONFIG_MAPS) {
    const [namespace, name] = ref.split('/') as [string, string];
    keep(configMapKey(ref), () => client.core.readNamespacedConfigMap({ namespace, name }));
  }
  return reads;
}

const podsKey = (namespace: string, selector: string) => `pods ${namespace} ${selector}`;
const configMapKey = (ref: string) => `configmap ${ref}`;

/** The request kept under `key` (removed from `early`), else `request()` made now. */
function takeOr<T>(early: EarlyReads, key: string, request: () => Promise<T>): () => Promise<T> {
  const kept = early.get(key) as Promise<T> | undefined;
  if (kept === undefined) return request;
  early.delete(key);
  return () => kept;
}

/** The pods behind the Service; [] when listing them is forbidden or the Service selects none. */
async function podsOf(client: KubeClient, svc: DnsService, early: EarlyReads): Promise<V1Pod[]> {
  const selector = selectorText(svc.selector);
  if (selector === '') return [];
  try {
    const list = await client.callOptional(`pods of Service ${svc.namespace}/${svc.name}`, takeOr(early, podsKey(svc.namespace, selector), () =>
      client.core.listNamespacedPod({ namespace: svc.namespace, labelSelector: selector }),
    ));
    return Array.isArray(list?.items) ? list.items : [];
  } catch (err) {
    // A kubeconfig that may read ConfigMaps but not pods still works by the well-known names.
    if (err instanceof ClusterUnauthorizedError) return [];
    throw err;
  }
}

/** The Corefile text of a ConfigMap: key `Corefile` (all layouts above use it), else null. */
function corefileOf(cm: V1ConfigMap | null): string | null {
  const text = cm?.data?.['Corefile'];
  return typeof text === 'string' && text.trim() !== '' ? text : null;
}

/** `*.server` / `*.override` keys of a ConfigMap as files under COREDNS_CUSTOM_DIR (k3s layout). */
export function extraFilesOf(cm: V1ConfigMap | null): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [key, value] of Object.entries(cm?.data ?? {})) {
    if ((key.endsWith('.server') || key.endsWith('.override')) && typeof value === 'string') {
      files[`${COREDNS_CUSTOM_DIR}/${key}`] = value;
    }
  }
  return files;
}

/** ConfigMap `ref` (null when absent): the request kept in `early` (earlyReads), else one made now. */
async function configMapOf(client: KubeClient, ref: string, early: EarlyReads): Promise<V1ConfigMap | null> {
  const [namespace, name] = ref.split('/') as [string, string];
  return client.callOptional(`ConfigMap ${ref}`, takeOr(early, configMapKey(ref), () => client.core.readNamespacedConfigMap({ namespace, name })));
}

/** The fix text for a missing Corefile, per distribution (told apart by the DNS Service). */
function missingCorefileFix(svc: DnsService): string {
  if (svc.namespace === OPENSHIFT.namespace) return 'the OpenShift DNS operator writes it: check `oc get dns.operator/default` and `oc -n openshift-dns get configmap dns-default`';
  if (svc.name.startsWith('rke2-coredns')) return 'RKE2 deploys it with the rke2-coredns Helm chart: check `kubectl -n kube-system get helmchart rke2-coredns` and /var/lib/rancher/rke2/server/manifests/';
  return 'deploy CoreDNS (kubeadm: `kubeadm init phase addon coredns`; k3s: restore /var/lib/rancher/k3s/server/manifests/coredns.yaml)';
}

/**
 * Reads the Corefile CoreDNS uses: the configMap volumes of the pods behind `svc` (the one
 * with key `Corefile`; others with `*.server`/`*.override` keys are extra files), else the
 * WELL_KNOWN names. k3s's `kube-system/coredns-custom` is read when no volume supplied extra
 * files (a 404 is normal). Throws ClusterResponseError naming what was tried and the fix.
 * `early`: reads begun ahead (earlyReads), each taken where its request would be made.
 */
export async function readCorefileSource(client: KubeClient, svc: DnsService, early: EarlyReads = new Map()): Promise<CorefileSource> {
  const volumes = configMapVolumes(await podsOf(client, svc, early)).map((n) => `${svc.namespace}/${n}`);
  let found: { ref: string; corefile: string; viaPods: boolean } | null = null;
  let extraFiles: Record<string, string> = {};
  let sawExtra = false;
  for (const ref of volumes) {
    const cm = await configMapOf(client, ref, early);
    const corefile = corefileOf(cm);
    if (corefile !== null && found === null) found = { ref, corefile, viaPods: true };
    else if (cm) {
      const files = extraFilesOf(cm);
      if (Object.keys(files).length > 0 || ref.endsWith('/coredns-custom')) sawExtra = true;
      extraFiles = { ...extraFiles, ...files };
    }
  }
  const tried = [...volumes];
  if (found === null) {
    for (const ref of WELL_KNOWN.filter((r) => !volumes.includes(r))) {
      tried.push(ref);
      const corefile = corefileOf(await configMapOf(client, ref, early));
      if (corefile !== null) {
        found = { ref, corefile, viaPods: false };
        break;
      }
    }
  }
  if (found === null) {
    throw new ClusterResponseError(
      `No ConfigMap with a Corefile was found for the DNS Service ${svc.namespace}/${svc.name} (tried ${tried.join(', ')}), so the zones CoreDNS serves are unknown; ${missingCorefileFix(svc)}, then start K2s DNS again.`,
    );
  }
  if (!sawExtra) {
    // k3s: a 404 is normal, only k3s-style clusters have coredns-custom.
    extraFiles = extraFilesOf(await configMapOf(client, 'kube-system/coredns-custom', early));
  }
  return { configMap: found.ref, corefile: found.corefile, extraFiles, viaPods: found.viaPods };
}
