/**
 * Why the K2s proxy answered SERVFAIL for a name in a cluster zone: it sends that zone to
 * CoreDNS (the kube-dns ClusterIP start discovered) and got no answer from it — CoreDNS down,
 * refusing, or failing itself (dnsproxy and dnsmasq both turn a failed upstream exchange into
 * SERVFAIL, RFC 1035 §4.1.1 "Server failure"). `k2s-dns query --server proxy` says it in one
 * `;;` note, and the Query tester's card under the K2s proxy's rcode; the health verdict says
 * which (refused, silent, failing). Pure module: no Node or DOM imports.
 */
import { isIpLiteral, ptrName } from './ptr-name';
import { zoneOf } from './query-log/row';
import type { QueryType } from './types';

/** `IP` (port 53) or `IP:PORT` as a ZoneRoute names it → `IP:53` / `[v6]:53`, as the health hop names kube-dns. */
function withPort(upstream: string): string {
  if (!isIpLiteral(upstream)) return upstream;
  return upstream.includes(':') ? `[${upstream}]:53` : `${upstream}:53`;
}

/**
 * The note for a `rcode` the proxy answered to `name` (`type`: a PTR of an IP asks its reverse
 * name, RFC 1035 §3.5) when it is SERVFAIL and the name is in one of `zones` (the running plan's
 * cluster zones, most specific first as the engines pick): that the proxy could not get an answer
 * from CoreDNS at the zone's kube-dns address, then `why` (where to read why: `run \`k2s-dns
 * status\`, which says why`). Null for any other rcode, or a name in no cluster zone (its SERVFAIL
 * came from the default upstreams).
 */
export function clusterServfailNote(name: string, type: QueryType, rcode: string, zones: readonly { zone: string; upstream: string }[], why: string): string | null {
  if (rcode !== 'SERVFAIL') return null;
  const wire = type === 'PTR' && isIpLiteral(name) ? ptrName(name) : name.toLowerCase().replace(/\.$/, '');
  const zone = zoneOf(wire, zones.map((z) => z.zone));
  if (zone === null) return null;
  const route = zones.find((z) => z.zone.toLowerCase().replace(/\.$/, '') === zone)!;
  return `SERVFAIL: the proxy could not get an answer from CoreDNS (kube-dns ${withPort(route.upstream)}), where it sends the cluster zone ${zone}; ${why}.`;
}
