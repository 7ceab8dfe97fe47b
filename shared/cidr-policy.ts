/**
 * The parts of the zone policy that need no Public Suffix List: the cluster CIDR rule
 * (cidrRefusal) and the top-level label rule (hasValidTldLabel). Apart from corefile-policy.ts,
 * which loads tldts (its list is ~130 KB built into tables at load, ~20 ms of CPU), so start and
 * the proxy config renderer load it only where discovery judges served zones.
 * Pure logic, no Node imports.
 */
import { parseCidr, type Cidr } from './cidr';

/** Why a zone is not forwarded; `allowable` false means no user allow can override it. */
export interface ZoneRefusal {
  why: string;
  allowable: boolean;
}

/**
 * A top-level label as RFC 3696 §2 and AdGuard dnsproxy want it (golibs netutil.ValidateTLDLabel:
 * a hostname label — letters, digits, inner hyphens — that is not all digits). dnsproxy v0.83.1
 * exits 1 on a `[/foo.my_tld/]` route ("bad top-level domain name label rune '_'", checked with
 * the real binary); inner labels may hold `_` (`_tcp.lan` starts fine).
 */
const TLD_LABEL_RE = /^(?=.*[a-z-])[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** True when the last label of `zone` is a valid top-level label (TLD_LABEL_RE). */
export function hasValidTldLabel(zone: string): boolean {
  return TLD_LABEL_RE.test(zone.slice(zone.lastIndexOf('.') + 1));
}

/**
 * Address space a cluster CIDR (kubeadm-config serviceSubnet/podSubnet, node podCIDRs, the /16
 * around the kube-dns ClusterIP) may claim for its reverse zones without the user's allow:
 * RFC 1918 private use, RFC 6598 shared address space (100.64/10, used by k3s-style and CGNAT
 * clusters) and RFC 4193 locally assigned unique local addresses (fd00::/8, the L=1 half of
 * fc00::/7). Left out on purpose although RFC 6303 lists them as locally served: loopback
 * (127/8, ::1 — a cluster would answer for `localhost` PTRs), link-local (169.254/16, fe80::/10 —
 * the LAN's), the unspecified/broadcast addresses and the documentation ranges.
 */
export const CLUSTER_CIDR_SPACE: readonly string[] = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fd00::/8'];

/**
 * Shortest prefix a cluster CIDR may have, per family: an IPv4 /8 (the largest RFC 1918 block),
 * an IPv6 /48 (one RFC 4193 §3.1 site prefix; Kubernetes pod CIDRs are /48–/64, service CIDRs
 * at most /108). A shorter prefix is a mistake or an attempt to claim other networks' PTRs.
 */
export const MIN_CLUSTER_PREFIX: Readonly<Record<4 | 6, number>> = { 4: 8, 6: 48 };

/** True when every address of `inner` lies in `outer` (same family, prefix at least as long). */
function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  if (inner.family !== outer.family || inner.prefix < outer.prefix) return false;
  for (let bit = 0; bit < outer.prefix; bit++) {
    const mask = 0x80 >> (bit & 7);
    if (((inner.bytes[bit >> 3] ?? 0) & mask) !== ((outer.bytes[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

const SPACE = CLUSTER_CIDR_SPACE.map((c) => parseCidr(c));

/**
 * Why the reverse zones of cluster CIDR `cidr` must not be forwarded, or null when they may
 * (cluster data must not claim the host's PTR lookups). Refused, allowable per zone
 * with `--allow-zone`: a prefix shorter than MIN_CLUSTER_PREFIX, or a CIDR outside
 * CLUSTER_CIDR_SPACE. Not allowable: text that is not a CIDR.
 */
export function cidrRefusal(cidr: string): ZoneRefusal | null {
  let c: Cidr;
  try {
    c = parseCidr(cidr);
  } catch {
    return { why: `cluster CIDR "${cidr.slice(0, 64)}" is not a CIDR`, allowable: false };
  }
  const min = MIN_CLUSTER_PREFIX[c.family];
  if (c.prefix < min) {
    return {
      why: `cluster CIDR ${cidr} is a /${c.prefix}, larger than any cluster network (at most /${MIN_CLUSTER_PREFIX[4]} for IPv4, /${MIN_CLUSTER_PREFIX[6]} for IPv6): PTR lookups of other networks would go to the cluster`,
      allowable: true,
    };
  }
  if (!SPACE.some((s) => cidrWithin(c, s))) {
    return {
      why: `cluster CIDR ${cidr} is not private address space (RFC 1918, RFC 6598 100.64/10, ULA fd00::/8): PTR lookups of those addresses would go to the cluster`,
      allowable: true,
    };
  }
  return null;
}
