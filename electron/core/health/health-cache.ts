/**
 * Keeps `dns:status` cheap while it carries the health verdict: the path check (up to ~4 s when
 * a hop times out) runs at most once at a time, and a report is reused while the host's DNS
 * state (state, resolver owner, proxy PID, listeners, operation step) and /etc/resolv.conf's stamp are unchanged and it is
 * younger than `maxAgeMs` (ms, or a function of the status: shared/cadence.ts).
 */
import { statusFingerprint, type HealthReport } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';

export { statusFingerprint };

/** The cache; `run` checks the path for a status already read. */
export interface HealthCache {
  /** A fresh check now (joins one in flight for the same fingerprint). */
  check(status: HostDnsStatus): Promise<HealthReport>;
  /**
   * The report for `status`: cached when current, else a new check awaited at most `waitMs` ms;
   * when it takes longer, the previous report of the same state marked `rechecking` (older than
   * `maxAgeMs`), or null when there is none.
   */
  forStatus(status: HostDnsStatus, waitMs: number): Promise<HealthReport | null>;
}

/** Creates the cache; `now` is ms since the epoch. */
export function createHealthCache(run: (status: HostDnsStatus) => Promise<HealthReport>, now: () => number, maxAgeMs: number | ((status: HostDnsStatus) => number) = 5000): HealthCache {
  const ageLimit = (status: HostDnsStatus) => (typeof maxAgeMs === 'number' ? maxAgeMs : maxAgeMs(status));
  // A new /etc/resolv.conf (its stamp) is a new path too: a report about the file before is not reused.
  const cacheKey = (status: HostDnsStatus) => `${statusFingerprint(status)}|${status.resolverStamp ?? '-'}`;
  let latest: { key: string; report: HealthReport } | null = null;
  let inflight: { key: string; promise: Promise<HealthReport> } | null = null;
  const check = (status: HostDnsStatus): Promise<HealthReport> => {
    const key = cacheKey(status);
    if (inflight && inflight.key === key) return inflight.promise;
    const promise = run(status).then((checked) => {
      // Stamped with the state it is about, so a window can tell when it no longer applies.
      const report: HealthReport = { ...checked, forStatus: statusFingerprint(status) };
      latest = { key, report };
      return report;
    });
    const mine = { key, promise };
    inflight = mine;
    void promise.finally(() => {
      if (inflight === mine) inflight = null;
    }).catch(() => undefined);
    return promise;
  };
  return {
    check,
    async forStatus(status, waitMs) {
      const key = cacheKey(status);
      if (latest && latest.key === key && now() - latest.report.checkedAt < ageLimit(status)) return latest.report;
      const pending = check(status);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
      const report = await Promise.race([pending.catch(() => null), timeout]);
      clearTimeout(timer);
      // While the new check runs, the previous report of the same state is still the best answer,
      // marked as older than the cadence (a window opened now says "last known", not current).
      return report ?? (latest && latest.key === key ? { ...latest.report, rechecking: true } : null);
    },
  };
}
