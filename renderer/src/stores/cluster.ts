/** Cluster domain store: the Cluster panel's status. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { ClusterStatus } from '../../../shared/types';
import { latestRequest } from '../lib/latest-request';

/** Cluster state and its refresh action. `error` is a transport/backend failure message. */
export interface ClusterState {
  /** The newest answer (an unreachable API is an answer: state `unreachable`). */
  status: ClusterStatus | null;
  /** The last answer with the API reachable and when it came (ms since the epoch); shown as "last known" while it is not. */
  lastReachable: { status: ClusterStatus; at: number } | null;
  loading: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

/** Creates the cluster store on `api`. */
export function createClusterStore(api: K2sDnsApi, now: () => number = Date.now) {
  const requests = latestRequest();
  return createStore<ClusterState>()((set) => ({
    status: null,
    lastReachable: null,
    loading: false,
    error: null,
    async refresh() {
      const isLatest = requests.begin();
      set({ loading: true });
      try {
        const status = await api.clusterStatus();
        if (isLatest()) set((s) => ({ status, error: null, loading: false, lastReachable: status.state === 'ok' ? { status, at: now() } : s.lastReachable }));
      } catch (err) {
        if (isLatest()) set({ error: (err as Error).message, loading: false });
      }
    },
  }));
}
