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
  /** When the newest applied answer (or backend failure) came, ms since the epoch; null before the first. */
  answeredAt: number | null;
  loading: boolean;
  error: string | null;
  refresh(): Promise<void>;
}

/**
 * Creates the cluster store on `api`. Refreshes may overlap (the card asks every
 * CADENCE_MS.cluster even while a request to an API that stopped answering waits for its
 * timeout): every answer is applied unless a later request's answer was applied already
 * (latestRequest's `claim`), so the first answer after the API is back shows at once and the
 * older request's late timeout never steps the card back.
 */
export function createClusterStore(api: K2sDnsApi, now: () => number = Date.now) {
  const requests = latestRequest();
  return createStore<ClusterState>()((set) => ({
    status: null,
    lastReachable: null,
    answeredAt: null,
    loading: false,
    error: null,
    async refresh() {
      const ticket = requests.begin();
      set({ loading: true });
      try {
        const status = await api.clusterStatus();
        if (ticket.claim()) {
          const at = now();
          set((s) => ({ status, error: null, loading: !ticket(), answeredAt: at, lastReachable: status.state === 'ok' ? { status, at } : s.lastReachable }));
        }
      } catch (err) {
        if (ticket.claim()) set({ error: (err as Error).message, loading: !ticket(), answeredAt: now() });
      }
    },
  }));
}
