/**
 * Strict validation of the strings that end up in a proxy config (zones, upstreams,
 * listeners), shared by the dnsproxy and dnsmasq renderers: only hostname characters and IP
 * literals get through, so no value can break out of its line or YAML scalar.
 */
import { formatIpv6, parseIp } from './cidr';
import { isZoneName } from './zone-name';
import { isUnspecifiedAddress, reachesListenerAddress } from './listener-reach';
import type { Listener, ProxyPlan, ZoneRoute } from './types';

/** A validated upstream: an IP literal and a port. */
export interface UpstreamAddress {
  family: 4 | 6;
  /** Canonical IP text without brackets; IPv6 keeps its `%zone`. */
  ip: string;
  port: number;
}

const UPSTREAM_CHARS = /^[0-9A-Za-z.:%[\]_-]+$/;

/** Canonical text of a parsed IP (IPv6 per RFC 5952, `%zone` kept). */
function canonicalIp(text: string): { ip: string; family: 4 | 6 } | null {
  const a = parseIp(text);
  if (!a) return null;
  if (a.family === 4) return { ip: a.bytes.join('.'), family: 4 };
  return { ip: formatIpv6(a.bytes) + (a.zoneId ? `%${a.zoneId}` : ''), family: 6 };
}

/**
 * Why `text` is refused for its port alone: an IP address with a port outside 1–65535
 * (`127.0.0.1:0`, `[fd00::53]:99999`; port 0 is no destination, udp(7)), as
 * `"127.0.0.1:0" has port 0, outside 1–65535: …`. Null for any other text, valid or not.
 */
export function upstreamPortProblem(text: string): string | null {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([0-9.]+):(\d+)$/.exec(text);
  if (!m) return null;
  const ip = canonicalIp(m[1]!);
  const port = Number(m[2]);
  if (!ip || (text.startsWith('[') && ip.family !== 6) || (port >= 1 && port <= 65535)) return null;
  return `"${text}" has port ${m[2]}, outside 1–65535: give a port from 1 to 65535, or leave it out for 53, e.g. 10.0.0.2:5353 or [fd00::53]:5353.`;
}

/**
 * Parses `IP`, `IPv4:PORT`, `IPv6`, `IPv6%zone`, `[IPv6]:PORT` (port defaults to 53; 1–65535).
 * Throws when the text is anything else: hostnames, URLs, spaces, quotes, `#`, `/`; a port out
 * of range in upstreamPortProblem's words.
 */
export function parseUpstream(text: string): UpstreamAddress {
  const fail = (): never => {
    const port = upstreamPortProblem(text);
    throw new Error(port ? `Upstream ${port}` : `Upstream "${text}" is not an IP address or IP:port; use e.g. 192.168.1.1, 10.0.0.2:5353 or [fd00::53]:53.`);
  };
  if (!UPSTREAM_CHARS.test(text)) fail();
  let host = text;
  let port = 53;
  const bracket = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const v4port = /^([0-9.]+):(\d{1,5})$/.exec(text);
  if (bracket) {
    host = bracket[1]!;
    if (bracket[2] !== undefined) port = Number(bracket[2]);
  } else if (v4port) {
    host = v4port[1]!;
    port = Number(v4port[2]);
  }
  const ip = canonicalIp(host);
  if (!ip || (bracket && ip.family !== 6) || port < 1 || port > 65535) return fail();
  return { family: ip.family, ip: ip.ip, port };
}

/**
 * Lower-cases A–Z only (DNS names compare case-insensitively in ASCII only, RFC 4343 §3).
 * String.toLowerCase would turn the Kelvin sign U+212A into `k`, so `\u212Aube.local` became the
 * different, valid zone `kube.local` (found by a property test).
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Lower-cases (ASCII) and checks a zone: hostname labels only (letters, digits, `-`, `_`), no trailing dot. Throws otherwise. */
export function checkZoneName(zone: string): string {
  const z = asciiLower(zone);
  if (!isZoneName(z)) {
    throw new Error(`Zone "${zone}" is not a plain domain name; remove it from the zone list or fix the Corefile.`);
  }
  return z;
}

/** Checks the listeners: at least one, valid IPs, and a single port shared by all (both engines bind one port list). */
export function checkListeners(listeners: Listener[]): { addresses: string[]; port: number } {
  if (listeners.length === 0) {
    throw new Error('The proxy plan has no listener; add 127.0.0.1:53.');
  }
  const port = listeners[0]!.port;
  const addresses = listeners.map((l) => {
    const ip = canonicalIp(l.address);
    if (!ip) throw new Error(`Listener address "${l.address}" is not an IP address; use e.g. 127.0.0.1.`);
    if (!Number.isInteger(l.port) || l.port < 1 || l.port > 65535) {
      throw new Error(`Listener port ${l.port} for ${l.address} is not a port number; use 53.`);
    }
    if (l.port !== port) {
      throw new Error(
        `Listeners use different ports (${port} and ${l.port}); the proxy binds every address on the same port, so give all listeners one port.`,
      );
    }
    return ip.ip;
  });
  return { addresses: [...new Set(addresses)], port };
}

/** The plan's validated parts, ready for a renderer. Throws on any invalid or looping value. */
export interface CheckedPlan {
  addresses: string[];
  port: number;
  zones: { zone: string; upstream: UpstreamAddress; route: ZoneRoute }[];
  upstreams: UpstreamAddress[];
}

/**
 * True when a query to `ip` (on the listeners' port) reaches one of the proxy's own listeners
 * (shared/listener-reach.ts: by address, IPv4-mapped and unspecified spellings included).
 */
export function reachesListener(ip: string, listenerAddresses: string[]): boolean {
  return listenerAddresses.some((l) => reachesListenerAddress(ip, l));
}

/**
 * Validates a ProxyPlan for rendering: listeners (one shared port), zone names, upstreams,
 * at least one default upstream, and no upstream that reaches a listener on its port (the proxy
 * would ask itself; compared by address, reachesListener).
 */
export function checkPlan(plan: ProxyPlan): CheckedPlan {
  const { addresses, port } = checkListeners(plan.listeners);
  if (plan.upstreams.length === 0) {
    throw new Error(
      'The proxy has no default upstream; the original resolv.conf named no usable nameserver, so add one (e.g. your router) and start again.',
    );
  }
  const notSelf = (u: UpstreamAddress, label: string): UpstreamAddress => {
    const shown = u.family === 6 ? `[${u.ip}]:${u.port}` : `${u.ip}:${u.port}`;
    if (isUnspecifiedAddress(u.ip)) throw new Error(`${label} ${shown} is the unspecified address (this host itself), not a nameserver; remove it from the upstreams.`);
    if (u.port === port && reachesListener(u.ip, addresses)) {
      throw new Error(`${label} ${shown} is one of the proxy's own listeners, which would loop; remove it from the upstreams.`);
    }
    return u;
  };
  const upstreams = plan.upstreams.map((u) => notSelf(parseUpstream(u), 'Upstream'));
  const zones = plan.zones.map((route) => ({
    zone: checkZoneName(route.zone),
    upstream: notSelf(parseUpstream(route.upstream), `Upstream of zone ${route.zone}`),
    route,
  }));
  return { addresses, port, zones, upstreams };
}

/**
 * Removes control characters and line breaks so a free-text reason can sit in a config comment:
 * C0, DEL, C1 (U+0080–U+009F, including NEL U+0085) and U+2028/U+2029, which YAML 1.1 parsers
 * (go-yaml's is_break, used by dnsproxy) end a line on: a reason holding one could start a new
 * YAML line after the comment (found by a property test).
 */
export function commentSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
}
