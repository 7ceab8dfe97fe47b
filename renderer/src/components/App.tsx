/** App shell: header, tabs (WAI-ARIA tabs pattern), the live region, and the data wiring (initial loads, push subscriptions); the token screen instead when a web-mode tab cannot reach the app. */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { UNINSTALL_CLEARED_LOGS } from '../lib/uninstall-logs';
import { CADENCE_MS } from '../../../shared/cadence';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { tabForKey, TABS, useUi, type TabId } from '../lib/ui-state';
import { stores, useDns } from '../stores';
import { offerHealth, startUp } from '../stores/start-up';
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
import { TokenScreen } from './TokenScreen';
import { pageBadToken, pageWithoutToken } from '../api';

/** Loads every view but the host status and the verdict: cluster, zones, diff, query targets, the doctor (its findings gate Start and the Engine select). */
function loadViews(): void {
  void stores.cluster.getState().refresh();
  void stores.zones.getState().refresh();
  void stores.diff.getState().refresh();
  void stores.query.getState().loadTargets();
  void stores.diagnostics.getState().run();
}

/** Refreshes everything a lifecycle operation may have changed, with a fresh path check (Refresh, after an operation). */
function refreshAll(): void {
  void stores.dns.getState().refresh();
  loadViews();
  void stores.topology.getState().probe();
  void stores.health.getState().check();
}

/** True when `next` holds a successful uninstall's result that `prev` did not (timeline events, any window's). */
export function uninstallDoneIn(next: readonly LifecycleEvent[], prev: readonly LifecycleEvent[]): boolean {
  const seen = new Set(prev);
  return next.some((e) => !seen.has(e) && e.type === 'result' && e.op === 'uninstall' && e.ok);
}

let started: Promise<void> | null = null;
/**
 * The window's start-up load (stores/start-up.ts: one status read first, then the views), once
 * per page: main.tsx calls it before React renders, so the status request is on its way while the
 * first render runs; the App's mount effect calls it again and joins that.
 */
export function startUpOnce(): Promise<void> {
  return (started ??= startUp(stores, () => {
    loadViews();
    void stores.logs.getState().loadTail();
  }));
}

/** What a status change (from any source) makes stale: the path, the diff, the query targets. */
function onStateChange(): void {
  void stores.topology.getState().probe();
  void stores.health.getState().check();
  void stores.diff.getState().refresh();
  void stores.query.getState().loadTargets();
}

/**
 * The whole window: the token screen when this web-mode tab has no token or a refused one
 * (nothing else would work: every call is 401), else the app.
 */
export function App() {
  const tokenRefused = useDns((s) => s.tokenRefused);
  if (pageWithoutToken || tokenRefused) return <TokenScreen trouble={pageWithoutToken ? (pageBadToken !== null ? 'wrong' : 'missing') : 'refused'} origin={location.origin} given={pageBadToken} />;
  return <AppWindow />;
}

/** The app: header, tabs, panels and their data wiring. */
function AppWindow() {
  const tab = useUi((s) => s.tab);
  const setTab = useUi((s) => s.setTab);
  const lastResult = useDns((s) => s.lastResult);
  const version = useDns((s) => s.info?.version);
  const tabRefs = useRef<Partial<Record<TabId, HTMLButtonElement | null>>>({});

  useEffect(() => {
    const offDns = stores.dns.getState().attach();
    // The start-up load first (one status read, then the views): the watch's first tick then
    // shares its status read.
    void startUpOnce();
    // Live state from any source: poll status every CADENCE_MS.status (shared/cadence.ts; the
    // backend answers from its kept status while nothing changed); a status that carries a newer
    // verdict updates the verdict line and the topology.
    const offWatch = stores.dns.getState().watch(CADENCE_MS.status, onStateChange);
    const offHealth = stores.dns.subscribe((s) => offerHealth(stores, s.status?.health));
    // A status read that answered before this subscription (start-up's, sent before the render).
    offerHealth(stores, stores.dns.getState().status?.health);
    const offLogs = stores.logs.getState().attach();
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
  // Uninstall removes the logs: no window may keep showing its old rows, whichever window
  // (or the CLI, seen through the status journal) ran it: every window hears its result.
  useEffect(
    () =>
      stores.dns.subscribe((s, prev) => {
        if (s.events === prev.events || !uninstallDoneIn(s.events, prev.events)) return;
        stores.logs.getState().reset(UNINSTALL_CLEARED_LOGS);
        void stores.logs.getState().loadTail();
      }),
    [],
  );

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
        <button type="button" className="secondary" onClick={refreshAll} title="Read every panel again: status, cluster, zones, diff, the verdict" data-testid="refresh-all">
          Check all again
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
