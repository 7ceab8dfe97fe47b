/**
 * Default upstreams for the proxy: the saved nameservers minus anything that would loop back
 * into the proxy (DESIGN.md "Host resolver traps").
 */
import type { Listener, ResolvConf } from '../../shared/types';
import type { Exec } from './exec';
import { parseServer } from '../probes/parse-server';
import { formatIpv6, parseIp } from '../../shared/cidr';

/** systemd-resolved's stub listeners (systemd-resolved.service(8)): 127.0.0.53 and 127.0.0.54. */
const RESOLVED_STUBS = new Set(['127.0.0.53', '127.0.0.54']);

/** Lower-case, brackets and `%zone` stripped: the address part used to compare with listeners. */
function bareAddress(server: string): string {
  return server.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
}

function isLoopback(addr: string): boolean {
  return addr.startsWith('127.') || addr === '::1';
}

/**
 * Where a packet to `addr` really goes on this host: `::ffff:a.b.c.d` is IPv4 a.b.c.d
 * (RFC 4291 §2.5.5.2), and the unspecified addresses 0.0.0.0 and :: reach the local host
 * (Linux connects them to loopback).
 */
function effectiveAddress(addr: string): string {
  // Compared as bytes, not text: ::ffff:7f00:1, 0:0:0:0:0:ffff:127.0.0.1 and ::ffff:127.0.0.1
  // are one address.
  const ip = parseIp(addr);
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

/** The endpoint of a nameserver or `--upstream` value (`IP`, `IP:PORT`, `[v6]:PORT`); null if unparsable. */
function endpointOf(server: string): { address: string; port: number } | null {
  try {
    const e = parseServer(server);
    return { address: effectiveAddress(bareAddress(e.address)), port: e.port };
  } catch {
    return null;
  }
}

/** The listener a query to `server` would reach (a loop), or null. */
export function reachesListener(server: string, listeners: Listener[]): Listener | null {
  const e = endpointOf(server);
  if (!e) return null;
  for (const l of listeners) {
    if (l.port !== e.port) continue;
    const la = effectiveAddress(bareAddress(l.address));
    if (la === e.address) return l;
    // A wildcard listener also answers on every loopback address.
    if ((l.address === '0.0.0.0' && e.address.includes('.') && isLoopback(e.address)) || (l.address === '::' && isLoopback(e.address))) return l;
  }
  return null;
}

/** Why an upstream was dropped: it loops into the proxy, is resolved's stub, or names a missing interface. */
export type DropKind = 'loop' | 'resolved-stub' | 'no-interface';

/**
 * Picks the proxy's default upstreams from the saved resolv.conf: drops our own listen addresses
 * (loop — also through 0.0.0.0, ::, ::ffff:127.0.0.1), the systemd-resolved stub (replaced by
 * `resolvedLinkServers` when given, since resolved would forward back to us), and link-local
 * `%zone` servers whose interface does not exist here (`interfaces`; dnsmasq refuses to start on
 * them). IPv6 `%zone` is kept otherwise; duplicates removed, order kept.
 */
export function pickUpstreams(input: {
  resolvConf: ResolvConf;
  listeners: Listener[];
  resolvedLinkServers?: string[];
  /** Interface names on this host; when given, `%zone` must name one of them. */
  interfaces?: string[];
}): { upstreams: string[]; dropped: { server: string; reason: string; kind: DropKind }[] } {
  const upstreams: string[] = [];
  const dropped: { server: string; reason: string; kind: DropKind }[] = [];
  const seen = new Set<string>();
  const add = (server: string, via: string | null) => {
    const hit = reachesListener(server, input.listeners);
    if (hit) {
      dropped.push({ server, kind: 'loop', reason: `it reaches the proxy's own listener ${hit.address}:${hit.port}${via ? ` (${via})` : ''}; forwarding there would loop` });
      return;
    }
    if (RESOLVED_STUBS.has(bareAddress(server))) {
      dropped.push({ server, kind: 'resolved-stub', reason: `systemd-resolved stub listener${via ? ` (${via})` : ''}; resolved would forward back to the proxy` });
      return;
    }
    const zone = /%([^\]]+)/.exec(server)?.[1];
    // dnsmasq takes interface names only (a numeric scope id is "bad interface name").
    if (zone && input.interfaces && !input.interfaces.includes(zone)) {
      dropped.push({ server, kind: 'no-interface', reason: /^\d+$/.test(zone) ? `its scope id %${zone} is a number; write the interface name (e.g. %eth0)` : `its interface ${zone} does not exist on this host` });
      return;
    }
    if (seen.has(server)) return;
    seen.add(server);
    upstreams.push(server);
  };
  for (const server of input.resolvConf.nameservers) {
    if (RESOLVED_STUBS.has(bareAddress(server))) {
      if (input.resolvedLinkServers && input.resolvedLinkServers.length > 0) {
        dropped.push({ server, kind: 'resolved-stub', reason: 'systemd-resolved stub listener; replaced by its link servers from resolvectl' });
        for (const s of input.resolvedLinkServers) add(s, 'from resolvectl');
      } else {
        dropped.push({ server, kind: 'resolved-stub', reason: 'systemd-resolved stub listener and resolvectl reported no link servers; it would loop through the drop-in' });
      }
      continue;
    }
    add(server, null);
  }
  return { upstreams, dropped };
}

/** One `resolvectl dns` line: `Global:` (index null) or `Link N (name):`. */
export interface ResolvedDnsLine {
  link: { index: number; name: string } | null;
  servers: string[];
}

/**
 * Parses `resolvectl dns` output (resolvectl(1)): `Global: 1.1.1.1#cloudflare-dns.com`,
 * `Link 2 (eth0): 192.168.1.1 fe80::1%2`, `Link 3 (docker0):`. A `#server-name` (DoT SNI) is
 * dropped; `%zone` and `:port` are kept as printed.
 */
export function parseResolvectlDns(text: string): ResolvedDnsLine[] {
  const out: ResolvedDnsLine[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const m = /^(?:Global|Link (\d+) \(([^)]*)\)):(.*)$/.exec(line);
    if (!m) continue;
    const servers = (m[3] ?? '')
      .trim()
      .split(/\s+/)
      .filter((s) => s !== '')
      .map((s) => s.replace(/#.*$/, ''));
    out.push({ link: m[1] === undefined ? null : { index: Number(m[1]), name: m[2] ?? '' }, servers });
  }
  return out;
}

/**
 * Nameservers systemd-resolved itself uses: per-link servers first (link order), then global,
 * without duplicates or stubs. [] when resolvectl is missing or fails (no resolved on this host).
 */
export async function readResolvedLinkServers(exec: Exec): Promise<string[]> {
  let result;
  try {
    result = await exec.run('resolvectl', ['dns'], { timeoutMs: 5000 });
  } catch {
    return []; // resolvectl not installed: no systemd-resolved
  }
  if (result.code !== 0) return [];
  const lines = parseResolvectlDns(result.stdout);
  const ordered = [...lines.filter((l) => l.link !== null), ...lines.filter((l) => l.link === null)];
  const servers: string[] = [];
  for (const l of ordered) {
    for (const s of l.servers) {
      if (!RESOLVED_STUBS.has(bareAddress(s)) && !servers.includes(s)) servers.push(s);
    }
  }
  return servers;
}
