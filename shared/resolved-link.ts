/**
 * systemd-resolved integration, pure part: the routing-only link K2s gives resolved for the
 * cluster zones, which nameserver the K2s-owned /etc/resolv.conf names on a resolved host, and
 * the parsers of what resolvectl, nsswitch.conf and resolv.conf files say (no I/O here).
 *
 * Facts this rests on (systemd 257, src/resolve/; resolved.conf(5), resolvectl(1)):
 * - A link whose DNS scope is not a default route (`resolvectl default-route LINK no`, or only
 *   `~domain` routing domains) gets only names under its routing domains, and its servers are
 *   NOT written into /run/systemd/resolve/resolv.conf (resolved-resolv-conf.c,
 *   write_resolv_conf_server: "must not appear as a global name server").
 * - A foreign /etc/resolv.conf (not one of resolved's own files) is read by resolved and its
 *   nameservers become global servers — written into /run/systemd/resolve/resolv.conf, the file
 *   kubeadm gives kubelet — unless resolved.conf sets `DNS=`; 127.0.0.53/127.0.0.54 and 0.0.0.0
 *   are filtered out (resolved-conf.c, manager_add_dns_server_by_string).
 * - A global `DNS=` drop-in appends to resolved.conf's servers, and the global scope is always a
 *   default route: so a global `DNS=127.0.0.1` both leaks cluster names and puts loopback into
 *   kubelet's resolvConf. Hence a per-link route, never a global one.
 */
import { bareAddress, effectiveAddress, isLoopbackAddress } from './listener-reach';
import { isRoutableZoneName } from './zone-name';

/** systemd-resolved's stub listeners (systemd-resolved.service(8)). */
export const RESOLVED_STUB_ADDRESSES = ['127.0.0.53', '127.0.0.54'] as const;

/** The routing-only link K2s set up: interface, the proxy address on it, and `~zone` domains. */
export interface ResolvedRoute {
  /** Interface name (K2s's `k2s-proxy0`, the one holding the KubeSwitch address). */
  link: string;
  /** The proxy's listener on that link (the KubeSwitch address), resolved's only server there. */
  address: string;
  /** Routing-only domains, each `~zone` (lower case, no trailing dot). */
  domains: string[];
}

/**
 * systemd-resolved takes at most this many domains per link (systemd 257 src/resolve/resolved-link.h
 * `LINK_SEARCH_DOMAINS_MAX 256`; resolved-dns-search-domain.c dns_search_domain_new returns
 * -E2BIG past it), routing-only `~zone` domains included.
 */
export const RESOLVED_LINK_DOMAINS_MAX = 256;

/** Why `zones` cannot all be routing domains of one resolved link (more than RESOLVED_LINK_DOMAINS_MAX), or null. */
export function routingDomainsRefusal(zones: readonly string[], link: string): string | null {
  const n = new Set(zones.map((z) => z.toLowerCase().replace(/\.$/, ''))).size;
  if (n <= RESOLVED_LINK_DOMAINS_MAX) return null;
  return `The cluster has ${n} zones to route, but systemd-resolved takes at most ${RESOLVED_LINK_DOMAINS_MAX} domains per link (LINK_SEARCH_DOMAINS_MAX, systemd src/resolve/resolved-link.h), so ${link} cannot carry them all; merge zones under a common parent in the Corefile (one server block for the parent zone) or leave some out, then start again.`;
}

/** `~zone` for each cluster zone, in order, without duplicates. Throws for a zone that is not a plain name. */
export function routingDomains(zones: readonly string[]): string[] {
  const out: string[] = [];
  for (const z of zones) {
    const zone = z.toLowerCase().replace(/\.$/, '');
    // The zone policy's label rule (zone-name.ts ZONE_LABEL_RE): discovery refuses such a zone first.
    if (!isRoutableZoneName(zone)) {
      throw new Error(`Zone "${z}" is not a plain domain name, so systemd-resolved cannot route it; fix the Corefile or leave the zone out.`);
    }
    if (!out.includes(`~${zone}`)) out.push(`~${zone}`);
  }
  return out;
}

/**
 * The resolvectl(1) calls that make `route` a routing-only link, in order: its one server, its
 * `~zone` domains, and no default route (so no other name goes there, and its server stays out
 * of /run/systemd/resolve/resolv.conf). Each entry is an argv for `resolvectl`.
 */
export function applyRouteArgs(route: ResolvedRoute): string[][] {
  return [
    ['dns', route.link, route.address],
    ['domain', route.link, ...route.domains],
    ['default-route', route.link, 'no'],
  ];
}

/** The resolvectl argv that drops every runtime DNS setting of `link` (resolvectl(1) `revert`). */
export function revertRouteArgs(link: string): string[] {
  return ['revert', link];
}

/**
 * The nameserver of the K2s-owned /etc/resolv.conf on a systemd-resolved host:
 * - the stub `127.0.0.53` when the original file named only resolved's stub and the stub
 *   answers — every reader (glibc `dns`, Go, dig) then still asks resolved, which keeps its own
 *   per-link routing (VPN split DNS) and sends the cluster zones down the K2s link; resolved
 *   ignores 127.0.0.53 when it reads a foreign resolv.conf, so its global servers stay as they are;
 * - otherwise the proxy's KubeSwitch address (`kubeSwitch`): never 127.0.0.1, because resolved
 *   reads a foreign /etc/resolv.conf and would copy 127.0.0.1 into
 *   /run/systemd/resolve/resolv.conf, where pods (CoreDNS) would ask themselves.
 */
export function managedNameserverOnResolvedHost(input: { originalNameservers: readonly string[]; stubAnswers: boolean; kubeSwitch: string }): string {
  const onlyStub = input.originalNameservers.length > 0 && input.originalNameservers.every((ns) => (RESOLVED_STUB_ADDRESSES as readonly string[]).includes(bareAddress(ns)));
  return onlyStub && input.stubAnswers ? RESOLVED_STUB_ADDRESSES[0] : input.kubeSwitch;
}

/**
 * The `hosts:` sources of nsswitch.conf(5) in order (`files`, `resolve`, `dns`, …), with the
 * `[STATUS=action]` items dropped; ['files', 'dns'] (glibc's default) when there is no hosts line.
 */
export function nsswitchHostsSources(text: string): string[] {
  let line: string | null = null;
  for (const raw of text.split('\n')) {
    const m = /^\s*hosts\s*:(.*)$/.exec(raw.replace(/#.*$/, ''));
    if (m) line = m[1] ?? '';
  }
  if (line === null) return ['files', 'dns'];
  return line
    .replace(/\[[^\]]*\]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
}

/**
 * Addresses of `resolvectl query` output (resolvectl(1)), with the link each came from:
 * `name: 172.21.0.1                  -- link: k2s-proxy0` and indented continuation lines.
 * Lines starting with `--` (the legend) are skipped.
 */
export function parseResolvectlQuery(text: string): { address: string; link: string | null }[] {
  const out: { address: string; link: string | null }[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('--')) continue;
    const m = /^(?:\S+:\s+)?([0-9a-fA-F:.]+)(?:%\S+)?\s*(?:--\s*link:\s*(\S+))?\s*$/.exec(line);
    if (!m || !(/^\d+\.\d+\.\d+\.\d+$/.test(m[1] as string) || (m[1] as string).includes(':'))) continue;
    out.push({ address: m[1] as string, link: m[2] ?? null });
  }
  return out;
}

/** Nameservers of a resolv.conf text that are loopback (127.0.0.0/8, ::1, ::ffff:127.x), in order. */
export function loopbackNameservers(resolvConfText: string): string[] {
  const out: string[] = [];
  for (const raw of resolvConfText.split('\n')) {
    const m = /^\s*nameserver\s+(\S+)/.exec(raw);
    if (!m) continue;
    const ns = m[1] as string;
    let eff: string;
    try {
      eff = effectiveAddress(bareAddress(ns));
    } catch {
      continue;
    }
    if (isLoopbackAddress(eff)) out.push(ns);
  }
  return out;
}
