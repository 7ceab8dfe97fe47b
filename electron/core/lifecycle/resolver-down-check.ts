/**
 * The check `k2s-dns status` makes right after a stop, made by the stop itself, so its exit status
 * is the one status gives then (README, exit statuses: RESOLVER_DOWN, 5). A kept or restored file
 * whose nameservers do not answer (`nameserver 127.0.0.1` + an unreachable one kept with
 * `--on-drift keep`, a followed file put back whose only nameserver is gone) is known only by
 * asking them: the same end-to-end check (electron/core/health/check-health.ts) with the same
 * deadlines (a query 1.5 s, getaddrinfo 4 s, all in parallel), judged by status's own rule
 * (electron/cli/status-exit.ts statusExitCode: `stopped` with an `error` verdict is 5) (breaker 10 M3).
 */
import type { LifecycleDeps } from './deps';
import { checkHealth } from '../health/check-health';
import { healthProbes } from '../health/probes';

/**
 * The verdict's summary when no name resolves on this host now that K2s DNS is stopped, e.g. "No
 * names resolve on this host: none of the nameservers in /etc/resolv.conf answers (192.0.2.99:53:
 * network unreachable); K2s DNS is stopped, so this is the host's own resolver"; null when names
 * resolve, the state is not `stopped`, or the check itself failed. Never throws.
 */
export async function resolverDownNow(deps: LifecycleDeps): Promise<string | null> {
  try {
    const probes = healthProbes(deps);
    const status = await probes.status();
    if (status.state !== 'stopped') return null;
    const report = await checkHealth({ ...probes, status: async () => status });
    return report.verdict.level === 'error' ? report.verdict.summary : null;
  } catch {
    return null;
  }
}
