/**
 * The zones the Query tester's route through k2s-dnsproxy is matched against (lib/route.ts
 * matchRoute): the cluster's, from discovery, while the API answers; else the zones the running
 * proxy forwards (HostDnsStatus.zonesInUse, its saved plan), which the Zones tab shows then too
 * (components/ZonesInUse.tsx). Never "no zone" for want of an API (walk 10 M2). Pure module.
 */
import type { ClusterDiscovery, HostDnsStatus, ZoneRoute } from '../../../shared/types';

/**
 * `zones` to match; `from`: `discovery` (read from the API), `running` (the running proxy's),
 * `last-known` (the last discovery, while the API does not answer and the running proxy's zones
 * are not known), `none` (nothing known: no zone route can be said). `apiDown`: the zones store's
 * last read failed.
 */
export interface RouteZones {
  zones: ZoneRoute[];
  from: 'discovery' | 'running' | 'last-known' | 'none';
  apiDown: boolean;
}

/** Said after the zone route, or null: "(zones of the running proxy; the API does not answer)". */
export function routeZonesNote(z: Pick<RouteZones, 'from' | 'apiDown'>): string | null {
  if (z.from === 'running') return z.apiDown ? '(zones of the running proxy; the API does not answer)' : '(zones of the running proxy; not read from the API yet)';
  if (z.from === 'last-known') return '(zones last read from the API; it does not answer now)';
  return null;
}

/**
 * The zones for the route. `discovery` and `zonesError` are the zones store's (its last result,
 * and the error of its last read, null when it answered); `status` the DNS store's.
 */
export function routeZones(discovery: Pick<ClusterDiscovery, 'zones'> | null, zonesError: string | null, status: Pick<HostDnsStatus, 'state' | 'zonesInUse'> | null): RouteZones {
  const apiDown = zonesError !== null;
  if (discovery && !apiDown) return { zones: discovery.zones, from: 'discovery', apiDown };
  const inUse = status && status.state !== 'stopped' ? (status.zonesInUse ?? []) : [];
  if (inUse.length > 0) return { zones: inUse, from: 'running', apiDown };
  if (discovery) return { zones: discovery.zones, from: 'last-known', apiDown };
  return { zones: [], from: 'none', apiDown };
}
