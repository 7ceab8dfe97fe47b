/**
 * The exact query log as the Logs panel gets it (contract call `logs:exact`): rows the capture
 * companion paired from the proxy's packets (electron/core/capture/), or why there are none. Pure.
 */
import { zoneOf, type QueryRow } from './row';

/** Answer of `logs:exact`. */
export interface ExactQueryLog {
  /** True when the exact log exists and this user may read it: the Queries view shows `rows` instead of the engine log's. */
  available: boolean;
  /** Why it is not available (`tcpdump is not installed …`), null when it is. */
  reason: string | null;
  /** The newest rows, oldest first (QueryRow.mixed always false). */
  rows: QueryRow[];
}

/** `rows` with the route judged by the cluster zones the window knows (the backend reads the rows without them). */
export function routeExactRows(rows: readonly QueryRow[], clusterZones: readonly string[]): QueryRow[] {
  if (clusterZones.length === 0) return [...rows];
  return rows.map((r) => {
    if (r.upstream === null || r.route === null) return r;
    const zone = zoneOf(r.name, clusterZones);
    return zone === null ? { ...r, route: 'upstream', zone: null } : { ...r, route: 'cluster', zone };
  });
}
