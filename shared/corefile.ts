/**
 * Which zones a host should send to CoreDNS, derived from the Corefile (plus coredns-custom
 * files) and the cluster's service and pod CIDRs. Pure logic, no Node imports.
 */
import { isIpAddress, isReverseZone, reverseZonesForCidr } from './cidr';
import { parseCorefile, type CorefileDirective, type CorefileServerBlock } from './corefile-parser';
import { asciiLower } from './proxy-upstream';
import type { ZoneRoute } from './types';

/** Input of zonesFromCorefile. */
export interface CorefileZonesInput {
  corefile: string;
  /** coredns-custom ConfigMap data (`*.server`, `*.override`), by file name. */
  extraFiles?: Record<string, string>;
  /** ClusterIP of kube-dns: the upstream of every route. */
  kubeDnsIp: string;
  serviceCidrs: string[];
  podCidrs: string[];
}

/** Output of zonesFromCorefile. */
export interface CorefileZones {
  clusterDomain: string;
  zones: ZoneRoute[];
  warnings: string[];
}

/** Plugins whose arguments (or, without arguments, the block keys) are the zones they answer. */
const ZONE_PLUGINS = new Set(['kubernetes', 'etcd', 'file', 'auto', 'secondary', 'hosts', 'k8s_external']);
/** Plugins that answer queries, named in the reason of a non-root server block key. */
const ANSWERING_PLUGINS = ['kubernetes', 'etcd', 'file', 'auto', 'secondary', 'hosts', 'k8s_external', 'forward', 'template', 'grpc', 'whoami'];
// Default listen port per key scheme (coredns.io/manual/configuration "Specifying a Protocol").
const SCHEME_PORTS: Record<string, number> = { dns: 53, tls: 853, quic: 853, grpc: 443, https: 443, https3: 443 };
// Labels of 1–63 characters and at most 253 in all (RFC 1035 §2.3.4), the same rule as
// proxy-upstream's checkZoneName: a longer label used to pass here and fail the render later.
const ZONE_RE = /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/;
const MAX_ZONE_LENGTH = 253;

interface Key { text: string; scheme: string; zones: string[]; root: boolean; port: number }

/** Splits `dns://zone:53`, `zone:port`, `.:53`, `10.0.0.0/24` into scheme, zones and port. */
function parseKey(text: string): Key {
  const m = /^(?:([a-z0-9]+):\/\/)?(.*?)(?::(\d+))?$/.exec(asciiLower(text)) ?? [];
  const scheme = m[1] ?? 'dns';
  const host = (m[2] ?? '').replace(/\.$/, '');
  const port = m[3] !== undefined ? Number(m[3]) : (SCHEME_PORTS[scheme] ?? 53);
  const root = host === '' || host === '.';
  // CoreDNS turns a CIDR key into its reverse zones (plugin.Host.NormalizeExact).
  const zones = root ? [] : host.includes('/') ? reverseZonesForCidr(host) : [host];
  return { text, scheme, zones, root, port };
}

/** Zones named by a plugin's arguments; null when it names none (it serves the block's keys). */
function pluginZoneArgs(d: CorefileDirective): string[] | null {
  // file DBFILE [ZONES…] and hosts [FILE [ZONES…]] take a file first.
  const args = d.name === 'file' || d.name === 'hosts' ? d.args.slice(1) : d.args;
  const zones = args.filter((a) => !a.startsWith('{')).map(asciiLower);
  if (zones.length === 0) return null;
  return zones.flatMap((z) => (z.includes('/') ? reverseZonesForCidr(z) : [z === '.' ? '.' : z.replace(/\.$/, '')]));
}

interface Candidate { zone: string; reason: string; clusterDomain: boolean }

/**
 * Zones a host sends to kube-dns, and the cluster domain. Rules:
 * - The cluster domain is the first non-reverse zone of the first `kubernetes` plugin.
 *   Throws when there is none (the Corefile is not a cluster DNS config).
 * - Zones of `kubernetes`, `etcd`, `file`, `auto`, `secondary`, `k8s_external`, `hosts`, the
 *   FROM of a `forward` that is not `.`, and every non-root server block key route to kubeDnsIp.
 * - The root `.` is never a zone: the host keeps its own upstreams for everything else.
 * - Inline `hosts` entries of a root block become their own zones, so the host resolves them
 *   too, unless already under another routed zone (`k2s.cluster.local` under `cluster.local`).
 * - Reverse zones: never all of in-addr.arpa / ip6.arpa / arpa (that would lose LAN PTRs);
 *   the `kubernetes` plugin's reverse zones are replaced by those of serviceCidrs and podCidrs.
 *   Specific reverse zones of other plugins or keys are kept.
 * - Server blocks on another port or scheme than the block holding `kubernetes` are not
 *   reachable through the kube-dns Service: skipped with a warning.
 * - One route per zone (the `kubernetes` one wins); a zone under another routed zone is dropped,
 *   since every route has the same upstream. Order: cluster domain, other zones, reverse zones,
 *   each group sorted by name.
 */
export function zonesFromCorefile(input: CorefileZonesInput): CorefileZones {
  if (!isIpAddress(input.kubeDnsIp)) {
    throw new Error(`kube-dns ClusterIP "${input.kubeDnsIp}" is not an IP address; check the kube-dns Service in kube-system.`);
  }
  const parsed = parseCorefile(input.corefile, input.extraFiles);
  const warnings = [...parsed.warnings];
  const blocks = parsed.serverBlocks.map((b) => ({ block: b, keys: b.keys.map(parseKey) }));
  const kubeBlock = blocks.find((b) => b.block.directives.some((d) => d.name === 'kubernetes'));
  if (!kubeBlock) {
    throw new Error('The Corefile has no kubernetes plugin, so the cluster domain is unknown; check the coredns ConfigMap in kube-system.');
  }
  const mainPort = kubeBlock.keys[0]?.port ?? 53;
  const candidates: Candidate[] = [];
  let clusterDomain: string | null = null;

  for (const { block, keys } of blocks) {
    const label = `Corefile server block "${block.keys.join(' ')}"`;
    const reachable = keys.filter((k) => k.scheme === 'dns' && k.port === mainPort);
    for (const k of keys) {
      if (!reachable.includes(k)) {
        warnings.push(`${label}: key "${k.text}" listens on ${k.scheme}://…:${k.port}, which the kube-dns Service does not reach; its zones are not forwarded.`);
      }
    }
    if (reachable.length === 0) continue;
    const blockZones = reachable.flatMap((k) => k.zones);
    const isRoot = reachable.some((k) => k.root);
    const answering = ANSWERING_PLUGINS.find((p) => block.directives.some((d) => d.name === p));
    const keyReason = answering ? `${label}, plugin "${answering}"` : label;
    for (const z of blockZones) candidates.push({ zone: z, reason: keyReason, clusterDomain: false });

    for (const d of block.directives) {
      const reason = `${label}, plugin "${d.name}"`;
      if (d.name === 'forward') {
        const from = asciiLower(d.args[0] ?? '.').replace(/\.$/, '');
        if (from !== '' && from !== '.' && !from.startsWith('{')) candidates.push({ zone: from, reason, clusterDomain: false });
        continue;
      }
      if (!ZONE_PLUGINS.has(d.name)) continue;
      const zones = pluginZoneArgs(d) ?? (isRoot ? ['.'] : blockZones);
      if (d.name === 'kubernetes') {
        const forward = zones.filter((z) => z !== '.' && !isReverseZone(z));
        if (clusterDomain === null && forward[0] !== undefined) clusterDomain = forward[0];
        // Its reverse zones are replaced by the CIDRs' zones below.
        for (const z of forward) candidates.push({ zone: z, reason, clusterDomain: z === clusterDomain });
        continue;
      }
      for (const z of zones) if (z !== '.') candidates.push({ zone: z, reason, clusterDomain: false });
      if (d.name === 'hosts' && zones.includes('.')) {
        for (const entry of d.block ?? []) {
          if (!isIpAddress(entry.name)) continue;
          for (const host of entry.args) {
            candidates.push({ zone: asciiLower(host).replace(/\.$/, ''), reason: `${reason}, entry ${entry.name}`, clusterDomain: false });
          }
        }
      }
    }
  }
  if (clusterDomain === null) {
    throw new Error('The kubernetes plugin in the Corefile names no cluster zone, so the cluster domain is unknown; add it (e.g. "kubernetes cluster.local in-addr.arpa ip6.arpa").');
  }

  for (const [kind, cidrs] of [['service', input.serviceCidrs], ['pod', input.podCidrs]] as const) {
    for (const cidr of cidrs) {
      for (const z of reverseZonesForCidr(cidr)) candidates.push({ zone: z, reason: `${kind} CIDR ${cidr}`, clusterDomain: false });
    }
  }
  return { clusterDomain, zones: toRoutes(candidates, input.kubeDnsIp, warnings), warnings };
}

/** Deduplicates, drops unsafe and covered zones, sorts, and builds the ZoneRoutes. */
function toRoutes(candidates: Candidate[], upstream: string, warnings: string[]): ZoneRoute[] {
  const byZone = new Map<string, Candidate>();
  for (const c of candidates) {
    if (c.zone === 'arpa' || c.zone === 'in-addr.arpa' || c.zone === 'ip6.arpa') {
      warnings.push(`${c.reason} serves all of ${c.zone}; only the cluster CIDRs' reverse zones are forwarded so LAN PTR lookups keep working.`);
      continue;
    }
    if (!ZONE_RE.test(c.zone) || c.zone.length > MAX_ZONE_LENGTH) {
      warnings.push(`${c.reason}: "${c.zone}" is not a plain domain name (placeholder?), so it is not forwarded.`);
      continue;
    }
    const prev = byZone.get(c.zone);
    if (!prev || (c.clusterDomain && !prev.clusterDomain)) byZone.set(c.zone, c);
  }
  const all = [...byZone.values()];
  // Covered when a proper parent suffix is routed too; checking each suffix against the map
  // is linear, where comparing all pairs was quadratic in the number of zones.
  const covered = (zone: string) => {
    for (let dot = zone.indexOf('.'); dot >= 0; dot = zone.indexOf('.', dot + 1)) {
      if (byZone.has(zone.slice(dot + 1))) return true;
    }
    return false;
  };
  const kept = all.filter((c) => !covered(c.zone));
  const group = (c: Candidate) => (c.clusterDomain ? 0 : isReverseZone(c.zone) ? 2 : 1);
  kept.sort((a, b) => group(a) - group(b) || (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
  return kept.map((c) => ({
    zone: c.zone,
    upstream,
    source: c.reason.startsWith('Corefile') ? 'corefile' : 'cidr',
    reason: c.reason,
    clusterDomain: c.clusterDomain,
    reverse: isReverseZone(c.zone),
  }));
}
