/**
 * Which zones a host should send to CoreDNS, derived from the Corefile (plus coredns-custom
 * files) and the cluster's service and pod CIDRs, filtered by the zone policy
 * (corefile-policy.ts). Pure logic, no Node imports.
 */
import { ipInCidr, isIpAddress, isReverseZone, parseCidr, reverseZonesForCidr, type Cidr } from './cidr';
import { parseCorefile, type CorefileDirective, type CorefileServerBlock } from './corefile-parser';
import { boundReason, cidrZones, isUnder, zoneRefusal, type ZoneOrigin, type ZonePolicyInput, type ZoneRefusal } from './corefile-policy';
import { asciiLower, parseUpstream } from './proxy-upstream';
import { blockForwardLoops, corednsForwardLoop, forwardLoopWhy, loopRefusalWhy, type ZoneForwardLoop } from './coredns-loop';
import type { RefusedZone, ZoneRoute } from './types';
import { unusedAllows } from './allow-zones';

/** Input of zonesFromCorefile; `allowZones`/`searchDomains` are the host side of the policy. */
export interface CorefileZonesInput extends ZonePolicyInput {
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
  /** Served zones the policy does not forward, with why (at most MAX_ZONES_PER_PLAN). */
  refused: RefusedZone[];
  /** Zones forwarded only because they are in `allowZones`. */
  allowed: string[];
  warnings: string[];
}

/**
 * Bounds. A 369 KB Corefile of one block with 19,980 keys (under the 1 MiB
 * ConfigMap limit) made the AdGuard renderer throw `RangeError: Invalid string length` and a
 * dnsmasq start take 2 min and 0.9 GB; real Corefiles are a few KiB with a handful of zones.
 */
export const MAX_COREFILE_BYTES = 256 * 1024;
/** Distinct zones one Corefile may name (forwarded plus refused). */
export const MAX_ZONES_PER_PLAN = 1000;
/** Block keys named in a reason before `(+N more)`. */
const MAX_KEYS_IN_LABEL = 4;

/** Plugins whose arguments (or, without arguments, the block keys) are the zones they answer. */
const ZONE_PLUGINS = new Set(['kubernetes', 'etcd', 'file', 'auto', 'secondary', 'hosts', 'k8s_external']);
/** Plugins that answer queries, named in the reason of a non-root server block key. */
const ANSWERING_PLUGINS = ['kubernetes', 'etcd', 'file', 'auto', 'secondary', 'hosts', 'k8s_external', 'forward', 'template', 'grpc', 'whoami'];
// Default listen port per key scheme (coredns.io/manual/configuration "Specifying a Protocol").
const SCHEME_PORTS: Record<string, number> = { dns: 53, tls: 853, quic: 853, grpc: 443, https: 443, https3: 443 };

interface Key { text: string; scheme: string; zones: string[]; root: boolean; port: number }

/** Splits `dns://zone:53`, `zone:port`, `.:53`, `10.0.0.0/24` into scheme, zones and port. */
function parseKey(text: string): Key {
  const m = /^(?:([a-z0-9]+):\/\/)?(.*?)(?::(\d+))?$/.exec(asciiLower(text)) ?? [];
  const scheme = m[1] ?? 'dns';
  const host = (m[2] ?? '').replace(/\.$/, '');
  const port = m[3] !== undefined ? Number(m[3]) : (SCHEME_PORTS[scheme] ?? 53);
  const root = host === '' || host === '.';
  // CoreDNS turns a CIDR key into its reverse zones (plugin.Host.NormalizeExact).
  const zones = root ? [] : host.includes('/') ? cidrKeyZones(host) : [host];
  return { text, scheme, zones, root, port };
}

/**
 * Reverse zones of a CIDR written as a key or plugin zone (CoreDNS plugin.Host.NormalizeExact):
 * a /0 is all of `in-addr.arpa`/`ip6.arpa` (which the policy never forwards); text that is not
 * a CIDR stays as it is, so the policy refuses it as not a domain name instead of failing.
 */
function cidrKeyZones(text: string): string[] {
  let c: Cidr;
  try {
    c = parseCidr(text);
  } catch {
    return [text];
  }
  return c.prefix === 0 ? [c.family === 4 ? 'in-addr.arpa' : 'ip6.arpa'] : reverseZonesForCidr(text);
}

/** Zones named by a plugin's arguments; null when it names none (it serves the block's keys). */
function pluginZoneArgs(d: CorefileDirective): string[] | null {
  // file DBFILE [ZONES…] and hosts [FILE [ZONES…]] take a file first.
  const args = d.name === 'file' || d.name === 'hosts' ? d.args.slice(1) : d.args;
  const zones = args.filter((a) => !a.startsWith('{')).map(asciiLower);
  if (zones.length === 0) return null;
  return zones.flatMap((z) => (z.includes('/') ? cidrKeyZones(z) : [z === '.' ? '.' : z.replace(/\.$/, '')]));
}

interface Candidate {
  zone: string;
  reason: string;
  origin: ZoneOrigin;
  clusterDomain: boolean;
  /** A CIDR zone's verdict from cidrRefusal (undefined: judge the zone by zoneRefusal alone). */
  cidrRefusal?: ZoneRefusal | null;
  /** CoreDNS forwards this zone (or a part of it) back to a proxy listener: refused, never allowable. */
  loopRefusal?: ZoneRefusal;
}

/** UTF-8 length of `text` in bytes, without allocating an encoded copy. */
function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/** `Corefile server block "k1 k2 k3 k4 (+N more keys)"`: bounded however many keys a block has. */
function blockLabel(block: CorefileServerBlock): string {
  const shown = block.keys.slice(0, MAX_KEYS_IN_LABEL).join(' ');
  const more = block.keys.length - MAX_KEYS_IN_LABEL;
  return `Corefile server block "${boundReason(shown)}${more > 0 ? ` (+${more} more keys)` : ''}"`;
}

/**
 * Zones a host sends to kube-dns, the cluster domain, and the served zones it refuses. Rules:
 * - Bounds: the Corefile plus extra files at most MAX_COREFILE_BYTES, at most
 *   MAX_ZONES_PER_PLAN distinct zones; beyond either it throws (a clear refusal, not a huge plan).
 * - The cluster domain is the first `kubernetes` zone the policy accepts as a cluster zone (not
 *   a `.svc`-style placeholder, a CHAOS name like `hostname.bind`, an ICANN suffix or an
 *   Internet name such as `google.com`) or the user allowed. Throws when there is none (the
 *   message names `--allow-zone` when an allow would help). The plugin's other zones are
 *   judged like served zones.
 * - Candidates: zones of `kubernetes`, `etcd`, `file`, `auto`, `secondary`, `k8s_external`,
 *   `hosts`, the FROM of a `forward` that is not `.`, every non-root server block key, and
 *   inline `hosts` entries of a root block; the root `.` never.
 * - The zone policy (corefile-policy.ts zoneRefusal) decides each candidate; an allowable
 *   refusal of a zone in `allowZones` is forwarded and listed in `allowed`.
 * - Reverse zones: the `kubernetes` plugin's are replaced by those of serviceCidrs and podCidrs;
 *   a CIDR is cluster data too, so cidrRefusal (corefile-policy.ts) refuses those outside
 *   private space or shorter than /8 (IPv4) or /48 (IPv6); text that is not a CIDR is skipped
 *   with a warning.
 * - Loops (coredns-loop.ts): a zone a reachable server block or `forward FROM` line sends to a
 *   proxy listener or loopback, and a routed zone holding such a zone, is refused and not
 *   allowable (the cluster domain excepted); so are the cluster reverse zones the `kubernetes`
 *   block falls through and forwards to a listener.
 * - Server blocks on another port or scheme than the block holding `kubernetes` are not
 *   reachable through the kube-dns Service: skipped with a warning.
 * - `rewrite` and `template` in a reachable block: a warning names the names they answer that
 *   are not under a forwarded zone (they resolve in pods but not from the host).
 * - One route per zone (the `kubernetes` one wins); a zone under another forwarded zone is
 *   dropped, since every route has the same upstream. Order: cluster domain, other zones,
 *   reverse zones, each group sorted by name. Reasons are at most MAX_REASON_LENGTH characters.
 */
export function zonesFromCorefile(input: CorefileZonesInput): CorefileZones {
  if (!isIpAddress(input.kubeDnsIp)) {
    throw new Error(`kube-dns ClusterIP "${input.kubeDnsIp.slice(0, 64)}" is not an IP address; check the kube-dns Service in kube-system.`);
  }
  const bytes = utf8Bytes(input.corefile) + Object.values(input.extraFiles ?? {}).reduce((n, t) => n + utf8Bytes(t), 0);
  if (bytes > MAX_COREFILE_BYTES) {
    throw new Error(`The Corefile (with its coredns-custom files) is ${bytes} bytes, more than the ${MAX_COREFILE_BYTES} bytes (256 KiB) K2s DNS reads; a CoreDNS config is a few KiB, so check the ConfigMap.`);
  }
  const parsed = parseCorefile(input.corefile, input.extraFiles);
  const warnings = [...parsed.warnings];
  const blocks = parsed.serverBlocks.map((b) => ({ block: b, keys: b.keys.map(parseKey) }));
  const kubeBlock = blocks.find((b) => b.block.directives.some((d) => d.name === 'kubernetes'));
  if (!kubeBlock) {
    throw new Error('The Corefile has no kubernetes plugin, so the cluster domain is unknown; check the CoreDNS ConfigMap.');
  }
  const mainPort = kubeBlock.keys[0]?.port ?? 53;
  const candidates: Candidate[] = [];
  const kubernetesZones: string[] = [];
  const answerers: { label: string; d: CorefileDirective; blockZones: string[] }[] = [];
  const forwardLoops: ZoneForwardLoop[] = [];

  for (const { block, keys } of blocks) {
    const label = blockLabel(block);
    const reachable = keys.filter((k) => k.scheme === 'dns' && k.port === mainPort);
    const unreachable = keys.filter((k) => !reachable.includes(k));
    for (const k of unreachable.slice(0, MAX_KEYS_IN_LABEL)) {
      warnings.push(boundReason(`${label}: key "${k.text}" listens on ${k.scheme}://…:${k.port}, which the kube-dns Service does not reach; its zones are not forwarded.`));
    }
    if (unreachable.length > MAX_KEYS_IN_LABEL) warnings.push(`${label}: ${unreachable.length - MAX_KEYS_IN_LABEL} more keys are not reachable through the kube-dns Service either.`);
    if (reachable.length === 0) continue;
    const blockZones = reachable.flatMap((k) => k.zones);
    if (blockZones.length > MAX_ZONES_PER_PLAN) throw tooManyZones(blockZones.length);
    const isRoot = reachable.some((k) => k.root);
    const answering = ANSWERING_PLUGINS.find((p) => block.directives.some((d) => d.name === p));
    const keyReason = answering ? `${label}, plugin "${answering}"` : label;
    if (input.proxyListeners?.length) forwardLoops.push(...blockForwardLoops(block, blockZones, isRoot, input.proxyListeners));
    for (const z of blockZones) candidates.push({ zone: z, reason: keyReason, origin: 'served', clusterDomain: false });

    for (const d of block.directives) {
      const reason = `${label}, plugin "${d.name}"`;
      if (d.name === 'rewrite' || d.name === 'template') {
        answerers.push({ label: reason, d, blockZones: isRoot ? ['.'] : blockZones });
        continue;
      }
      if (d.name === 'forward') {
        const from = asciiLower(d.args[0] ?? '.').replace(/\.$/, '');
        if (from !== '' && from !== '.' && !from.startsWith('{')) candidates.push({ zone: from, reason, origin: 'served', clusterDomain: false });
        continue;
      }
      if (!ZONE_PLUGINS.has(d.name)) continue;
      const zones = pluginZoneArgs(d) ?? (isRoot ? ['.'] : blockZones);
      if (d.name === 'kubernetes') {
        // Its reverse zones are replaced by the CIDRs' zones below.
        for (const z of zones) if (z !== '.' && !isReverseZone(z)) kubernetesZones.push(z);
        for (const z of zones.filter((z) => z !== '.' && !isReverseZone(z))) candidates.push({ zone: z, reason, origin: 'cluster', clusterDomain: false });
        continue;
      }
      for (const z of zones) if (z !== '.') candidates.push({ zone: z, reason, origin: 'served', clusterDomain: false });
      if (d.name === 'hosts' && zones.includes('.')) {
        for (const entry of d.block ?? []) {
          if (!isIpAddress(entry.name)) continue;
          for (const host of entry.args) {
            candidates.push({ zone: asciiLower(host).replace(/\.$/, ''), reason: `${reason}, entry ${entry.name.slice(0, 45)}`, origin: 'hosts-entry', clusterDomain: false });
          }
        }
      }
    }
    if (candidates.length > 4 * MAX_ZONES_PER_PLAN) throw tooManyZones(candidates.length);
  }
  const policy: ZonePolicyInput = { allowZones: (input.allowZones ?? []).map((z) => asciiLower(z).replace(/\.$/, '')), searchDomains: input.searchDomains ?? [] };
  const allowedZone = (r: ZoneRefusal | null, z: string) => r === null || (r.allowable && (policy.allowZones ?? []).includes(z));
  // Cluster CIDRs are cluster data too (kubeadm-config, node podCIDRs): judged by cidrRefusal.
  const cidrCandidates: Candidate[] = [];
  for (const [kind, list] of [['service', input.serviceCidrs], ['pod', input.podCidrs]] as const) {
    const { zones, invalid } = cidrZones(list);
    for (const bad of invalid.slice(0, MAX_KEYS_IN_LABEL)) warnings.push(boundReason(`${kind} CIDR skipped: ${bad.why}.`));
    for (const z of zones) cidrCandidates.push({ zone: z.zone, reason: `${kind} CIDR ${z.cidr}`, origin: 'cidr', clusterDomain: false, cidrRefusal: z.refusal });
  }
  // CoreDNS ↔ proxy loop: a reverse zone CoreDNS falls through and forwards to a
  // proxy listener would come straight back; it is refused (no allow can route it).
  // Never allowable: a loop refusal replaces an allowable CIDR refusal (an --allow-zone would loop).
  const loops = new Set<string>();
  const zoneLoops = new Set<ZoneForwardLoop>();
  for (const c of cidrCandidates) {
    if (c.cidrRefusal && !c.cidrRefusal.allowable) continue;
    const zl = loopOf(forwardLoops, c.zone);
    if (zl) {
      c.cidrRefusal = { why: forwardLoopWhy(zl, c.zone), allowable: false };
      zoneLoops.add(zl);
      continue;
    }
    const loop = input.proxyListeners?.length ? corednsForwardLoop(input.corefile, input.extraFiles, input.proxyListeners, c.zone) : null;
    if (!loop) continue;
    c.cidrRefusal = { why: loopRefusalWhy(loop), allowable: false };
    loops.add(loop.targets.join(', '));
  }
  for (const t of loops) warnings.push(`CoreDNS forwards the reverse names it does not know to ${t}, this host's proxy: the cluster reverse zones are not routed to CoreDNS (that would loop), so PTR lookups of cluster addresses from this host go to the host's nameservers.`);
  const reverseZones = cidrCandidates.filter((c) => allowedZone(c.cidrRefusal ?? null, c.zone)).map((c) => c.zone);
  warnings.push(...lanOverlapWarnings([...input.serviceCidrs, ...input.podCidrs], input.nameservers ?? [], reverseZones));
  // The cluster domain: the first kubernetes zone the policy accepts for a cluster (or the user
  // allowed). The plugin's other zones are judged like any served zone (`kubernetes
  // cluster.local google.com` must not route google.com).
  const clusterDomain = kubernetesZones.find((z) => allowedZone(zoneRefusal(z, 'cluster', reverseZones, policy), z)) ?? null;
  if (clusterDomain === null) {
    const first = kubernetesZones.map((z) => ({ z, r: zoneRefusal(z, 'cluster', reverseZones, policy) })).find((x) => x.r?.allowable);
    const named = kubernetesZones.length ? ` (it names ${kubernetesZones.slice(0, 4).map((z) => `"${z.slice(0, 64)}"`).join(', ')}, none a usable cluster zone)` : '';
    const hint = first ? ` ${first.z.slice(0, 64)} is ${first.r!.why.slice(0, 160)}; if this cluster really serves it, start with --allow-zone ${first.z.slice(0, 64)}.` : '';
    throw new Error(`The kubernetes plugin in the Corefile names no cluster zone${named}, so the cluster domain is unknown; name it (e.g. "kubernetes cluster.local in-addr.arpa ip6.arpa").${hint}`);
  }
  for (const c of candidates) {
    if (c.origin !== 'cluster') continue;
    if (c.zone === clusterDomain) c.clusterDomain = true;
    else c.origin = 'served';
  }
  // Zones CoreDNS forwards back to this host (corp.internal:53 { forward . 172.19.1.1 }):
  // refused whatever the policy or an allow says; the cluster domain is the kubernetes plugin's.
  for (const c of candidates) {
    const zl = c.clusterDomain ? null : loopOf(forwardLoops, c.zone);
    if (!zl) continue;
    c.loopRefusal = { why: forwardLoopWhy(zl, c.zone), allowable: false };
    zoneLoops.add(zl);
  }
  for (const zl of [...zoneLoops].slice(0, MAX_KEYS_IN_LABEL)) {
    warnings.push(boundReason(`CoreDNS forwards ${zl.zone} to ${zl.targets.join(', ')} (${zl.where}), this host's proxy: it is not routed to CoreDNS (that would loop), so the host resolves it through its own nameservers.`));
  }
  candidates.push(...cidrCandidates);
  const out = toRoutes(candidates, input.kubeDnsIp, reverseZones, policy);
  warnings.push(...answerWarnings(answerers, out.zones));
  const unused = unusedAllows(policy.allowZones ?? [], out.allowed);
  if (unused) warnings.push(unused);
  return { clusterDomain, ...out, warnings };
}

/**
 * One warning per forwarded cluster CIDR that holds one of the host's nameservers: the cluster
 * overlaps the LAN (e.g. Calico's default 192.168.0.0/16 on a 192.168.1.0/24 home network), so
 * PTR lookups of LAN addresses in it go to CoreDNS instead of that nameserver.
 */
function lanOverlapWarnings(cidrs: string[], nameservers: string[], forwardedZones: string[]): string[] {
  const out: string[] = [];
  for (const cidr of cidrs) {
    let zones: string[];
    try {
      zones = reverseZonesForCidr(cidr);
    } catch {
      continue;
    }
    if (!zones.some((z) => forwardedZones.includes(z))) continue;
    const inside = nameservers.filter((ns) => {
      try {
        // `IP`, `IP:PORT`, `[IPv6]:PORT` (picked upstreams) or a resolv.conf nameserver.
        return ipInCidr(parseUpstream(ns).ip.split('%')[0]!, cidr);
      } catch {
        return false;
      }
    });
    if (inside.length > 0 && out.length < MAX_KEYS_IN_LABEL) {
      out.push(boundReason(`Cluster CIDR ${cidr} holds this host's nameserver ${inside.slice(0, 2).join(', ')}: the cluster overlaps the LAN, so PTR lookups of LAN addresses in it go to CoreDNS instead of that nameserver; check the cluster's pod and service CIDRs.`));
    }
  }
  return out;
}

/** The forward loop that makes routing `zone` loop: one for the zone itself, else one for a part of it. */
function loopOf(loops: ZoneForwardLoop[], zone: string): ZoneForwardLoop | null {
  return loops.find((l) => l.zone === zone) ?? loops.find((l) => isUnder(l.zone, zone)) ?? null;
}

/** The refusal for a Corefile naming more than MAX_ZONES_PER_PLAN zones. */
function tooManyZones(count: number): Error {
  return new Error(`The Corefile names ${count} or more zones, more than the ${MAX_ZONES_PER_PLAN} K2s DNS forwards; a CoreDNS config names a handful, so check the ConfigMap (a generated list of server block keys?).`);
}

/** The query names a `rewrite` or `template` directive answers: rewrite's FROM, template's zones. */
function answeredNames(d: CorefileDirective, blockZones: string[]): { names: string[]; regex: boolean } {
  if (d.name === 'template') {
    // template CLASS TYPE [ZONE...] (coredns.io/plugins/template): no zones = the block's.
    const zones = d.args.slice(2).filter((a) => !a.startsWith('{')).map((a) => asciiLower(a).replace(/\.$/, ''));
    return { names: zones.length ? zones : blockZones, regex: false };
  }
  // rewrite [continue|stop] name [exact|prefix|suffix|substring|regex] FROM TO (coredns.io/plugins/rewrite).
  let args = d.args;
  if (args[0] === 'continue' || args[0] === 'stop') args = args.slice(1);
  if (args[0] !== 'name') return { names: [], regex: false };
  args = args.slice(1);
  const types = ['exact', 'prefix', 'suffix', 'substring', 'regex'];
  const type = types.includes(args[0] ?? '') ? args[0]! : 'exact';
  if (types.includes(args[0] ?? '')) args = args.slice(1);
  const from = args[0];
  if (from === undefined) return { names: [], regex: false };
  return { names: [asciiLower(from).replace(/\.$/, '')], regex: type !== 'exact' && type !== 'suffix' };
}

/** Warnings for `rewrite`/`template` names that pods resolve but the host sends elsewhere. */
function answerWarnings(answerers: { label: string; d: CorefileDirective; blockZones: string[] }[], routes: ZoneRoute[]): string[] {
  const out: string[] = [];
  for (const a of answerers.slice(0, 20)) {
    const { names, regex } = answeredNames(a.d, a.blockZones);
    const lost = names.filter((n) => n === '.' || regex || !routes.some((r) => isUnder(n, r.zone)));
    if (lost.length === 0) continue;
    const shown = lost.slice(0, 4).map((n) => (n === '.' ? 'any name' : `"${n.slice(0, 64)}"`)).join(', ');
    out.push(boundReason(`${a.label} answers ${regex ? 'names matching ' : ''}${shown} in pods, but the host sends ${lost.length > 1 ? 'them' : 'it'} to its own upstreams (not a forwarded zone), so ${lost.length > 1 ? 'they do' : 'it does'} not resolve from the host the same way.`));
  }
  return out;
}

/** Applies the policy, deduplicates, drops covered zones, sorts, and builds the ZoneRoutes. */
function toRoutes(candidates: Candidate[], upstream: string, reverseZones: string[], policy: ZonePolicyInput): { zones: ZoneRoute[]; refused: RefusedZone[]; allowed: string[] } {
  const byZone = new Map<string, Candidate>();
  const refusedBy = new Map<string, RefusedZone>();
  const allowed = new Set<string>();
  for (const c of candidates) {
    const refusal = c.loopRefusal ?? zoneRefusal(c.zone, c.origin, reverseZones, policy) ?? c.cidrRefusal ?? null;
    if (refusal && !(refusal.allowable && policy.allowZones?.includes(c.zone))) {
      // A refused CIDR's why (its size or address space) says more than "outside the cluster CIDRs".
      if (!refusedBy.has(c.zone) || c.origin === 'cidr' || c.loopRefusal) refusedBy.set(c.zone, { zone: c.zone.slice(0, 253), reason: boundReason(c.reason), why: refusal.why, allowable: refusal.allowable });
      if (refusedBy.size > MAX_ZONES_PER_PLAN) throw tooManyZones(refusedBy.size);
      continue;
    }
    if (refusal) allowed.add(c.zone);
    const prev = byZone.get(c.zone);
    if (!prev || (c.clusterDomain && !prev.clusterDomain)) byZone.set(c.zone, c);
  }
  if (byZone.size > MAX_ZONES_PER_PLAN) throw tooManyZones(byZone.size);
  // A zone both refused (one origin) and forwarded (another, e.g. the kubernetes plugin) is forwarded.
  for (const z of byZone.keys()) refusedBy.delete(z);
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
  const zones = kept.map((c) => ({
    zone: c.zone,
    upstream,
    source: c.origin === 'cidr' ? ('cidr' as const) : ('corefile' as const),
    reason: boundReason(allowed.has(c.zone) ? `${c.reason} (allowed by the user)` : c.reason),
    clusterDomain: c.clusterDomain,
    reverse: isReverseZone(c.zone),
  }));
  // Names first, then reverse zones (256 of them from a /1 key must not hide the rest in a capped list).
  const rgroup = (r: RefusedZone) => (isReverseZone(r.zone) ? 1 : 0);
  const refused = [...refusedBy.values()].sort((a, b) => rgroup(a) - rgroup(b) || (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
  return { zones, refused, allowed: [...allowed].filter((z) => byZone.has(z)).sort() };
}
