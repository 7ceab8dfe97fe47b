/** Health domain store: the latest end-to-end verdict (shared/health.ts), from `dns:status` or a fresh `health:check`. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { HealthReport } from '../../../shared/health';
import { rerunAfter } from '../lib/rerun-after';

/** The report shown by the Overview verdict line and the Topology. */
export interface HealthState {
  report: HealthReport | null;
  checking: boolean;
  error: string | null;
  /** Keeps `report` if it is newer than the current one (status polls carry the cached report). */
  offer(report: HealthReport | undefined): void;
  /** Runs a fresh check now; one at a time, a call during a check makes one more follow it (lib/rerun-after.ts). */
  check(): Promise<void>;
}

/** Creates the health store on `api`. */
export function createHealthStore(api: K2sDnsApi) {
  return createStore<HealthState>()((set, get) => ({
    report: null,
    checking: false,
    error: null,
    offer(report) {
      const cur = get().report;
      if (report && (!cur || report.checkedAt > cur.checkedAt)) set({ report, error: null });
    },
    check: rerunAfter(async () => {
      set({ checking: true });
      try {
        get().offer(await api.healthCheck());
        set({ error: null });
      } catch (err) {
        set({ error: (err as Error).message });
      } finally {
        set({ checking: false });
      }
    }),
  }));
}
