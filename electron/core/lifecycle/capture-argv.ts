/** The capture companion's argv for a proxy plan: what start runs and a followed network change restarts. */
import { captureArgs, capturePorts } from '../capture/capture-args';
import type { ProxyPlan } from '../../../shared/types';

/**
 * `base` (node, entry, CAPTURE_VERB) plus `--listen` for every listener (`IP:PORT`, `[v6]:PORT`)
 * and `--port` for every port the proxy listens and forwards on (its upstreams' and its zones'
 * upstreams'), so the capture sees both sides of every exchange of this plan.
 */
export function captureArgvFor(base: readonly string[], plan: Pick<ProxyPlan, 'listeners' | 'upstreams' | 'zones'>): string[] {
  const listeners = plan.listeners.map((l) => (l.address.includes(':') ? `[${l.address}]:${l.port}` : `${l.address}:${l.port}`));
  return [...base, ...captureArgs({ listeners, ports: capturePorts(plan.listeners.map((l) => l.port), [...plan.upstreams, ...plan.zones.map((z) => z.upstream)]) })];
}
