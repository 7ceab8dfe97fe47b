/**
 * The check `k2s-dns status` makes right after a stop, made by the stop itself, so its exit status
 * is the one status gives then (README, exit statuses: RESOLVER_DOWN, 5). A kept or restored file
 * whose nameservers do not answer (`nameserver 127.0.0.1` + an unreachable one kept with
 * `--on-drift keep`, a followed file put back whose only nameserver is gone) is known only by
 * asking them: status's own path — the same end-to-end check with the same deadlines
 * (electron/core/health/status-with-health.ts: a query 1.5 s, getaddrinfo 4 s, all in parallel)
 * — judged by status's own exit-5 rule (shared/status-exit.ts resolverDownWords) (breaker 10 M3).
 */
import type { LifecycleDeps } from './deps';
import { statusWithHealth } from '../health/status-with-health';
import type { HealthProbes } from '../health/check-health';
import { healthProbes } from '../health/probes';
import { resolverDownMayHold, resolverDownWords } from '../../../shared/status-exit';

/**
 * The verdict's summary when no name resolves on this host now that K2s DNS is stopped, e.g. "No
 * names resolve on this host: none of the nameservers in /etc/resolv.conf answers (192.0.2.99:53:
 * network unreachable); K2s DNS is stopped, so this is the host's own resolver"; null when names
 * resolve, the state is not `stopped`, or the check itself failed. Never throws.
 */
export async function resolverDownNow(deps: LifecycleDeps): Promise<string | null> {
  return resolverDownFrom(healthProbes(deps));
}

/** resolverDownNow over given probes: status's status and health check, status's exit-5 rule. Never throws. */
export async function resolverDownFrom(probes: HealthProbes): Promise<string | null> {
  try {
    const status = await probes.status();
    // No probe when the rule cannot hold (a state other than stopped): exit 0 or 1 then, never 5.
    if (!resolverDownMayHold(status.state)) return null;
    return resolverDownWords(await statusWithHealth({ ...probes, status: async () => status }, 'cli'));
  } catch {
    return null;
  }
}
