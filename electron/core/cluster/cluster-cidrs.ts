/**
 * Service and pod CIDRs of the cluster, whose reverse zones the proxy sends to CoreDNS.
 * Sources in order: kubeadm's ClusterConfiguration (kube-system/kubeadm-config), the nodes'
 * spec.podCIDRs, then stated fallbacks.
 */
import { isIPv4 } from 'node:net';
import { load } from 'js-yaml';
import { ipInCidr, parseCidr } from '../../../shared/cidr';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import type { CidrSource } from '../../../shared/types';

/** `networking` of a kubeadm ClusterConfiguration (kubeadm.k8s.io/v1beta3/v1beta4). */
export interface KubeadmNetworking {
  serviceCidrs: string[];
  podCidrs: string[];
  dnsDomain: string | null;
}

/** Splits a kubeadm subnet value: dual-stack clusters give a comma-separated list. */
function splitSubnets(value: unknown, key: string): string[] {
  if (typeof value !== 'string') return [];
  const subnets = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  // parseCidr throws a message naming the bad value; the caller turns it into a warning.
  for (const s of subnets) {
    try {
      parseCidr(s);
    } catch (err) {
      throw new Error(`networking.${key}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return subnets;
}

/**
 * Reads networking.serviceSubnet / podSubnet / dnsDomain from ClusterConfiguration YAML.
 * Throws when the text is not one YAML document or a subnet is not a CIDR (the caller reports it
 * as a warning). Parsed with js-yaml `load` (no JavaScript types, aliases shared, not copied), the
 * parser start has already run on the kubeconfig (cluster/kubeconfig-guard.ts): the `yaml`
 * package's first parse in a process cost start's discover step 4–9 ms (--cpu-prof on the test
 * bed), most of it compiling a second parser for three scalars.
 */
export function parseKubeadmNetworking(clusterConfiguration: string): KubeadmNetworking {
  const doc: unknown = load(clusterConfiguration);
  const networking = (doc as { networking?: Record<string, unknown> } | null)?.networking ?? {};
  return {
    serviceCidrs: splitSubnets(networking['serviceSubnet'], 'serviceSubnet'),
    podCidrs: splitSubnets(networking['podSubnet'], 'podSubnet'),
    dnsDomain: typeof networking['dnsDomain'] === 'string' ? networking['dnsDomain'] : null,
  };
}

/** The IPv4 /16 containing `ip`, e.g. `172.21.0.10` → `172.21.0.0/16`; null for non-IPv4. */
export function ipv4Slash16(ip: string): string | null {
  if (!isIPv4(ip)) return null;
  const [a, b] = ip.split('.');
  return `${a}.${b}.0.0/16`;
}

/** What discovery found about CIDRs, before choosing. */
export interface CidrEvidence {
  /** Parsed kubeadm-config networking, or null when the ConfigMap is absent or unreadable. */
  kubeadm: KubeadmNetworking | null;
  /** Union of all nodes' spec.podCIDRs (spec.podCIDR when podCIDRs is empty). */
  nodePodCidrs: string[];
  /** ClusterIP of kube-dns, always inside the service CIDR. */
  kubeDnsIp: string;
}

/** The chosen CIDRs, where they came from, and one warning sentence per fallback taken. */
export interface CidrChoice {
  serviceCidrs: string[];
  podCidrs: string[];
  cidrSource: CidrSource;
  warnings: string[];
}

/**
 * Chooses service/pod CIDRs. Service CIDR without kubeadm-config: K2S_DEFAULTS.serviceCidr if
 * it contains the kube-dns ClusterIP (a K2s cluster), else the IPv4 /16 around that ClusterIP
 * (the ClusterIP is certainly in the service range; /16 is kubeadm's default size).
 * Pod CIDR: kubeadm podSubnet, else nodes' podCIDRs, else K2S_DEFAULTS.podCidr.
 * `cidrSource` is `kubeadm-config` only when both came from there.
 */
export function chooseCidrs(ev: CidrEvidence): CidrChoice {
  const warnings: string[] = [];
  let serviceCidrs = ev.kubeadm?.serviceCidrs ?? [];
  let podCidrs = ev.kubeadm?.podCidrs ?? [];
  const serviceFromKubeadm = serviceCidrs.length > 0;
  const podFromKubeadm = podCidrs.length > 0;

  if (!serviceFromKubeadm) {
    const k2sDefault = K2S_DEFAULTS.serviceCidr;
    const around = ipv4Slash16(ev.kubeDnsIp);
    if (ipInCidr(ev.kubeDnsIp, k2sDefault)) {
      serviceCidrs = [k2sDefault];
      warnings.push(
        `No serviceSubnet in kube-system/kubeadm-config: using the K2s default service CIDR ${k2sDefault} (stated fallback; it contains the kube-dns ClusterIP ${ev.kubeDnsIp}).`,
      );
    } else if (around) {
      serviceCidrs = [around];
      warnings.push(
        `No serviceSubnet in kube-system/kubeadm-config: assuming service CIDR ${around}, the /16 around the kube-dns ClusterIP ${ev.kubeDnsIp} (stated fallback; reverse lookups of services outside it will not reach CoreDNS).`,
      );
    } else {
      warnings.push(
        `No serviceSubnet in kube-system/kubeadm-config and the kube-dns ClusterIP ${ev.kubeDnsIp} is not IPv4: no service reverse zone is forwarded (stated fallback).`,
      );
    }
  }

  let cidrSource: CidrSource = serviceFromKubeadm && podFromKubeadm ? 'kubeadm-config' : 'fallback';
  if (!podFromKubeadm) {
    if (ev.nodePodCidrs.length > 0) {
      podCidrs = [...ev.nodePodCidrs];
      cidrSource = 'node-podcidr';
      warnings.push(
        `No podSubnet in kube-system/kubeadm-config: using the nodes' podCIDRs ${podCidrs.join(', ')}.`,
      );
    } else {
      podCidrs = [K2S_DEFAULTS.podCidr];
      cidrSource = 'fallback';
      warnings.push(
        `No podSubnet in kube-system/kubeadm-config and no node podCIDRs: using the K2s default pod CIDR ${K2S_DEFAULTS.podCidr} (stated fallback).`,
      );
    }
  }
  return { serviceCidrs, podCidrs, cidrSource, warnings };
}
