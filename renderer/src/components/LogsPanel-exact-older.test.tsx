/**
 * Issue #20, the whole exact log, in the Queries view: "Load older rows" where "Load older lines"
 * is for the engine log, the paged rows above the newest ones, and "Start of the exact query
 * log" only once a page reached its first row. Rendered to markup with the stores mocked.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';

const state = vi.hoisted(() => ({
  lines: [] as unknown[],
  queries: [] as unknown[],
  owners: [] as unknown[],
  pending: [] as unknown[],
  paused: false,
  view: 'queries',
  levels: {},
  text: '',
  queryText: '',
  rcode: '',
  route: '',
  showProbes: false,
  cleared: null as string | null,
  error: null as string | null,
  search: null,
  older: null as unknown,
  atStart: false,
  history: 0,
  loadingOlder: false,
  clusterZones: [] as string[],
  exact: null as unknown,
  exactOlder: [] as unknown[],
  exactAtStart: false,
  loadingOlderExact: false,
  loadOlderExact: async () => undefined,
  loadOlderMatches: async () => undefined,
  loadExact: async () => undefined,
  loadTail: async () => undefined,
  loadOlder: async () => undefined,
  setPaused: () => undefined,
  setView: () => undefined,
  setShowProbes: () => undefined,
  setQueryFilter: () => undefined,
  runSearch: async () => undefined,
}));
vi.mock('../stores', () => ({
  useLogs: (sel: (s: typeof state) => unknown) => sel(state),
  useZones: (sel: (s: { discovery: null }) => unknown) => sel({ discovery: null }),
  useDns: (sel: (s: { status: null }) => unknown) => sel({ status: null }),
}));

import { LogsPanel } from './LogsPanel';

const text = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
const row = (n: number) => ({ key: `k${n}`, engine: 'adguard', time: null, client: '127.0.0.1:4000', name: `e${n}.test`, type: 'A', route: 'cache', zone: null, upstream: null, answers: [], rcode: 'NOERROR', error: null, latencyMs: 0.1, protocol: 'udp', run: 0, probe: false, mixed: false });
const files = ['/var/log/dnsproxy/queries.jsonl.1', '/var/log/dnsproxy/queries.jsonl'];
const render = () => renderToStaticMarkup(<LogsPanel />);
const count = (html: string) => /data-testid="logs-query-count">([^<]*)</.exec(html)?.[1];

describe('LogsPanel Queries view: the older rows of the exact query log', () => {
  it('older rows not held: a "Load older rows" button where "Load older lines" is, no start line', () => {
    Object.assign(state, { exact: { available: true, reason: null, rows: [row(3), row(4)], complete: false, files, oldestUs: 3 }, exactOlder: [], exactAtStart: false });
    const html = render();
    expect(html).toMatch(/<div class="row lv-older"><button type="button" class="secondary" data-testid="logs-older-rows">Load older rows<\/button><\/div>/);
    expect(text(html)).not.toContain('Start of the exact query log');
    expect(text(html)).not.toContain('not held here');
  });

  it('while a page loads the button says so and is disabled', () => {
    Object.assign(state, { loadingOlderExact: true });
    expect(render()).toMatch(/<button type="button" class="secondary" disabled="" data-testid="logs-older-rows">Loading older rows…<\/button>/);
    state.loadingOlderExact = false;
  });

  it('paged rows are held above the newest ones and counted; the start reached: "Start of the exact query log", no button', () => {
    Object.assign(state, { exact: { available: true, reason: null, rows: [row(3), row(4)], complete: false, files, oldestUs: 3 }, exactOlder: [row(1), row(2)], exactAtStart: true });
    const html = render();
    expect(count(html)).toBe('4 queries');
    expect(text(html)).toContain('Start of the exact query log');
    expect(html).not.toContain('logs-older-rows');
  });

  it('paged rows but not at the start: the count holds them and the button stays', () => {
    Object.assign(state, { exactAtStart: false });
    const html = render();
    expect(count(html)).toBe('4 queries');
    expect(html).toContain('Load older rows');
  });
});

describe('LogsPanel Queries view: a filter\'s older matches and what counts as a problem (walk5 M2)', () => {
  const search = { matches: 2362, truncated: true, bytesScanned: 3 << 20, files, tookMs: 125 };
  it('a filter with older matches left out says how many are shown of how many and offers "Load older matches"', () => {
    Object.assign(state, { queryText: 'kubernetes', exact: { available: true, reason: null, rows: [row(9)], complete: false, files, oldestUs: 9 }, exactOlder: [], exactAtStart: false, search: { text: 'kubernetes', loading: false, result: null, log: null, error: null, exact: { available: true, reason: null, rows: [row(3), row(4)], oldestUs: 3, search } } });
    const html = render();
    expect(text(html)).toContain('2362 matching queries in the exact query log (queries.jsonl.1, queries.jsonl: 3.0 MiB searched in 125 ms); showing the newest 2');
    expect(html).toMatch(/data-testid="logs-older-matches-bar"><span class="muted">Showing the newest 2 of 2362 matching queries\.<\/span><button type="button" class="secondary" data-testid="logs-older-matches">Load older matches<\/button>/);
    // The unfiltered view's button is not offered for a search.
    expect(html).not.toContain('logs-older-rows');
    state.search = { ...(state.search as unknown as object), exact: { available: true, reason: null, rows: [row(1), row(2), row(3), row(4)], oldestUs: 1, search: { ...search, truncated: false } } } as never;
    expect(render()).not.toContain('logs-older-matches');
    Object.assign(state, { queryText: '', search: null });
  });

  it('problems only: a search-list expansion answered NXDOMAIN is not listed, and the count says how many were left out', () => {
    const at = (n: number, over: object) => ({ ...row(n), time: '2026-12-04T19:02:00.000000', search: ['example.test'], ...over });
    const rows = [
      at(1, { name: 'web.demo', type: 'AAAA', client: '127.0.0.1:41000' }),
      at(2, { name: 'web.demo.example.test', type: 'AAAA', client: '127.0.0.1:41001', rcode: 'NXDOMAIN' }),
      at(3, { name: 'kubernetes.default.svc.cluster.local', client: '127.0.0.1:41002', rcode: 'SERVFAIL' }),
    ];
    Object.assign(state, { rcode: 'problems', exact: { available: true, reason: null, rows, complete: true, files, oldestUs: 1 } });
    // (The rows are virtualized: none render to static markup; lib/problem-rows.test.ts checks the red mark.)
    expect(count(render())).toBe('1 of 3 queries · 1 search-list NXDOMAIN not counted (glibc trying the next search domain)');
    // With the NXDOMAIN filter it is listed (the user asked for NXDOMAINs), and nothing is said of it.
    state.rcode = 'NXDOMAIN';
    expect(count(render())).toBe('1 of 3 queries');
    state.rcode = '';
  });

  // Walk 6 L6: "802 matching queries in the exact query log (…)" above "18 matching queries shown".
  it('a search with the Response or Route filter on: one count, of the rows that pass every filter', () => {
    const found = [row(1), { ...row(2), rcode: 'SERVFAIL' }, { ...row(3), rcode: 'SERVFAIL', route: 'upstream' }, row(4)];
    const searchOf = (over: object) => ({ text: 'e', loading: false, result: null, log: null, error: null, exact: { available: true, reason: null, rows: found, oldestUs: 1, search: { text: 'e', matches: 4, truncated: false, bytesScanned: 2.2 * 2 ** 20, files: ['/var/log/dnsproxy/queries.jsonl'], tookMs: 98, ...over } } });
    Object.assign(state, { queryText: 'e', rcode: 'problems', exact: { available: true, reason: null, rows: found, complete: true, files, oldestUs: 1 }, search: searchOf({}) });
    let html = render();
    expect(/data-testid="logs-search-count"[^>]*>([^<]*)</.exec(html)?.[1]).toBe('2 matching queries (Response: problems only) in the exact query log (queries.jsonl: 2.2 MiB searched in 98 ms)');
    expect(count(html)).toBe('2 matching queries shown');
    expect(text(html)).not.toContain('4 matching queries');
    // Both filters.
    state.route = 'upstream';
    html = render();
    expect(/data-testid="logs-search-count"[^>]*>([^<]*)</.exec(html)?.[1]).toBe('1 matching query (Response: problems only, Route: upstream) in the exact query log (queries.jsonl: 2.2 MiB searched in 98 ms)');
    expect(count(html)).toBe('1 matching query shown');
    // The search held only the newest of its text matches: the count is of those, and says so.
    Object.assign(state, { route: '', search: searchOf({ matches: 5120, truncated: true }) });
    expect(/data-testid="logs-search-count"[^>]*>([^<]*)</.exec(render())?.[1]).toBe('2 matching queries (Response: problems only) among the newest 4 of 5,120 with “e” in the exact query log (queries.jsonl: 2.2 MiB searched in 98 ms)');
    // No filter: the text's matches, as before.
    Object.assign(state, { rcode: '', search: searchOf({}) });
    expect(/data-testid="logs-search-count"[^>]*>([^<]*)</.exec(render())?.[1]).toBe('4 matching queries in the exact query log (queries.jsonl: 2.2 MiB searched in 98 ms)');
    Object.assign(state, { queryText: '', search: null, exact: null });
  });
});

