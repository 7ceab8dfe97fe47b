/**
 * Reverse-lookup names for IP addresses (RFC 1035 §3.5 in-addr.arpa, RFC 3596 §2.5 ip6.arpa).
 * Pure logic, shared by the main process and the renderer's query tester; address parsing is
 * shared/cidr.ts's.
 */
import { isIpAddress, parseIp } from './cidr';

/** True when `text` is an IPv4 or IPv6 literal (IPv6 may carry a `%zone`). */
export const isIpLiteral = isIpAddress;

/**
 * The PTR query name for an IP, lower-case without trailing dot:
 * `172.21.0.10` → `10.0.21.172.in-addr.arpa` (RFC 1035 §3.5),
 * `fd00::1` → `1.0.0.0…0.0.d.f.ip6.arpa` (RFC 3596 §2.5, 32 nibbles).
 * Throws when `ip` is not an IP literal.
 */
export function ptrName(ip: string): string {
  const addr = parseIp(ip);
  if (addr?.family === 4) return `${[...addr.bytes].reverse().join('.')}.in-addr.arpa`;
  if (addr?.family === 6) {
    const nibbles = addr.bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${nibbles.split('').reverse().join('.')}.ip6.arpa`;
  }
  throw new Error(`"${ip}" is not an IPv4 or IPv6 address; give an address like 172.21.0.10 or fd00::1 for a PTR lookup.`);
}
