/**
 * Whether a DNS query to an address comes back to one of the proxy's own listeners — the one
 * rule behind every loop check (start's plan validation, the default upstreams, the kube-dns
 * ClusterIP check), compared as bytes, not text. Pure module.
 */
import { formatIpv6, parseIp } from './cidr';

/** Lower-case, brackets and `%zone` stripped: `[FE80::1%eth0]` → `fe80::1`. */
export function bareAddress(server: string): string {
  return server.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
}

/**
 * Where a packet to `addr` really goes on this host, as canonical text: `::ffff:a.b.c.d`,
 * `::ffff:7f00:1` and `0:0:0:0:0:ffff:127.0.0.1` are IPv4 (RFC 4291 §2.5.5.2), and the
 * unspecified address as a destination is the loopback of its family (Linux sends a packet to
 * 0.0.0.0 or :: to this host: ip_route_output_key_hash_rcu, `if (!fl4->daddr)` → loopback).
 * Text that is no IP address comes back unchanged.
 */
export function effectiveAddress(addr: string): string {
  const ip = parseIp(bareAddress(addr));
  if (!ip) return addr;
  let bytes = ip.bytes;
  let v4 = ip.family === 4;
  if (!v4 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    bytes = bytes.slice(12);
    v4 = true;
  }
  if (bytes.every((b) => b === 0)) return v4 ? '127.0.0.1' : '::1';
  return v4 ? bytes.join('.') : formatIpv6(bytes);
}

/** 127.0.0.0/8 or ::1, for an effectiveAddress result. */
export function isLoopbackAddress(effective: string): boolean {
  return effective.startsWith('127.') || effective === '::1';
}

/** 0.0.0.0 or :: in any spelling (::ffff:0.0.0.0, 0:0:0:0:0:0:0:0), brackets and zone allowed. */
export function isUnspecifiedAddress(address: string): boolean {
  const ip = parseIp(bareAddress(address));
  return ip !== null && ip.bytes.every((b, i) => b === 0 || (ip.family === 6 && (i === 10 || i === 11) && b === 0xff));
}

/**
 * True when a query to `dest` (same port) reaches a socket bound to `listener`: the same
 * effective address; or a wildcard listener and a loopback destination the wildcard receives —
 * 0.0.0.0 takes IPv4 loopback only, :: takes both (Linux `net.ipv6.bindv6only=0`, the default:
 * an IPv6 wildcard socket also receives IPv4, ipv6(7)). Other addresses of this host reaching a
 * wildcard listener are the caller's to check: they are not known here.
 */
export function reachesListenerAddress(dest: string, listener: string): boolean {
  const d = effectiveAddress(dest);
  if (effectiveAddress(listener) === d) return true;
  if (!isUnspecifiedAddress(listener) || !isLoopbackAddress(d)) return false;
  const v6Listener = bareAddress(listener).includes(':') && !/^::ffff:/i.test(bareAddress(listener));
  return v6Listener || d.includes('.');
}
