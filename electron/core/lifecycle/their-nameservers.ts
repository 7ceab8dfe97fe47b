/**
 * Asks the nameservers of the other program's /etc/resolv.conf (drift) whether they would answer
 * once K2s DNS is stopped: the facts of the drift default's one rule (shared/drift-default.ts
 * silentAfterStop), gathered the same way by a plain stop (teardown.ts) and by the health check
 * behind the drift banner and status's fix (health/check-health.ts).
 */
import type { QueryResult, QueryType } from '../../../shared/types';
import type { AfterStopAnswer } from '../../../shared/health-report';
import { reachesListenerAddress } from '../../../shared/listener-reach';

/** A DNS query as LifecycleDeps.query takes it; never throws (TIMEOUT/ERROR are results). */
export type TheirQuery = (q: { name: string; type: QueryType; server: string; timeoutMs: number }) => Promise<QueryResult>;

/**
 * `nameservers` (driftRoute's: the ones glibc asks, resolv.conf(5) MAXNS) as they stand after a
 * stop: one of `listeners` (K2s DNS's listener addresses, bare IPs) is `own` and not asked; every
 * other one is asked `. NS` on port 53 (as the health check asks upstreams), all in parallel,
 * each within `timeoutMs` (ms). Any rcode is an answer; TIMEOUT or ERROR is none. Never throws.
 */
export async function askTheirNameservers(nameservers: readonly string[], listeners: readonly string[], query: TheirQuery, timeoutMs = 1500): Promise<AfterStopAnswer[]> {
  return Promise.all(
    nameservers.map(async (nameserver): Promise<AfterStopAnswer> => {
      if (listeners.some((l) => reachesListenerAddress(nameserver, l))) return { nameserver, own: true };
      const r = await query({ name: '.', type: 'NS', server: nameserver.includes(':') ? `[${nameserver}]:53` : `${nameserver}:53`, timeoutMs }).catch(() => null);
      return { nameserver, own: false, answered: r !== null && r.rcode !== 'TIMEOUT' && r.rcode !== 'ERROR' };
    }),
  );
}
