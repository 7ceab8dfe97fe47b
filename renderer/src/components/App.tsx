/** App shell: header, tabs, and the data wiring (initial loads, push subscriptions). */
import { useEffect, useState } from 'react';
import { stores, useDns } from '../stores';
import { ClusterPanel } from './ClusterPanel';
import { DiagnosticsPanel } from './DiagnosticsPanel';
import { DiffPanel } from './DiffPanel';
import { DriftBanner } from './DriftBanner';
import { HostDnsPanel } from './HostDnsPanel';
import { LogsPanel } from './LogsPanel';
import { QueryPanel } from './QueryPanel';
import { TopologyPanel } from './TopologyPanel';
import { ZonesPanel } from './ZonesPanel';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'zones', label: 'Zones' },
  { id: 'diff', label: 'Resolver diff' },
  { id: 'logs', label: 'Logs' },
  { id: 'query', label: 'Query tester' },
  { id: 'topology', label: 'Topology' },
  { id: 'diagnostics', label: 'Diagnostics' },
] as const;

type TabId = (typeof TABS)[number]['id'];

/** Refreshes everything a lifecycle operation may have changed. */
function refreshAll(): void {
  void stores.cluster.getState().refresh();
  void stores.dns.getState().refresh();
  void stores.zones.getState().refresh();
  void stores.diff.getState().refresh();
  void stores.query.getState().loadTargets();
  void stores.topology.getState().probe();
}

/** The whole window. */
export function App() {
  const [tab, setTab] = useState<TabId>('overview');
  const lastResult = useDns((s) => s.lastResult);
  const version = useDns((s) => s.info?.version);

  useEffect(() => {
    const offDns = stores.dns.getState().attach();
    const offLogs = stores.logs.getState().attach();
    void stores.logs.getState().loadTail();
    return () => {
      offDns();
      offLogs();
    };
  }, []);
  // After each operation the host changed: reload every view (also on first mount).
  useEffect(refreshAll, [lastResult]);

  return (
    <div className="app">
      <header className="app-header">
        <h1>K2s DNS</h1>
        <span className="muted">{version ? `v${version}` : ''}</span>
        <button type="button" className="secondary" onClick={refreshAll} data-testid="refresh-all">
          Refresh
        </button>
      </header>
      <DriftBanner />
      <nav className="tabs" role="tablist">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} className={tab === t.id ? 'tab active' : 'tab'} onClick={() => setTab(t.id)} data-testid={`tab-${t.id}`}>
            {t.label}
          </button>
        ))}
      </nav>
      <main className="content">
        {tab === 'overview' && (
          <div className="grid-2">
            <ClusterPanel />
            <HostDnsPanel />
          </div>
        )}
        {tab === 'zones' && <ZonesPanel />}
        {tab === 'diff' && <DiffPanel />}
        {tab === 'logs' && <LogsPanel />}
        {tab === 'query' && <QueryPanel />}
        {tab === 'topology' && <TopologyPanel />}
        {tab === 'diagnostics' && <DiagnosticsPanel />}
      </main>
    </div>
  );
}
