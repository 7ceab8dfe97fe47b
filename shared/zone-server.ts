/**
 * The kube-dns address a proxy config written by k2s-dns sends the cluster zones to, read back
 * from the file (0644 in /etc/k2s, so a user who cannot read root's saved state still can). Every
 * zone of a plan goes to the one kube-dns address start discovered (shared/corefile.ts toRoutes
 * routes them all to one upstream), so the first zone line names it. Only the renderers' own
 * lines are read (dnsmasq-config.ts, dnsproxy-config.ts); anything else reads as none.
 * Pure module: no Node imports.
 */
import { parseUpstream } from './proxy-upstream';

/** `IP` for port 53, else `IP:PORT` (`[v6]:PORT`): how a ZoneRoute names its upstream (types.ts); null when `host` is no IP. */
export function routeAddress(host: string, port: string | undefined): string | null {
  try {
    const u = parseUpstream(port === undefined ? host : host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);
    if (u.port === 53) return u.ip;
    return u.family === 6 ? `[${u.ip}]:${u.port}` : `${u.ip}:${u.port}`;
  } catch {
    return null;
  }
}

/**
 * The server of the first `server=/zone/…/IP[#PORT]` line of a dnsmasq config (dnsmasq(8)
 * --server: `#` separates the port), as routeAddress writes it; null when there is none.
 */
export function dnsmasqZoneServer(text: string): string | null {
  const m = /^server=\/[^/\s]+\/(?:[^/\s]+\/)*([^/#\s]+)(?:#(\d{1,5}))?$/m.exec(text);
  return m ? routeAddress(m[1]!, m[2]) : null;
}

/**
 * The upstream of the first `- "[/zone/…/]IP:PORT"` entry of a dnsproxy YAML config (dnsproxy
 * README "Specifying upstreams for domains"; IPv6 as `[v6]:PORT`), as routeAddress writes it;
 * null when there is none.
 */
export function dnsproxyZoneServer(text: string): string | null {
  const m = /^\s*-\s*"\[\/(?:[^/\s"\]]+\/)+\](?:\[([^\]\s"]+)\]|([^:\s"]+)):(\d{1,5})"\s*$/m.exec(text);
  return m ? routeAddress(m[1] ?? m[2]!, m[3]) : null;
}
