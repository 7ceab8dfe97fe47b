/**
 * Default upstreams for the proxy: the saved nameservers minus anything that would loop back
 * into the proxy (docs/host-facts.md "Host resolver traps").
 */
// Static: a builtin's import() fails in the bundled CLI script run from its code cache (cli/name-kubeconfig.ts).
import { SocketAddress } from 'node:net';
import type { Listener, ResolvConf } from '../../../shared/types';
import type { Exec } from './exec';
import { defaultPortOmitted, formatServer, parseServer } from './parse-server';
import { ipInCidr } from '../../../shared/cidr';
import { GLIBC_MAXNS } from '../../../shared/resolv-conf';
import { bareAddress, effectiveAddress, isLoopbackAddress, isUnspecifiedAddress, reachesListenerAddress } from '../../../shared/listener-reach';

/** systemd-resolved's stub listeners (systemd-resolved.service(8)): 127.0.0.53 and 127.0.0.54. */
const RESOLVED_STUBS = new Set(['127.0.0.53', '127.0.0.54']);

/** The endpoint of a nameserver or `--upstream` value (`IP`, `IP:PORT`, `[v6]:PORT`); null if unparsable. */
function endpointOf(server: string): { address: string; port: number } | null {
  try {
    const e = parseServer(server);
    return { address: effectiveAddress(bareAddress(e.address)), port: e.port };
  } catch {
    return null;
  }
}

/**
 * True when `server` is one of systemd-resolved's stub listeners (RESOLVED_STUBS, port 53) in any
 * spelling: `127.0.0.53`, `127.0.0.53:53`, IPv4-mapped `::ffff:127.0.0.53` (RFC 4291 §2.5.5.2,
 * which glibc sends to the stub alike). Unparsable text compares as its bare address.
 */
export function isResolvedStub(server: string): boolean {
  const e = endpointOf(server);
  return e === null ? RESOLVED_STUBS.has(bareAddress(server)) : e.port === 53 && RESOLVED_STUBS.has(e.address);
}

/** The listener a query to `server` would reach (a loop), or null. */
export function reachesListener(server: string, listeners: Listener[]): Listener | null {
  const e = endpointOf(server);
  if (!e) return null;
  return listeners.find((l) => l.port === e.port && reachesListenerAddress(e.address, l.address)) ?? null;
}

/**
 * Why a query to `server` would come back to this host's proxy, or null. By
 * address semantics, not text: the unspecified address (Linux connects 0.0.0.0/:: to the
 * local host), any spelling of a listener (IPv4-mapped `::ffff:7f00:1`, expanded
 * `0:0:0:0:0:ffff:127.0.0.1`), and any of `hostAddresses` when a wildcard listener (0.0.0.0,
 * ::) is on that port. Another resolver on a host address is NOT a loop: a local dnsmasq or
 * unbound with its own upstreams (router-like hosts, the e2e test bed's upstream) is legitimate.
 */
export function loopReason(server: string, listeners: Listener[], hostAddresses: string[] = []): string | null {
  const e = endpointOf(server);
  if (!e) return null;
  const hit = reachesListener(server, listeners);
  if (hit) return `it reaches the proxy's own listener ${hit.address}:${hit.port}`;
  let address = server;
  try {
    address = parseServer(server).address;
  } catch {
    // endpointOf parsed it already
  }
  if (isUnspecifiedAddress(address)) return 'it is the unspecified address, which means this host itself';
  const local = new Set(hostAddresses.map((a) => effectiveAddress(bareAddress(a))));
  const wildcard = listeners.find((l) => l.port === e.port && isUnspecifiedAddress(l.address) && l.address.includes(':') === e.address.includes(':'));
  if (wildcard && local.has(e.address)) {
    return `it is this host's own address ${e.address}, where the proxy's wildcard listener ${wildcard.address}:${wildcard.port} answers`;
  }
  return null;
}

/**
 * Why forwarding the cluster zones to the kube-dns ClusterIP would loop, or null:
 * unspecified or loopback in any spelling, one of the proxy's listeners, or an address of this
 * host. A host address inside a service CIDR is allowed: kube-proxy in IPVS mode puts every
 * ClusterIP on the kube-ipvs0 interface, and IPVS sends those packets to the CoreDNS pods.
 */
export function kubeDnsLoop(kubeDnsIp: string, listeners: Listener[], hostAddresses: string[], serviceCidrs: string[]): string | null {
  const eff = effectiveAddress(bareAddress(kubeDnsIp));
  let why: string | null = null;
  if (isUnspecifiedAddress(kubeDnsIp)) why = 'is the unspecified address (this host itself)';
  else if (isLoopbackAddress(eff)) why = 'is a loopback address';
  else {
    const hit = reachesListener(kubeDnsIp, listeners);
    const inCidr = serviceCidrs.some((c) => {
      try {
        return ipInCidr(eff, c);
      } catch {
        return false;
      }
    });
    if (hit) why = `is the proxy's own listener ${hit.address}:${hit.port}`;
    else if (!inCidr && hostAddresses.some((a) => effectiveAddress(bareAddress(a)) === eff)) why = `is an address of this host outside the service CIDRs (${serviceCidrs.join(', ') || 'none known'})`;
  }
  if (why === null) return null;
  return `The kube-dns ClusterIP ${kubeDnsIp} ${why}: forwarding the cluster zones there would send them back into this host's proxy (a loop); check the cluster DNS Service (\`kubectl -n kube-system get svc -l k8s-app=kube-dns -o wide\`).`;
}

/**
 * A key equal for two spellings of one server: its address in canonical form (RFC 5952 for IPv6:
 * lower case, zeros compressed — Node's net.SocketAddress, which reads it with inet_pton(3) and
 * writes it with inet_ntop(3)), an IPv4-mapped IPv6 address as its IPv4 address, its %zone kept
 * as written, and its port (53 when none, RFC 1035 §4.2); so `192.0.2.53`, `192.0.2.53:53` and
 * `::ffff:192.0.2.53`, `fd00::53`, `fd00:0::53` and `[fd00::53]:53` share one. A numeric zone
 * (`%2`) and the interface name it stands for stay two keys. An unparsable text is its own key.
 */
export function sameServerKey(server: string): string {
  try {
    const e = parseServer(server);
    const at = e.address.indexOf('%');
    // The zone as written: Linux interface names are case-sensitive (`eth0` ≠ `ETH0`).
    const [bare, zone] = at < 0 ? [e.address, ''] : [e.address.slice(0, at), e.address.slice(at)];
    // parseServer's family (node:net isIP of the bare address), not net.isIPv6 again: for an IPv4
    // address isIP never runs the IPv6 expression, whose first use compiles it (~4–6 ms of start's
    // preflight on the test bed, CPU profile); start pays that while it waits for the proxy (probes/gai-lookup.ts warmLookup).
    const canonical = new SocketAddress({ address: bare, family: e.family === 6 ? 'ipv6' : 'ipv4' }).address;
    // An IPv4-mapped address (RFC 4291 §2.5.5.2, `::ffff:192.0.2.1`) reaches the IPv4 server itself.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical)?.[1];
    return `${mapped ?? canonical}${zone}|${e.port}`;
  } catch {
    return server;
  }
}

/**
 * `server` with an IPv4-mapped IPv6 address (RFC 4291 §2.5.5.2: `::ffff:192.0.2.53`,
 * `[::ffff:c000:235]:5353`) written as the IPv4 server it reaches (`192.0.2.53`,
 * `192.0.2.53:5353`); any other text as it is. glibc sends to such a nameserver line through an
 * IPv6 socket and gets the IPv4 server's answer, but dnsmasq given `server=::ffff:192.0.2.53`
 * answered every forwarded name REFUSED (sandbox, brk30: start failed its verify and rolled back).
 */
export function v4Unmapped(server: string): string {
  try {
    const e = parseServer(server);
    if (e.family !== 6 || e.address.includes('%')) return server;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(new SocketAddress({ address: e.address, family: 'ipv6' }).address)?.[1];
    return mapped === undefined ? server : formatServer({ address: mapped, port: e.port });
  } catch {
    return server;
  }
}

/**
 * Why an upstream was dropped: it loops into the proxy, is resolved's stub, names a missing
 * interface, or is a nameserver line past glibc's MAXNS (the host never asked it).
 */
export type DropKind = 'loop' | 'resolved-stub' | 'no-interface' | 'past-maxns';

/**
 * Picks the proxy's default upstreams from the saved resolv.conf: drops our own listen addresses
 * (loop — also through 0.0.0.0, ::, ::ffff:127.0.0.1), the systemd-resolved stub (replaced by
 * `resolvedLinkServers` when given, since resolved would forward back to us), and link-local
 * `%zone` servers whose interface does not exist here (`interfaces`; dnsmasq refuses to start on
 * them). IPv6 `%zone` is kept otherwise; duplicates removed, order kept; port 53 is left
 * out of a kept server's name (parse-server.ts defaultPortOmitted), another port kept.
 */
export function pickUpstreams(input: {
  resolvConf: ResolvConf;
  listeners: Listener[];
  resolvedLinkServers?: string[];
  /** Interface names on this host; when given, `%zone` must name one of them. */
  interfaces?: string[];
  /** Addresses assigned to this host (one of them loops only into a wildcard listener). */
  hostAddresses?: string[];
  /**
   * Use only the first GLIBC_MAXNS nameserver lines, as glibc does (true for a resolv.conf; an
   * explicit `--upstream` list is taken whole). Lines past it are dropped as `past-maxns`.
   */
  glibcMaxns?: boolean;
}): { upstreams: string[]; dropped: { server: string; reason: string; kind: DropKind; listed: string }[] } {
  const upstreams: string[] = [];
  // `listed`: the nameserver line the server came from (127.0.0.53 for resolved's link servers).
  const dropped: { server: string; reason: string; kind: DropKind; listed: string }[] = [];
  const seen = new Set<string>();
  let listed = '';
  const add = (server: string, via: string | null) => {
    const loop = loopReason(server, input.listeners, input.hostAddresses);
    if (loop) {
      dropped.push({ server, listed, kind: 'loop', reason: `${loop}${via ? ` (${via})` : ''}; forwarding there would loop` });
      return;
    }
    if (isResolvedStub(server)) {
      dropped.push({ server, listed, kind: 'resolved-stub', reason: `systemd-resolved stub listener${via ? ` (${via})` : ''}; resolved would forward back to the proxy` });
      return;
    }
    const zone = /%([^\]]+)/.exec(server)?.[1];
    // dnsmasq takes interface names only (a numeric scope id is "bad interface name").
    if (zone && input.interfaces && !input.interfaces.includes(zone)) {
      dropped.push({ server, listed, kind: 'no-interface', reason: /^\d+$/.test(zone) ? `its scope id %${zone} is a number; write the interface name (e.g. %eth0)` : `its interface ${zone} does not exist on this host` });
      return;
    }
    // One server however it is spelled (`192.0.2.53`, `192.0.2.53:53`, `192.0.2.53:053`): the first spelling is kept.
    const same = sameServerKey(server);
    if (seen.has(same)) return;
    seen.add(same);
    // Named as resolv.conf names it (`10.0.0.1`, not `10.0.0.1:53`): one spelling in every output;
    // an IPv4-mapped one as the IPv4 server it reaches (v4Unmapped).
    upstreams.push(defaultPortOmitted(v4Unmapped(server)));
  };
  const all = input.resolvConf.nameservers;
  const used = input.glibcMaxns ? all.slice(0, GLIBC_MAXNS) : all;
  for (const server of used) {
    listed = server;
    if (isResolvedStub(server)) {
      if (input.resolvedLinkServers && input.resolvedLinkServers.length > 0) {
        dropped.push({ server, listed, kind: 'resolved-stub', reason: 'systemd-resolved stub listener; replaced by its link servers from resolvectl' });
        for (const s of input.resolvedLinkServers) add(s, 'from resolvectl');
      } else {
        dropped.push({ server, listed, kind: 'resolved-stub', reason: 'systemd-resolved stub listener and resolvectl reported no link servers; it would loop through the drop-in' });
      }
      continue;
    }
    add(server, null);
  }
  for (const server of all.slice(used.length)) {
    dropped.push({ server, listed: server, kind: 'past-maxns', reason: `nameserver line ${all.indexOf(server) + 1} of ${all.length}: glibc reads only the first ${GLIBC_MAXNS} (resolv.conf(5) MAXNS), so the host never asked it, and neither does the proxy` });
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
 * without duplicates or stubs, and without the links named in `excludeLinks` (K2s's own routing
 * link: its server is the proxy). [] when resolvectl is missing or fails (no resolved on this host).
 */
export async function readResolvedLinkServers(exec: Exec, excludeLinks: readonly string[] = []): Promise<string[]> {
  let result;
  try {
    result = await exec.run('resolvectl', ['dns'], { timeoutMs: 5000 });
  } catch {
    return []; // resolvectl not installed: no systemd-resolved
  }
  if (result.code !== 0) return [];
  const lines = parseResolvectlDns(result.stdout).filter((l) => !(l.link && excludeLinks.includes(l.link.name)));
  const ordered = [...lines.filter((l) => l.link !== null), ...lines.filter((l) => l.link === null)];
  const servers: string[] = [];
  for (const l of ordered) {
    for (const s of l.servers) {
      if (!isResolvedStub(s) && !servers.includes(s)) servers.push(s);
    }
  }
  return servers;
}
