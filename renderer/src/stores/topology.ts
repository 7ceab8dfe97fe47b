/** Topology domain store: the hops of the health model, re-probed on demand and on every state change. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { HealthReport } from '../../../shared/health';
import { rerunAfter } from '../lib/rerun-after';
import { topologyFromHealth, UNPROBED, type Hop } from '../lib/topology';

/** Hops, the verdict they come from, the selected one and the probe action. */
export interface TopologyState {
  hops: Hop[];
  report: HealthReport | null;
  selected: string | null;
  probing: boolean;
  probedAt: number | null;
  error: string | null;
  select(id: string | null): void;
  /** Probes every hop now; one at a time, a call during a probe makes one more follow it (lib/rerun-after.ts). */
  probe(): Promise<void>;
  /** Draws `report` (e.g. one the status poll brought) if it is newer than the drawn one. */
  show(report: HealthReport): void;
}

/** Creates the topology store on `api`; `now` is the clock (ms since the epoch). */
export function createTopologyStore(api: K2sDnsApi, now: () => number = Date.now) {
  return createStore<TopologyState>()((set, get) => ({
    hops: UNPROBED,
    report: null,
    selected: null,
    probing: false,
    probedAt: null,
    error: null,
    select: (id) => set({ selected: id }),
    show(report) {
      const cur = get().report;
      if (!cur || report.checkedAt > cur.checkedAt) set({ report, hops: topologyFromHealth(report), probedAt: report.checkedAt });
    },
    probe: rerunAfter(async () => {
      set({ probing: true, error: null });
      try {
        const report = await api.healthCheck();
        // A newer report may have come meanwhile with a status poll (show()): keep the newer.
        const cur = get().report;
        if (!cur || report.checkedAt >= cur.checkedAt) set({ report, hops: topologyFromHealth(report), probedAt: now() });
      } catch (err) {
        set({ error: (err as Error).message });
      } finally {
        set({ probing: false });
      }
    }),
  }));
}
