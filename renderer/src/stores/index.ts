/** The app's store instances on the real `api`, and React hooks to read them. */
import { useStore } from 'zustand';
import { api } from '../api';
import { createClusterStore, type ClusterState } from './cluster';
import { createDiagnosticsStore, type DiagnosticsState } from './diagnostics';
import { followHostForDiagnostics } from './diagnostics-follow';
import { createDiffStore, type DiffState } from './diff';
import { createDnsStore, type DnsState } from './dns';
import { createHealthStore, type HealthState } from './health';
import { createLogsStore, type LogsState } from './logs';
import { createQueryStore, type QueryState } from './query';
import { createTopologyStore, type TopologyState } from './topology';
import { createZonesStore, type ZonesState } from './zones';

const dns = createDnsStore(api);

/** Store instances, one per domain. */
export const stores = {
  cluster: createClusterStore(api),
  dns,
  zones: createZonesStore(api),
  diff: createDiffStore(api),
  logs: createLogsStore(api),
  query: createQueryStore(api),
  topology: createTopologyStore(api),
  // Findings carry the resolver they were made for (Start is never gated on older ones).
  diagnostics: createDiagnosticsStore(api, Date.now, (): string | null => dns.getState().status?.resolverStamp ?? null),
  health: createHealthStore(api),
};

// The query log judges routes by the discovered cluster zones: the logs store follows the zones store.
stores.zones.subscribe((s, prev) => {
  if (s.discovery?.zones !== prev.discovery?.zones) stores.logs.getState().setClusterZones((s.discovery?.zones ?? []).map((z) => z.zone));
});

// The checks run again when the resolver changes and when an operation they were taken during
// ends (also one run from the CLI, followed from its journal): stores/diagnostics-follow.ts.
followHostForDiagnostics(stores.dns, stores.diagnostics);

/** Reads the cluster store. */
export const useCluster = <T,>(sel: (s: ClusterState) => T) => useStore(stores.cluster, sel);
/** Reads the host DNS store. */
export const useDns = <T,>(sel: (s: DnsState) => T) => useStore(stores.dns, sel);
/** Reads the zones store. */
export const useZones = <T,>(sel: (s: ZonesState) => T) => useStore(stores.zones, sel);
/** Reads the resolver diff store. */
export const useDiff = <T,>(sel: (s: DiffState) => T) => useStore(stores.diff, sel);
/** Reads the logs store. */
export const useLogs = <T,>(sel: (s: LogsState) => T) => useStore(stores.logs, sel);
/** Reads the query store. */
export const useQuery = <T,>(sel: (s: QueryState) => T) => useStore(stores.query, sel);
/** Reads the topology store. */
export const useTopology = <T,>(sel: (s: TopologyState) => T) => useStore(stores.topology, sel);
/** Reads the diagnostics (doctor) store. */
export const useDiagnostics = <T,>(sel: (s: DiagnosticsState) => T) => useStore(stores.diagnostics, sel);
/** Reads the health (end-to-end verdict) store. */
export const useHealth = <T,>(sel: (s: HealthState) => T) => useStore(stores.health, sel);
