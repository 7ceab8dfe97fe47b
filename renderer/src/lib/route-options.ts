/** The Logs panel's Route filter choices for the engine(s) whose lines are in the buffer. */
import { ENGINES } from '../../../shared/engines/table';
import type { QueryRoute, QueryRow } from '../../../shared/query-log';
import { ROUTE_LABEL } from '../../../shared/query-log/route-label';

export { ROUTE_LABEL };

/**
 * Routes the filter offers: cluster, upstream and cache always (both engines log them); `local`
 * only when a row of an engine with `localAnswers` (dnsmasq) is present, or while it is the selected route (so a selection stays visible).
 */
export function routeOptions(rows: readonly QueryRow[], selected: QueryRoute | ''): QueryRoute[] {
  const local = selected === 'local' || rows.some((r) => ENGINES[r.engine].capabilities.localAnswers);
  return (Object.keys(ROUTE_LABEL) as QueryRoute[]).filter((r) => (r !== 'local' || local) && (r !== 'proxy' || selected === 'proxy' || rows.some((x) => x.route === 'proxy')));
}
