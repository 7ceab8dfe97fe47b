/** Which zone a query name matches, and so where the K2s proxy sends it (longest suffix wins). */
import { isIpLiteral, ptrName } from '../../../shared/ptr-name';
import type { QueryType, ZoneRoute } from '../../../shared/types';

/** The route of one query: the matched zone (null: default upstreams) and the upstream it goes to. */
export interface QueryRoute {
  /** The name actually asked (an IP for PTR becomes its in-addr.arpa / ip6.arpa name). */
  name: string;
  zone: string | null;
  /** The zone's upstream, or `upstreams` joined with ", " for names outside every zone. */
  upstream: string;
  clusterDomain: boolean;
}

/**
 * The name the proxy receives: for PTR an IP literal becomes its reverse name (RFC 1035 §3.5,
 * RFC 3596 §2.5); anything else lower-cased without the trailing dot.
 */
export function queryWireName(name: string, type: QueryType): string {
  if (type === 'PTR' && isIpLiteral(name)) return ptrName(name);
  return name.toLowerCase().replace(/\.$/, '');
}

/**
 * The stub domain `name` falls in: the longest zone that equals it or is a dot-suffix of it
 * (dnsmasq `server=/zone/` and dnsproxy `[/zone/]` both pick the most specific match).
 */
export function matchRoute(name: string, type: QueryType, zones: readonly Pick<ZoneRoute, 'zone' | 'upstream' | 'clusterDomain'>[], upstreams: string[]): QueryRoute {
  const wire = queryWireName(name, type);
  let best: Pick<ZoneRoute, 'zone' | 'upstream' | 'clusterDomain'> | null = null;
  for (const z of zones) {
    const zone = z.zone.toLowerCase().replace(/\.$/, '');
    if ((wire === zone || wire.endsWith(`.${zone}`)) && (!best || zone.length > best.zone.length)) best = z;
  }
  if (!best) return { name: wire, zone: null, upstream: upstreams.join(', ') || 'the original nameservers', clusterDomain: false };
  return { name: wire, zone: best.zone, upstream: best.upstream, clusterDomain: best.clusterDomain };
}
