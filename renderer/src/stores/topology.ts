/** Topology domain store: probes each hop of the resolution path. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { QueryTarget } from '../../../shared/contract';
import type { HostDnsStatus } from '../../../shared/types';
import { buildTopology, type Hop, type Probes } from '../lib/topology';

/** Hops, the selected one (its error is shown) and the probe action. */
export interface TopologyState {
  hops: Hop[];
  selected: string | null;
  probing: boolean;
  probedAt: number | null;
  error: string | null;
  select(id: string | null): void;
  probe(): Promise<void>;
}

/** Creates the topology store on `api`; `now` is the clock (ms since the epoch). */
export function createTopologyStore(api: K2sDnsApi, now: () => number = Date.now) {
  return createStore<TopologyState>()((set, get) => ({
    hops: buildTopology(null, [], {}),
    selected: null,
    probing: false,
    probedAt: null,
    error: null,
    select: (id) => set({ selected: id }),
    async probe() {
      if (get().probing) return;
      set({ probing: true, error: null });
      try {
        const [status, targets] = await Promise.all([api.dnsStatus(), api.queryTargets()]);
        const domain = status.clusterDomain ?? (await api.zonesList({}).catch(() => null))?.clusterDomain ?? null;
        const probes: Probes = {};
        await Promise.all(
          targets.map(async (t: QueryTarget) => {
            const upstream = !['system', 'proxy', 'coredns'].includes(t.id);
            // Cluster hops must resolve the kubernetes Service; upstreams just have to answer.
            if (!upstream && !domain) return;
            const name = upstream ? '.' : `kubernetes.default.svc.${domain}`;
            probes[t.id] = await api.queryRun({ name, type: upstream ? 'NS' : 'A', target: t.id, transport: 'udp' });
          }),
        );
        set({ hops: buildTopology(status as HostDnsStatus, targets, probes), probedAt: now() });
      } catch (err) {
        set({ error: (err as Error).message });
      } finally {
        set({ probing: false });
      }
    },
  }));
}
