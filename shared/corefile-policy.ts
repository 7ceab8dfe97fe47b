/**
 * Zone policy: which zones CoreDNS serves may become host-wide routes. Cluster data
 * must not hijack host names: the `kubernetes` plugin's cluster domain is forwarded unless it is
 * a public suffix or an Internet name, the reverse zones of the cluster CIDRs only when the CIDR
 * is private space of a sane size (cidrRefusal); every other served zone is checked against the
 * Public Suffix List (tldts, publicsuffix.org), the accepted cluster CIDRs and the host's own
 * search domains, and a refused zone can be allowed by the user.
 * Pure logic, no Node imports.
 */
import { parse as parseDomain } from 'tldts';
import { isReverseZone, parseCidr, reverseZonesForCidr } from './cidr';
import { cidrRefusal, hasValidTldLabel, type ZoneRefusal } from './cidr-policy';
import { edgeHyphenLabel, isZoneName } from './zone-name';

export { cidrRefusal, CLUSTER_CIDR_SPACE, hasValidTldLabel, MIN_CLUSTER_PREFIX, type ZoneRefusal } from './cidr-policy';

/** Where a candidate zone came from; decides which rules apply. */
export type ZoneOrigin =
  /** A zone of the `kubernetes` plugin (cluster domain). */
  | 'cluster'
  /** A reverse zone of a discovered service or pod CIDR. */
  | 'cidr'
  /** A server block key, `file`/`etcd`/`hosts`/… zone or `forward` FROM. */
  | 'served'
  /** A name of an inline `hosts` entry in the root block (one host name, routed as a zone). */
  | 'hosts-entry';

/** Host-side policy input: the user's explicit allows and the host's search domains. */
export interface ZonePolicyInput {
  /** Zones the user allowed (`--allow-zone`, the Zones panel toggle), lower case, no trailing dot. */
  allowZones?: string[];
  /** `search` domains of the host's original /etc/resolv.conf. */
  searchDomains?: string[];
  /** Nameservers of the host's original resolver (the LAN's); a cluster CIDR holding one gets a warning. */
  nameservers?: string[];
  /**
   * Addresses the host proxy will listen on (127.0.0.1, the KubeSwitch address): a reverse zone
   * CoreDNS falls through and forwards to one of them is not routed (coredns-loop.ts).
   */
  proxyListeners?: string[];
}

/**
 * CHAOS-class server-identity names (RFC 4892 §2: `id.server`, `version.server`; BIND's
 * `hostname.bind`, `version.bind`, `authors.bind`): answered by the `chaos` plugin in class CH,
 * never zones of the Internet class a host forwards.
 */
const CHAOS_TLDS = new Set(['bind', 'server']);

/** True when `zone` equals `parent` or lies under it (label-wise, both lower case, no trailing dot). */
export function isUnder(zone: string, parent: string): boolean {
  return zone === parent || zone.endsWith(`.${parent}`);
}

/** True for names that can be a zone: plain labels, a hostname TLD label, not CHAOS identity names. */
export function isValidZoneName(zone: string): boolean {
  if (!isZoneName(zone) || !hasValidTldLabel(zone)) return false;
  return !CHAOS_TLDS.has(zone.slice(zone.lastIndexOf('.') + 1));
}

/** One reverse zone of a cluster CIDR and the CIDR's refusal (null: forwarded). */
export interface CidrZone {
  zone: string;
  cidr: string;
  refusal: ZoneRefusal | null;
}

/**
 * The reverse zones of each cluster CIDR with cidrRefusal's verdict. A /0 gives all of
 * `in-addr.arpa`/`ip6.arpa` (refused by zoneRefusal, never allowable); text that is not a CIDR
 * gives no zone (its refusal is returned under `invalid`).
 */
export function cidrZones(cidrs: string[]): { zones: CidrZone[]; invalid: { cidr: string; why: string }[] } {
  const zones: CidrZone[] = [];
  const invalid: { cidr: string; why: string }[] = [];
  for (const cidr of cidrs) {
    const refusal = cidrRefusal(cidr);
    if (refusal && !refusal.allowable) {
      invalid.push({ cidr, why: refusal.why });
      continue;
    }
    const c = parseCidr(cidr);
    const list = c.prefix === 0 ? [c.family === 4 ? 'in-addr.arpa' : 'ip6.arpa'] : reverseZonesForCidr(cidr);
    for (const zone of list) zones.push({ zone, cidr, refusal });
  }
  return { zones, invalid };
}

/** Lower-cased search domains without trailing dot. */
function normalSearch(input: ZonePolicyInput): string[] {
  return (input.searchDomains ?? []).map((s) => s.toLowerCase().replace(/\.$/, '')).filter((s) => s !== '');
}

/**
 * Why `zone` (from `origin`) must not be forwarded, or null when it may. Rules, in order:
 * not a valid name or a CHAOS name (never); all of arpa/in-addr.arpa/ip6.arpa (never: LAN
 * PTRs); CIDR zones pass here (their CIDR is judged by cidrRefusal); a reverse zone outside
 * `reverseZones` (the accepted cluster CIDRs'); a public suffix or TLD by the PSL — for the
 * cluster domain only ICANN suffixes (`com`, `co.uk`), since `local`-style private TLDs are what
 * clusters use; a name equal to, under, or a parent of one of the host's search domains (not
 * for the cluster domain); an Internet name under a listed suffix (`google.com`,
 * `www.example.org`, `team.github.io`: as a route it takes over that whole domain on the host),
 * whatever the origin, the cluster domain included. All but
 * the first two can be allowed by the user. Callers normalise first (scheme, port, trailing
 * dot, ASCII case: corefile.ts parseKey), so `dns://Google.com.:53` is judged as `google.com`.
 */
export function zoneRefusal(zone: string, origin: ZoneOrigin, reverseZones: string[], input: ZonePolicyInput): ZoneRefusal | null {
  if (!isZoneName(zone)) {
    return { why: 'not a plain domain name (a placeholder such as ".svc"?)', allowable: false };
  }
  const hyphen = edgeHyphenLabel(zone);
  if (hyphen !== null) {
    return { why: `its label "${hyphen}" starts or ends with a hyphen (RFC 952, RFC 1123 §2.1 host name labels), which systemd-resolved's routing domains and the proxy's zone rules do not take; rename the zone in the Corefile`, allowable: false };
  }
  if (!hasValidTldLabel(zone)) {
    return { why: 'its top-level label is not a host name label (RFC 3696 §2: letters, digits, inner hyphens, not all digits), so no resolver routes it', allowable: false };
  }
  if (!isValidZoneName(zone)) {
    return { why: 'a CHAOS-class server identity name (RFC 4892), not an Internet zone', allowable: false };
  }
  if (zone === 'arpa' || zone === 'in-addr.arpa' || zone === 'ip6.arpa') {
    return { why: `all of ${zone}: LAN PTR lookups would go to the cluster; only the cluster CIDRs' reverse zones are forwarded`, allowable: false };
  }
  if (origin === 'cidr') return null;
  if (isReverseZone(zone)) {
    if (reverseZones.some((r) => isUnder(zone, r))) return null;
    return { why: 'a reverse zone outside the cluster CIDRs: PTR lookups of those addresses (the LAN) would go to the cluster', allowable: true };
  }
  const psl = parseDomain(zone, { allowPrivateDomains: true });
  if (psl.publicSuffix === zone && (origin !== 'cluster' || psl.isIcann === true)) {
    return {
      why: zone.includes('.')
        ? `a public suffix (Public Suffix List${psl.isIcann ? ', ICANN section' : psl.isPrivate ? ', private section' : ''}): every domain under it would go to the cluster`
        : 'a top-level domain: every name under it would go to the cluster',
      allowable: true,
    };
  }
  if (origin !== 'cluster') {
    for (const s of normalSearch(input)) {
      if (isUnder(s, zone)) {
        return { why: s === zone ? "one of this host's own search domains" : `a parent of this host's search domain ${s}`, allowable: true };
      }
      if (isUnder(zone, s)) {
        return { why: `under this host's search domain ${s}: the host's own names there would go to the cluster`, allowable: true };
      }
    }
  }
  // A name under a listed suffix (ICANN `com`, `co.uk`; private `github.io`) is an Internet
  // name. `local`, `internal`, `corp`, `test` and other unlisted TLDs fall under tldts's `*`
  // rule with neither flag set, so cluster-private names stay forwarded.
  if ((psl.isIcann === true || psl.isPrivate === true) && psl.domain !== null) {
    return { why: `an Internet name under the public suffix .${psl.publicSuffix}: as a route it would send all of ${zone} to the cluster`, allowable: true };
  }
  return null;
}

/** Upper bound of a reason's length (characters); longer ones are cut with `…`. */
export const MAX_REASON_LENGTH = 240;

/** Cuts `text` to MAX_REASON_LENGTH characters (bounded reasons even for a block of 20,000 keys). */
export function boundReason(text: string): string {
  return text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH - 1)}…`;
}
