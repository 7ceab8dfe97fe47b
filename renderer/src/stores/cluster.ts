/** Cluster domain store: the Cluster panel's status. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { ClusterStatus } from '../../../shared/types';
import { latestRequest } from '../lib/latest-request';

/** Cluster state and its refresh action. `error` is a transport/backend failure message. */
export interface ClusterState {
  status: ClusterStatus | null;
  loading: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

/** Creates the cluster store on `api`. */
export function createClusterStore(api: K2sDnsApi) {
  const requests = latestRequest();
  return createStore<ClusterState>()((set) => ({
    status: null,
    loading: false,
    error: null,
    async refresh() {
      const isLatest = requests.begin();
      set({ loading: true });
      try {
        const status = await api.clusterStatus();
        if (isLatest()) set({ status, error: null, loading: false });
      } catch (err) {
        if (isLatest()) set({ error: (err as Error).message, loading: false });
      }
    },
  }));
}
