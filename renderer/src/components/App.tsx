/** App shell: header, tabs (WAI-ARIA tabs pattern), the live region, and the data wiring (initial loads, push subscriptions). */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { CADENCE_MS } from '../../../shared/cadence';
import { tabForKey, TABS, useUi, type TabId } from '../lib/ui-state';
import { stores, useDns } from '../stores';
import { ClusterPanel } from './ClusterPanel';
import { DiagnosticsPanel } from './DiagnosticsPanel';
import { DiffPanel } from './DiffPanel';
import { DriftBanner } from './DriftBanner';
import { HealthVerdict } from './HealthVerdict';
import { HostDnsPanel } from './HostDnsPanel';
import { LiveRegion } from './LiveRegion';
import { LogsPanel } from './LogsPanel';
import { PanelBoundary } from './PanelBoundary';
import { QueryPanel } from './QueryPanel';
import { TopologyPanel } from './TopologyPanel';
import { ZonesPanel } from './ZonesPanel';

/** Refreshes everything a lifecycle operation may have changed (the doctor findings too: they gate Start and the Engine select). */
function refreshAll(): void {
  void stores.cluster.getState().refresh();
  void stores.dns.getState().refresh();
  void stores.zones.getState().refresh();
  void stores.diff.getState().refresh();
  void stores.query.getState().loadTargets();
  void stores.topology.getState().probe();
  void stores.diagnostics.getState().run();
  void stores.health.getState().check();
}

/** What a status change (from any source) makes stale: the path, the diff, the query targets. */
function onStateChange(): void {
  void stores.topology.getState().probe();
  void stores.health.getState().check();
  void stores.diff.getState().refresh();
  void stores.query.getState().loadTargets();
}

/** The whole window. */
export function App() {
  const tab = useUi((s) => s.tab);
  const setTab = useUi((s) => s.setTab);
  const lastResult = useDns((s) => s.lastResult);
  const version = useDns((s) => s.info?.version);
  const tabRefs = useRef<Partial<Record<TabId, HTMLButtonElement | null>>>({});

  useEffect(() => {
    const offDns = stores.dns.getState().attach();
    // The start-up load first: the watch's first tick then shares its status read (one request
    // for every view's first paint).
    refreshAll();
    // Live state from any source: poll status every CADENCE_MS.status (shared/cadence.ts; the
    // backend answers from its kept status while nothing changed); a status that carries a newer
    // verdict updates the verdict line and the topology.
    const offWatch = stores.dns.getState().watch(CADENCE_MS.status, onStateChange);
    const offHealth = stores.dns.subscribe((s) => {
      if (s.status?.health) {
        stores.health.getState().offer(s.status.health);
        stores.topology.getState().show(s.status.health);
      }
    });
    const offLogs = stores.logs.getState().attach();
    void stores.logs.getState().loadTail();
    return () => {
      offDns();
      offWatch();
      offHealth();
      offLogs();
    };
  }, []);
  // After each operation the host changed: reload every view (the first load is above).
  useEffect(() => {
    if (!lastResult) return;
    refreshAll();
    // A Start creates the proxy log: an empty Logs panel reads it now, so a log this user may
    // not read (group adm) says so instead of staying "No proxy log yet" (the live follower
    // only delivers lines, not read errors).
    const logs = stores.logs.getState();
    if (lastResult.op === 'start' && logs.lines.length === 0) void logs.loadTail();
  }, [lastResult]);
  // Uninstall removes the proxy log: the Logs panel must not keep showing its old rows.
  useEffect(() => {
    if (lastResult?.op === 'uninstall' && lastResult.ok) {
      stores.logs.getState().reset(`Uninstall removed the proxy log (${K2S_PATHS.log}).`);
      void stores.logs.getState().loadTail();
    }
  }, [lastResult]);

  // Arrow keys, Home and End move between tabs and activate them (automatic activation: panels are cheap).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = tabForKey(tab, e.key);
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="app">
      <header className="app-header">
        <h1>K2s DNS</h1>
        <span className="muted">{version ? `v${version}` : ''}</span>
        <button type="button" className="secondary" onClick={refreshAll} data-testid="refresh-all">
          Refresh
        </button>
      </header>
      <LiveRegion />
      <DriftBanner />
      <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`tabpanel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={tab === t.id ? 'tab active' : 'tab'}
            onClick={() => setTab(t.id)}
            data-testid={`tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <main className="content">
        {/* Every tab has its panel element (aria-controls must name an existing id); only the open one is rendered. */}
        {TABS.map((t) => (
          <div key={t.id} role="tabpanel" id={`tabpanel-${t.id}`} aria-labelledby={`tab-${t.id}`} hidden={tab !== t.id} tabIndex={0} data-testid={`tabpanel-${t.id}`}>
            {tab === t.id && (
              <>
        {tab === 'overview' && <PanelBoundary name="Verdict"><HealthVerdict /></PanelBoundary>}
        {tab === 'overview' && (
          <div className="grid-2">
            <PanelBoundary name="Cluster"><ClusterPanel /></PanelBoundary>
            <PanelBoundary name="Host DNS"><HostDnsPanel /></PanelBoundary>
          </div>
        )}
        {tab === 'zones' && <PanelBoundary name="Zones"><ZonesPanel /></PanelBoundary>}
        {tab === 'diff' && <PanelBoundary name="Resolver diff"><DiffPanel /></PanelBoundary>}
        {tab === 'logs' && <PanelBoundary name="Logs"><LogsPanel /></PanelBoundary>}
        {tab === 'query' && <PanelBoundary name="Query tester"><QueryPanel /></PanelBoundary>}
        {tab === 'topology' && <PanelBoundary name="Topology"><TopologyPanel /></PanelBoundary>}
        {tab === 'diagnostics' && <PanelBoundary name="Diagnostics"><DiagnosticsPanel /></PanelBoundary>}
              </>
            )}
          </div>
        ))}
      </main>
    </div>
  );
}
