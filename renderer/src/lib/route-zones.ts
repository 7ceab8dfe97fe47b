/**
 * The zones the Query tester's route through k2s-dnsproxy is matched against (lib/route.ts
 * matchRoute): the cluster's, from discovery, while the API answers; else the zones the running
 * proxy forwards (HostDnsStatus.zonesInUse, its saved plan), which the Zones tab shows then too
 * (components/ZonesInUse.tsx); for a user who cannot read that root-only plan, the zones the
 * running proxy's config routes (HostDnsStatus.configFacts, shared/proxy-config-facts.ts). Never
 * "no zone" for want of an API (walk 10 M2). Pure module.
 */
import type { ClusterDiscovery, HostDnsStatus, ZoneRoute } from '../../../shared/types';

/** What the route needs of a zone (ZoneRoute's): its name, upstream and whether it is the cluster domain. */
export type RouteZone = Pick<ZoneRoute, 'zone' | 'upstream' | 'clusterDomain'>;

/**
 * `zones` to match; `from`: `discovery` (read from the API), `running` (the running proxy's saved
 * plan), `config` (the running proxy's config file `file`: the plan is root's), `last-known` (the
 * last discovery, while the API does not answer and the running proxy's zones are not known),
 * `none` (nothing known: no zone route can be said). `apiDown`: the zones store's last read failed.
 */
export interface RouteZones {
  zones: RouteZone[];
  from: 'discovery' | 'running' | 'config' | 'last-known' | 'none';
  apiDown: boolean;
  /** With `from: 'config'`: the config file read (`/etc/k2s/dnsproxy.yaml`). */
  file?: string;
}

/** Said after the zone route, or null: "(zones of the running proxy; the API does not answer)". */
export function routeZonesNote(z: Pick<RouteZones, 'from' | 'apiDown' | 'file'>): string | null {
  const api = z.apiDown ? 'the API does not answer' : 'not read from the API yet';
  if (z.from === 'running') return `(zones of the running proxy; ${api})`;
  if (z.from === 'config') return `(zones of the running proxy, read from its config${z.file ? ` ${z.file}` : ''}; ${api})`;
  if (z.from === 'last-known') return '(zones last read from the API; it does not answer now)';
  return null;
}

/**
 * The zones for the route. `discovery` and `zonesError` are the zones store's (its last result,
 * and the error of its last read, null when it answered); `status` the DNS store's: the cluster
 * domain of its config zones is `clusterDomain` when known.
 */
export function routeZones(discovery: Pick<ClusterDiscovery, 'zones'> | null, zonesError: string | null, status: Pick<HostDnsStatus, 'state' | 'zonesInUse'> & Partial<Pick<HostDnsStatus, 'configFacts' | 'clusterDomain'>> | null): RouteZones {
  const apiDown = zonesError !== null;
  if (discovery && !apiDown) return { zones: discovery.zones, from: 'discovery', apiDown };
  const running = status && status.state !== 'stopped' ? status : null;
  const inUse = running?.zonesInUse ?? [];
  if (inUse.length > 0) return { zones: inUse, from: 'running', apiDown };
  const facts = running?.configFacts;
  if (facts && facts.zones.length > 0) {
    const domain = running.clusterDomain?.toLowerCase().replace(/\.$/, '') ?? null;
    return { zones: facts.zones.map((z) => ({ zone: z.zone, upstream: z.upstream, clusterDomain: z.zone.toLowerCase().replace(/\.$/, '') === domain })), from: 'config', apiDown, file: facts.file };
  }
  if (discovery) return { zones: discovery.zones, from: 'last-known', apiDown };
  return { zones: [], from: 'none', apiDown };
}
