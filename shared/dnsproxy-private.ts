/**
 * Which reverse zones AdGuard dnsproxy v0.83.1 treats as private, so the config writer puts
 * each cluster reverse zone where dnsproxy will use it (docs/engines.md "Private PTR"). Mirrors, never copies:
 * - `proxy.ValidatePrivateConfig` (proxy/upstreams.go): every `[/zone/]` entry of
 *   `private-rdns-upstream` must be an ARPA domain (`netutil.ExtractReversedAddr`) whose network
 *   address is in the private set, else startup fails with `reversed subnet in "…" is not
 *   private` (exit 1).
 * - The private set defaults to `netutil.IsLocallyServed` (golibs v0.35 netutil/subnetset.go,
 *   RFC 6303); RFC 6598 100.64/10 is NOT in it.
 * - `isForbiddenARPA` (proxy/server.go): PTR/SOA/NS for addresses outside that set use the plain
 *   `upstream` list and its `[/zone/]` routes, so non-private cluster reverse zones belong there.
 * Pure logic, no Node imports.
 */
import { formatIpv6, ipInCidr } from './cidr';

/** golibs netutil.IsLocallyServed (v0.35.x) as CIDRs: RFC 6303 §4 plus `::/127` (`::` and `::1`). */
export const DNSPROXY_LOCALLY_SERVED: readonly string[] = [
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '255.255.255.255/32',
  '::/127',
  '2001:db8::/32',
  'fd00::/8',
  'fe80::/10',
];

/**
 * Network address and prefix length of a reverse zone (`21.172.in-addr.arpa` → 172.21.0.0/16,
 * `d.f.ip6.arpa` → fd00::/8), or null when the labels are not octets (0–255, no leading zero,
 * RFC 1035 §3.5) or nibbles (RFC 3596 §2.5), as netutil.ExtractReversedAddr rejects them.
 */
export function reverseZonePrefix(zone: string): { address: string; prefix: number } | null {
  const z = zone.toLowerCase().replace(/\.$/, '');
  if (z.endsWith('.in-addr.arpa')) {
    const labels = z.slice(0, -'.in-addr.arpa'.length).split('.');
    if (labels.length > 4 || !labels.every((l) => /^(0|[1-9]\d{0,2})$/.test(l) && Number(l) <= 255)) return null;
    const octets = labels.reverse().map(Number);
    while (octets.length < 4) octets.push(0);
    return { address: octets.join('.'), prefix: labels.length * 8 };
  }
  if (z.endsWith('.ip6.arpa')) {
    const labels = z.slice(0, -'.ip6.arpa'.length).split('.');
    if (labels.length > 32 || !labels.every((l) => /^[0-9a-f]$/.test(l))) return null;
    const nibbles = labels.reverse().map((n) => parseInt(n, 16));
    while (nibbles.length < 32) nibbles.push(0);
    const bytes: number[] = [];
    for (let i = 0; i < 32; i += 2) bytes.push(((nibbles[i] ?? 0) << 4) | (nibbles[i + 1] ?? 0));
    return { address: formatIpv6(bytes), prefix: labels.length * 4 };
  }
  return null;
}

/**
 * True when dnsproxy v0.83.1 routes PTRs of `zone` through `private-rdns-upstream` and accepts
 * `[/zone/]` there: the zone parses as a reverse subnet whose network address is locally served.
 */
export function isDnsproxyPrivateReverseZone(zone: string): boolean {
  const p = reverseZonePrefix(zone);
  return p !== null && DNSPROXY_LOCALLY_SERVED.some((c) => ipInCidr(p.address, c));
}
