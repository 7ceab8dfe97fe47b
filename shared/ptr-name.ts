/**
 * Reverse-lookup names for IP addresses (RFC 1035 §3.5 in-addr.arpa, RFC 3596 §2.5 ip6.arpa).
 * Pure logic, shared by the main process and the renderer's query tester.
 */

/** Parses dotted-quad IPv4 (`172.21.0.10`) into four octets; null when it is not one. */
export function parseIpv4(text: string): [number, number, number, number] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    // Decimal only, no leading zeros: `010` is octal to inet_aton, so we refuse to guess.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets as [number, number, number, number];
}

/**
 * Expands IPv6 text (`::1`, `fd00::a`, `::ffff:192.0.2.1`, `fe80::1%eth0`) into 8 groups of
 * 16 bits; the `%zone` is dropped. Null when it is not IPv6.
 */
export function parseIpv6(text: string): number[] | null {
  let s = text;
  const pct = s.indexOf('%');
  if (pct >= 0) s = s.slice(0, pct);
  if (s === '' || !/^[0-9a-fA-F:.]+$/.test(s)) return null;
  // An embedded IPv4 tail (RFC 4291 §2.2 form 3) becomes the last two groups.
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(s.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
    s = s.slice(0, lastColon + 1);
    // `::ffff:` → `::ffff`, but a bare `::` (as in `::1.2.3.4`) stays the gap marker.
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !rest) return null;
  const want = 8 - tail.length;
  if (halves.length === 2) {
    const fill = want - head.length - rest.length;
    if (fill < 1) return null;
    return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  }
  if (head.length !== want) return null;
  return [...head, ...tail];
}

/** True when `text` is an IPv4 or IPv6 literal (IPv6 may carry a `%zone`). */
export function isIpLiteral(text: string): boolean {
  return parseIpv4(text) !== null || parseIpv6(text) !== null;
}

/**
 * The PTR query name for an IP, lower-case without trailing dot:
 * `172.21.0.10` → `10.0.21.172.in-addr.arpa` (RFC 1035 §3.5),
 * `fd00::1` → `1.0.0.0…0.0.d.f.ip6.arpa` (RFC 3596 §2.5, 32 nibbles).
 * Throws when `ip` is not an IP literal.
 */
export function ptrName(ip: string): string {
  const v4 = parseIpv4(ip);
  if (v4) return `${v4[3]}.${v4[2]}.${v4[1]}.${v4[0]}.in-addr.arpa`;
  const v6 = parseIpv6(ip);
  if (v6) {
    const nibbles = v6.map((g) => g.toString(16).padStart(4, '0')).join('');
    return `${nibbles.split('').reverse().join('.')}.ip6.arpa`;
  }
  throw new Error(`"${ip}" is not an IPv4 or IPv6 address; give an address like 172.21.0.10 or fd00::1 for a PTR lookup.`);
}
