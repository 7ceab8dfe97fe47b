/** Resolver diff domain store: saved original vs current /etc/resolv.conf. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { ResolverDiff } from '../../../shared/types';
import { latestRequest } from '../lib/latest-request';

/** The diff, the chosen view and the refresh action. */
export interface DiffState {
  diff: ResolverDiff | null;
  view: 'unified' | 'side-by-side';
  error: string | null;
  /** When the shown data was read (ms since the epoch); while `error` is set it is the last known state. */
  fetchedAt: number | null;
  setView(view: DiffState['view']): void;
  refresh(): Promise<void>;
}

/** Creates the diff store on `api`. */
export function createDiffStore(api: K2sDnsApi) {
  const requests = latestRequest();
  return createStore<DiffState>()((set) => ({
    diff: null,
    fetchedAt: null,
    view: 'side-by-side',
    error: null,
    setView: (view) => set({ view }),
    async refresh() {
      // A diff read mid-Stop that answers last would otherwise stay on screen (older answer wins).
      const isLatest = requests.begin();
      try {
        const diff = await api.resolverDiff();
        if (isLatest()) set({ diff, error: null, fetchedAt: Date.now() });
      } catch (err) {
        if (isLatest()) set({ error: (err as Error).message });
      }
    },
  }));
}
