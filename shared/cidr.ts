/**
 * IPv4/IPv6 address and CIDR helpers, and the reverse zones (RFC 1035 §3.5 in-addr.arpa,
 * RFC 3596 §2.5 ip6.arpa) that cover a CIDR. Pure logic, no Node imports.
 */

/** A parsed IP address: 4 bytes (IPv4) or 16 bytes (IPv6), network byte order. */
export interface IpAddress {
  family: 4 | 6;
  bytes: number[];
  /** IPv6 scope id after `%` (RFC 4007 §11), e.g. `eth0`; null when none. */
  zoneId: string | null;
}

/** A parsed CIDR with host bits cleared. */
export interface Cidr {
  family: 4 | 6;
  bytes: number[];
  prefix: number;
}

/** Upper bound of zones one CIDR may expand to; beyond that the CIDR is a mistake. */
export const MAX_REVERSE_ZONES = 256;

const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
// Interface names and numeric scope ids only: nothing a config file could misread.
const ZONE_ID_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Parses dotted-quad IPv4 (no leading zeros, which inet_aton would read as octal); null if invalid. */
export function parseIpv4(text: string): number[] | null {
  if (!IPV4_RE.test(text)) return null;
  return text.split('.').map(Number);
}

/** Parses an IPv6 address (RFC 4291 §2.2 text forms, `::`, embedded IPv4, optional `%zone`); null if invalid. */
export function parseIpv6(text: string): { bytes: number[]; zoneId: string | null } | null {
  let addr = text;
  let zoneId: string | null = null;
  const pct = text.indexOf('%');
  if (pct >= 0) {
    zoneId = text.slice(pct + 1);
    addr = text.slice(0, pct);
    if (!ZONE_ID_RE.test(zoneId)) return null;
  }
  if (!/^[0-9a-fA-F:.]+$/.test(addr) || !addr.includes(':')) return null;
  const halves = addr.split('::');
  if (halves.length > 2) return null;
  const toGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i] ?? '';
      if (i === pieces.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (!v4) return null;
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return null;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = toGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    // `::` stands for at least one zero group (RFC 5952 §4.2.2 allows reading it so).
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return null;
  return { bytes: groups.flatMap((g) => [g >> 8, g & 0xff]), zoneId };
}

/** Parses an IPv4 or IPv6 address (IPv6 may carry `%zone`); null if invalid. */
export function parseIp(text: string): IpAddress | null {
  const v4 = parseIpv4(text);
  if (v4) return { family: 4, bytes: v4, zoneId: null };
  const v6 = parseIpv6(text);
  return v6 ? { family: 6, bytes: v6.bytes, zoneId: v6.zoneId } : null;
}

/** True when `text` is a literal IPv4 or IPv6 address (IPv6 `%zone` allowed). */
export function isIpAddress(text: string): boolean {
  return parseIp(text) !== null;
}

/** Parses `addr/prefix` and clears host bits; throws when the text is not a CIDR. */
export function parseCidr(text: string): Cidr {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  const ip = m ? parseIp(m[1] ?? '') : null;
  const prefix = m ? Number(m[2]) : NaN;
  if (!m || !ip || ip.zoneId !== null || prefix > (ip.family === 4 ? 32 : 128)) {
    throw new Error(
      `"${text}" is not a CIDR: write it as address/prefix, e.g. 172.21.0.0/16 or fd00:10:96::/108.`,
    );
  }
  // Kubernetes accepts only masked CIDRs, but a hand-typed one may not be: mask it like ip(8) does.
  const bytes = ip.bytes.map((b, i) => {
    const bitsInByte = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - bitsInByte)) & 0xff);
  });
  return { family: ip.family, bytes, prefix };
}

/** True when `ip` lies inside `cidr`; false across address families. Throws on an invalid CIDR. */
export function ipInCidr(ip: string, cidr: string): boolean {
  const c = parseCidr(cidr);
  const a = parseIp(ip);
  if (!a || a.family !== c.family) return false;
  for (let bit = 0; bit < c.prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((a.bytes[byte] ?? 0) & mask) !== ((c.bytes[byte] ?? 0) & mask)) return false;
  }
  return true;
}

// RFC 1918, loopback (RFC 1122), link-local (RFC 3927), CGNAT shared space (RFC 6598),
// unique local (RFC 4193), IPv6 link-local (RFC 4291) and ::1.
const PRIVATE_CIDRS = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '100.64.0.0/10',
  'fc00::/7',
  'fe80::/10',
  '::1/128',
];

/** True for RFC 1918, 127/8, 169.254/16, 100.64/10, fc00::/7, fe80::/10, ::1 (and IPv4-mapped forms). */
export function isPrivateAddress(ip: string): boolean {
  const a = parseIp(ip);
  if (!a) return false;
  let text = ip.split('%')[0] ?? ip;
  // ::ffff:10.1.2.3 is the IPv4 address as seen by a dual-stack socket (RFC 4291 §2.5.5.2).
  const mapped = a.family === 6 && a.bytes.slice(0, 10).every((b) => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff;
  if (mapped) text = a.bytes.slice(12).join('.');
  return PRIVATE_CIDRS.some((c) => ipInCidr(text, c));
}

/** Renders an IPv6 address in RFC 5952 canonical form (lower case, longest zero run as `::`). */
export function formatIpv6(bytes: number[]): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  let bestStart = -1;
  let bestLen = 1; // a single zero group is not shortened (RFC 5952 §4.2.2)
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/**
 * Reverse zones covering a CIDR, cut on label boundaries: octets for IPv4 (RFC 1035 §3.5),
 * nibbles for IPv6 (RFC 3596 §2.5). A /16 gives one zone (`21.172.in-addr.arpa`), a /12 gives
 * 16 (`16.172…` to `31.172…`), a /20 gives 16 /24 zones; an IPv6 /112 gives one zone of 28
 * nibbles, a /110 four zones of 28 nibbles (a /108 is on a nibble boundary: one zone of 27).
 * Zones are lower case, without trailing dot, in address order.
 * Throws for an invalid CIDR, a /0 (that would be all of in-addr.arpa / ip6.arpa, and with it
 * every LAN PTR), or more than MAX_REVERSE_ZONES zones.
 */
export function reverseZonesForCidr(cidr: string): string[] {
  const c = parseCidr(cidr);
  if (c.prefix === 0) {
    throw new Error(
      `CIDR ${cidr} would send every reverse lookup to the cluster; give the cluster's real service or pod CIDR instead.`,
    );
  }
  const unit = c.family === 4 ? 8 : 4; // bits per label
  const labels = Math.ceil(c.prefix / unit);
  const count = 2 ** (labels * unit - c.prefix);
  if (count > MAX_REVERSE_ZONES) {
    throw new Error(
      `CIDR ${cidr} expands to ${count} reverse zones (limit ${MAX_REVERSE_ZONES}); check the prefix length.`,
    );
  }
  // Label values of the network address, most significant first.
  const values: number[] =
    c.family === 4 ? c.bytes.slice(0, labels) : c.bytes.flatMap((b) => [b >> 4, b & 0xf]).slice(0, labels);
  const suffix = c.family === 4 ? 'in-addr.arpa' : 'ip6.arpa';
  const zones: string[] = [];
  for (let k = 0; k < count; k++) {
    const v = [...values];
    v[labels - 1] = (v[labels - 1] ?? 0) + k; // only the last label varies: count ≤ 2^(unit-1)
    const parts = v.map((n) => (c.family === 4 ? String(n) : n.toString(16))).reverse();
    zones.push(`${parts.join('.')}.${suffix}`);
  }
  return zones;
}

/** True when `zone` is a reverse-mapping zone (under in-addr.arpa or ip6.arpa, or those themselves). */
export function isReverseZone(zone: string): boolean {
  const z = zone.toLowerCase().replace(/\.$/, '');
  return z === 'in-addr.arpa' || z === 'ip6.arpa' || z.endsWith('.in-addr.arpa') || z.endsWith('.ip6.arpa');
}
