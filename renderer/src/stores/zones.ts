/** Zones domain store: discovered stub domains, refused zones and the user's allows. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { ClusterDiscovery } from '../../../shared/types';
import { latestRequest } from '../lib/latest-request';

/** Discovery result, the zones the user allows past the zone policy, and their actions. */
export interface ZonesState {
  discovery: ClusterDiscovery | null;
  loading: boolean;
  error: string | null;
  /**
   * Zones the user allowed (Zones panel toggle): sent with zones:list (preview) and dns:start
   * (which remembers them in the state file). Seeded from the running start's allowedZones.
   */
  allowZones: string[];
  refresh(): Promise<void>;
  /** Allows or un-allows one refused zone, then refreshes the preview. */
  setAllowed(zone: string, allowed: boolean): Promise<void>;
}

/** Creates the zones store on `api`. */
export function createZonesStore(api: K2sDnsApi) {
  const requests = latestRequest();
  return createStore<ZonesState>()((set, get) => ({
    discovery: null,
    loading: false,
    error: null,
    allowZones: [],
    async refresh() {
      const isLatest = requests.begin();
      set({ loading: true });
      try {
        const asked = get().allowZones;
        const discovery = await api.zonesList(asked.length ? { allowZones: asked } : {});
        // A newer refresh (e.g. the user just ticked a zone) is in flight: its answer counts.
        if (!isLatest()) return;
        // First load: adopt what the running start allowed (state file), so a restart keeps it.
        // The allows as they are now, not as asked: a tick made meanwhile is never undone.
        const current = get().allowZones;
        const seeded = current.length === 0 && discovery.allowedZones?.length ? [...discovery.allowedZones] : current;
        set({ discovery, allowZones: seeded, error: null, loading: false });
      } catch (err) {
        if (isLatest()) set({ error: (err as Error).message, loading: false });
      }
    },
    async setAllowed(zone, allowed) {
      const current = get().allowZones.filter((z) => z !== zone);
      set({ allowZones: allowed ? [...current, zone].sort() : current });
      await get().refresh();
    },
  }));
}
