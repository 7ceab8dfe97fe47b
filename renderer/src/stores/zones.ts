/** Zones domain store: discovered stub domains for the Zones table. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { ClusterDiscovery } from '../../../shared/types';

/** Discovery result and its refresh action. */
export interface ZonesState {
  discovery: ClusterDiscovery | null;
  loading: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

/** Creates the zones store on `api`. */
export function createZonesStore(api: K2sDnsApi) {
  return createStore<ZonesState>()((set) => ({
    discovery: null,
    loading: false,
    error: null,
    async refresh() {
      set({ loading: true });
      try {
        set({ discovery: await api.zonesList({}), error: null, loading: false });
      } catch (err) {
        set({ error: (err as Error).message, loading: false });
      }
    },
  }));
}
