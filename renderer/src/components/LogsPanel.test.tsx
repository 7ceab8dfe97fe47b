/**
 * The Logs panel when the proxy log cannot be read (a desktop user outside group adm): it shows
 * the backend's sentence with the fix, not "No proxy log yet". Rendered to markup with the stores
 * mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { readFileSync } from 'node:fs';
import { parseLogLine } from '../../../shared/log-line';
import { QueryLogBuilder } from '../../../shared/query-log/builder';
import { timeText } from '../../../shared/clock';

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
  exactOlder: [] as unknown[],
  exactAtStart: false,
  loadingOlderExact: false,
  loadOlderExact: async () => undefined,
  loadTail: async () => undefined,
  loadOlder: async () => undefined,
  setPaused: () => undefined,
  setView: () => undefined,
  setShowProbes: () => undefined,
  runSearch: async () => undefined,
}));
const dnsEngine = vi.hoisted(() => ({ engine: null as string | null, logQueries: undefined as false | undefined }));
vi.mock('../stores', () => ({
  useLogs: (sel: (s: typeof state) => unknown) => sel(state),
  useZones: (sel: (s: { discovery: null }) => unknown) => sel({ discovery: null }),
  useDns: (sel: (s: { status: { engine: string; logQueries?: false } | null }) => unknown) => sel({ status: dnsEngine.engine ? { engine: dnsEngine.engine, ...(dnsEngine.logQueries === false ? { logQueries: false as const } : {}) } : null }),
}));

import { LogsPanel } from './LogsPanel';
import { noRowsText } from '../../../electron/cli/print-queries';
import { logReadError } from '../../../electron/core/logs/tail';

const text = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

describe('LogsPanel with an unreadable log', () => {
  it('shows why and the fix (group adm, or sudo), not "No proxy log yet"', () => {
    // The sentence the backend sends for EACCES (electron/core/logs/tail.ts).
    state.error = logReadError('/var/log/dnsproxy/dnsproxy.log', Object.assign(new Error('EACCES'), { code: 'EACCES' })).message;
    const html = renderToStaticMarkup(<LogsPanel />);
    const shown = text(html);
    expect(/data-testid="logs-error">(.*?)<\/p>/.exec(html)?.[1]).toBe('Cannot read the proxy log /var/log/dnsproxy/dnsproxy.log: permission denied (it is readable by root and the group adm only). Add your user to adm (<code>sudo usermod -aG adm $USER</code>, then log out and in again), or read it as root (<code>sudo tail -f /var/log/dnsproxy/dnsproxy.log</code>).');
    expect(shown).not.toContain('`');
    expect(shown).not.toContain('No proxy log yet');
  });

  it('neither the exact query log nor the proxy log readable (new user outside adm): one line naming both, the fix as code, no "Shown:" claim, no probe count', () => {
    state.error = logReadError('/var/log/dnsproxy/dnsproxy.log', Object.assign(new Error('EACCES'), { code: 'EACCES' })).message;
    Object.assign(state, { view: 'queries', exact: { available: false, reason: "The exact query log /var/log/dnsproxy/queries.jsonl is not readable by this user (root and the adm group read it, like the proxy log): be in the group adm (`sudo usermod -aG adm $USER`, then log out and in again), or run it as root: `sudo k2s-dns queries`. Shown: the engine's own query log.", unreadable: '/var/log/dnsproxy/queries.jsonl', rows: [] } });
    try {
      const html = renderToStaticMarkup(<LogsPanel />);
      const alert = /data-testid="logs-error">(.*?)<\/p>/.exec(html)?.[1] ?? '';
      expect(alert.replace(/&#x27;/g, "'")).toBe('Cannot read the exact query log /var/log/dnsproxy/queries.jsonl nor the proxy log /var/log/dnsproxy/dnsproxy.log: permission denied (both are readable by root and the group adm only). Add your user to adm (<code>sudo usermod -aG adm $USER</code>, then log out and in again), or read it as root (<code>sudo tail -f /var/log/dnsproxy/dnsproxy.log</code>).');
      expect(html).not.toContain('data-testid="logs-exact"');
      expect(text(html)).not.toContain('Shown:');
      expect(text(html)).not.toContain('`');
      expect(html).toMatch(/data-testid="logs-show-probes"\/> show k2s-dns health probes<\/label>/);
    } finally {
      Object.assign(state, { exact: undefined });
    }
  });

  it('no error, no lines: the "No proxy log yet" state', () => {
    state.error = null;
    expect(text(renderToStaticMarkup(<LogsPanel />))).toContain('No proxy log yet.');
  });
});

describe('LogsPanel: the top of the list says where the log starts', () => {
  const line = { time: null, level: 'INFO', message: 'm', fields: {}, raw: 'm' };
  const bar = () => {
    state.error = null;
    state.view = 'raw';
    state.lines = [line];
    state.owners = [null];
    return text(renderToStaticMarkup(<LogsPanel />));
  };

  it('"Start of the log" only when the first line of the oldest file is held', () => {
    state.older = null;
    state.atStart = true;
    expect(bar()).toContain('Start of the log');
  });

  it('no cursor but not at the start (a long-open window cut its oldest lines): says so and offers a reload', () => {
    state.older = null;
    state.atStart = false;
    state.history = 0;
    const shown = bar();
    expect(shown).not.toContain('Start of the log');
    expect(shown).toContain('Older lines are in the log but no longer held here (this window keeps the newest 5,000 lines)');
    expect(shown).toContain('Reload the log');
  });

  it('the history cap reached: older lines exist, the filter finds them', () => {
    state.older = null;
    state.atStart = false;
    state.history = 100_000;
    const shown = bar();
    expect(shown).not.toContain('Start of the log');
    expect(shown).toContain('this window keeps at most 100,000 older lines): the filter searches the whole log.');
  });

  it('a cursor: the button', () => {
    state.older = { ino: 1, offset: 10 };
    expect(bar()).toContain('Load older lines');
  });
});

describe('LogsPanel raw view: what it counts and hides (third walk)', () => {
  const probeRow = { key: 'q0', engine: 'adguard', time: null, client: null, name: 'KUBERNETES.DEFAULT.svc.cluster.local', type: 'A', route: null, zone: null, upstream: null, answers: [], rcode: 'SERVFAIL', error: 'i/o timeout', latencyMs: null, protocol: null, run: 0, probe: true, mixed: false };
  const rawCount = () => /data-testid="logs-count">([^<]*)</.exec(renderToStaticMarkup(<LogsPanel />))?.[1]?.replace(/&#x27;/g, "'");
  const reset = () => Object.assign(state, { view: 'raw', error: null, older: null, atStart: true, lines: [], owners: [], queries: [], exact: undefined, clusterZones: [] });

  it('an engine ERROR line of a probe\'s query stays shown; only the probe\'s DEBUG line is hidden', () => {
    reset();
    const debug = { time: null, level: 'DEBUG', message: 'sending request', fields: { qname: 'KUBERNETES.DEFAULT.svc.cluster.local.' }, raw: 'sending request' };
    const error = { time: null, level: 'ERROR', message: 'exchange failed', fields: { err: 'i/o timeout' }, raw: 'exchange failed' };
    Object.assign(state, { lines: [debug, error], owners: [probeRow, probeRow], queries: [probeRow] });
    expect(rawCount()).toBe('1 of 2 lines (1 query) · 1 health probe line hidden');
  });

  it('"N health probe lines hidden" counts only probe lines the level and text filters would show (issue 20 low: it counted every probe line held)', () => {
    reset();
    const probe = (n: number) => ({ time: null, level: 'DEBUG', message: 'sending request', fields: { qname: 'KUBERNETES.DEFAULT.svc.cluster.local.', n: String(n) }, raw: 'sending request' });
    const info = { time: null, level: 'INFO', message: 'listening to udp', fields: {}, raw: 'listening to udp' };
    Object.assign(state, { lines: [probe(1), probe(2), probe(3), info], owners: [probeRow, probeRow, probeRow, null], queries: [probeRow] });
    expect(rawCount()).toBe('1 of 4 lines (1 query) · 3 health probe lines hidden');
    try {
      // A text filter no probe line matches: none would appear with the box ticked.
      state.text = 'listening';
      expect(rawCount()).toBe('1 of 4 lines (1 query)');
      // One probe line matches the filter.
      state.text = 'n=2';
      expect(rawCount()).toBe('0 of 4 lines (1 query) · 1 health probe line hidden');
      // Query lines off: the probe lines are hidden by their category, not for being probes.
      state.text = '';
      state.levels = { QUERY: false };
      expect(rawCount()).toBe('1 of 4 lines (1 query)');
    } finally {
      state.text = '';
      state.levels = {};
    }
  });

  it('AdGuard without -v: its `ERROR exchange failed … question=…` lines are shown but are no query lines, so the count is 0 queries (issue 20 low)', () => {
    reset();
    // The real dnsproxy v0.83.1 log of two upstream failures, assembled as the store does.
    const lines = readFileSync(new URL('../../../fixtures/logs/dnsproxy-quiet.log', import.meta.url), 'utf8').trimEnd().split('\n').map((l) => parseLogLine(l));
    const b = new QueryLogBuilder();
    b.push(lines);
    expect(b.rows().map((r) => r.name)).toEqual(['slow.timeout.test', 'any.refused.test']);
    Object.assign(state, { lines, owners: b.lineRows(), queries: b.rows() });
    expect(rawCount()).toBe('16 lines (0 queries)');
    // With the exact query log in use the count says where the queries are.
    Object.assign(state, { exact: { available: true, reason: null, rows: [], complete: true } });
    expect(rawCount()).toBe('16 lines (no query lines: the queries are in the exact query log, in the Queries view)');
  });

  it('AdGuard with -v: each query counts once, its exchange failed line included', () => {
    reset();
    const lines = readFileSync(new URL('../../../fixtures/logs/dnsproxy-verbose.log', import.meta.url), 'utf8').trimEnd().split('\n').map((l) => parseLogLine(l));
    const b = new QueryLogBuilder();
    b.push(lines);
    Object.assign(state, { lines, owners: b.lineRows(), queries: b.rows(), showProbes: true });
    expect(rawCount()).toBe(`${lines.length} lines (${b.rows().length} queries)`);
    state.showProbes = false;
  });

  it('with the exact query log in use and no query line in dnsproxy.log: says where the queries are, does not count the exact rows', () => {
    reset();
    const info = { time: null, level: 'INFO', message: 'listening to udp', fields: {}, raw: 'listening to udp' };
    Object.assign(state, { lines: [info], owners: [null], queries: [], exact: { available: true, reason: null, rows: [{ ...probeRow, probe: false, name: 'www.example.test' }], complete: true } });
    expect(rawCount()).toBe('1 line (no query lines: the queries are in the exact query log, in the Queries view)');
  });

  it('the probes box names what it counts in each view: dnsproxy.log\'s probe lines in Raw, the exact log\'s probe queries in Queries (walk: 87 vs 108 for one fact)', () => {
    reset();
    const label = () => /data-testid="logs-probes-label"[^>]*>(.*?)<\/label>/.exec(renderToStaticMarkup(<LogsPanel />))![1]!.replace(/<[^>]*>/g, '').trim();
    const probe = (n: number) => ({ time: null, level: 'DEBUG', message: 'sending request', fields: { qname: 'KUBERNETES.DEFAULT.svc.cluster.local.', n: String(n) }, raw: 'sending request' });
    const info = { time: null, level: 'INFO', message: 'listening to udp', fields: {}, raw: 'listening to udp' };
    const exactProbes = Array.from({ length: 5 }, (_, i) => ({ ...probeRow, key: `cap-${i}` }));
    Object.assign(state, { lines: [probe(1), probe(2), info], owners: [probeRow, probeRow, null], queries: [probeRow], exact: { available: true, reason: null, rows: [...exactProbes, { ...probeRow, key: 'cap-x', probe: false, name: 'www.example.test' }], complete: true } });
    // Raw: the 2 probe lines the box hides in dnsproxy.log, not the exact log's 5 probe queries.
    expect(label()).toBe('show k2s-dns health probes (2 lines of dnsproxy.log)');
    expect(rawCount()).toBe('1 of 3 lines (1 query) · 2 health probe lines hidden');
    // Ticked: the same number (the lines the box adds).
    state.showProbes = true;
    expect(label()).toBe('show k2s-dns health probes (2 lines of dnsproxy.log)');
    state.showProbes = false;
    state.view = 'queries';
    expect(label()).toBe('show k2s-dns health probes (5 queries of the exact query log)');
    // Walk 10 L9: the file dnsmasq writes is the same dnsproxy.log, said with the engine that writes
    // it now while no run is shown; walk 11 L13: never as one engine's file (it holds every run).
    state.view = 'raw';
    dnsEngine.engine = 'dnsmasq';
    expect(label()).toBe('show k2s-dns health probes (2 lines of dnsproxy.log, written by dnsmasq now)');
    dnsEngine.engine = null;
    state.view = 'queries';
    // Without the exact log: the queries built from dnsproxy.log's lines.
    Object.assign(state, { exact: undefined });
    expect(label()).toBe('show k2s-dns health probes (1 query)');
    state.view = 'raw';
  });
});


describe('LogsPanel queries view: the exact log says what it missed', () => {
  it('packets the kernel dropped while the proxy was busy are said above the list, in local time; nothing when none', () => {
    Object.assign(state, { view: 'queries', error: null, older: null, atStart: true, lines: [], owners: [], queries: [], clusterZones: [], exact: { available: true, reason: null, rows: [], complete: true } });
    try {
      expect(renderToStaticMarkup(<LogsPanel />)).not.toContain('logs-exact-missed');
      const since = '2026-12-05T07:40:12.000Z';
      Object.assign(state, { exact: { available: true, reason: null, rows: [], complete: true, missed: `missed 1200 packets since ${since} while the proxy was busy (it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS)` } });
      const shown = /data-testid="logs-exact-missed">([^<]*)</.exec(renderToStaticMarkup(<LogsPanel />))?.[1];
      expect(shown).toBe(` It missed 1200 packets since ${timeText(Date.parse(since))} while the proxy was busy (it runs at idle priority, its parser takes at most 5 % of one core, and it yields the CPU to DNS).`);
    } finally {
      Object.assign(state, { view: 'raw', exact: undefined });
    }
  });
});

describe('LogsPanel queries view: a running K2s DNS that logs no query (walk 24)', () => {
  it('says so in one line above the rows, and that the rows are from an earlier run; nothing while it logs them', () => {
    const row = { key: 'r1', time: '2026-12-05T07:40:12.000Z', client: '127.0.0.1:40000', protocol: 'udp', name: 'example.com', type: 'A', upstream: '192.0.2.53:53', answers: ['93.184.215.14'], rcode: 'NOERROR', latencyMs: 3, engine: 'adguard', probe: false };
    Object.assign(state, { view: 'queries', error: null, older: null, atStart: true, lines: [], owners: [], queries: [], clusterZones: [], exact: { available: true, reason: null, rows: [row], complete: true } });
    Object.assign(dnsEngine, { engine: 'adguard', logQueries: false });
    try {
      const html = renderToStaticMarkup(<LogsPanel />);
      expect(/data-testid="logs-not-logging">([^<]*)</.exec(html)?.[1]).toBe('The running K2s DNS was started with query logging off: it logs no query; the rows shown are from an earlier run. To log queries, press Stop, then Start.');
      // Above the rows.
      expect(html.indexOf('logs-not-logging')).toBeLessThan(html.indexOf('logs-query-head'));
      dnsEngine.logQueries = undefined;
      expect(renderToStaticMarkup(<LogsPanel />)).not.toContain('logs-not-logging');
    } finally {
      Object.assign(state, { view: 'raw', exact: undefined });
      Object.assign(dnsEngine, { engine: null, logQueries: undefined });
    }
  });
});

describe('LogsPanel queries view: an exact query log with no row yet says what `k2s-dns queries` says (one shared function)', () => {
  const info = { time: null, level: 'INFO', message: 'listening to udp', fields: {}, raw: 'listening to udp' };
  const shown = () => text(/data-testid="logs-no-queries">(.*?)<\/div>/.exec(renderToStaticMarkup(<LogsPanel />))?.[1] ?? '').trim();
  it("the file, when a row comes and the window's way; the CLI the same facts with its own way", () => {
    Object.assign(state, { view: 'queries', error: null, older: null, atStart: true, lines: [info], owners: [null], queries: [], clusterZones: [], exact: { available: true, reason: null, rows: [], complete: true } });
    try {
      expect(shown()).toBe('No queries logged yet. /var/log/dnsproxy/queries.jsonl exists but holds no query yet; a row reaches it up to 1 s after its answer (later while the host is busy: the capture runs at idle priority); resolve a name on this host or use the Query tester tab: it shows here by itself.');
      expect(noRowsText()).toBe('No queries logged yet: /var/log/dnsproxy/queries.jsonl exists but holds no query yet; a row reaches it up to 1 s after its answer (later while the host is busy: the capture runs at idle priority); ask a name, then run npx k2s-dns queries again.');
      // A full /var/log/dnsproxy: free space there, never "resolve a name".
      Object.assign(state, { exact: { available: true, reason: null, rows: [], complete: true, unwritten: '12 rows not written (no space left on /var/log/dnsproxy)' } });
      expect(shown()).toBe('No queries logged yet. /var/log/dnsproxy/queries.jsonl exists but holds no query: the capture cannot write rows while the file system that holds /var/log/dnsproxy is full (no space left); free space on the file system that holds /var/log/dnsproxy ( df -h /var/log/dnsproxy in a terminal names it and how full it is): rows show here by themselves then.');
    } finally {
      Object.assign(state, { view: 'raw', exact: undefined, lines: [], owners: [] });
    }
  });
});


describe('LogsPanel queries view: a key to the +search mark and the red and grey NXDOMAINs (new user: none)', () => {
  it('below the rows, each sample with words that say it without colour', () => {
    const row = { key: 'r1', time: '2026-12-05T07:40:12.000Z', client: '127.0.0.1:40000', protocol: 'udp', name: 'example.com', type: 'A', upstream: '192.0.2.53:53', answers: ['93.184.215.14'], rcode: 'NOERROR', latencyMs: 3, engine: 'adguard', probe: false };
    Object.assign(state, { view: 'queries', error: null, older: null, atStart: true, lines: [], owners: [], queries: [], clusterZones: [], exact: { available: true, reason: null, rows: [row], complete: true } });
    try {
      const html = renderToStaticMarkup(<LogsPanel />);
      const legend = /data-testid="logs-query-legend"[^>]*>(.*?)<\/p>/.exec(html)?.[1] ?? '';
      expect(html.indexOf('logs-query-legend')).toBeGreaterThan(html.indexOf('logs-query-list'));
      expect(text(legend).trim()).toBe(
        '+search after a name: the client asked the shorter name and its resolver appended a search domain (resolv.conf search ); hover the name for the full name asked ( k2s-dns queries prints that full name, with no mark) ' +
          'NXDOMAIN in red, bold (also SERVFAIL, REFUSED; the row tinted): a problem — no such name, or no answer the proxy could get ' +
          'NXDOMAIN in grey, plain, on a +search row: glibc trying its next search domain, no problem (the problems filter leaves it out)',
      );
      // The samples carry the rows' look: the mark's class, a red and a grey rcode.
      expect(legend).toContain('class="dns-name-search">+search<');
      expect(legend).toContain('class="lv-legend-bad">NXDOMAIN<');
      expect(legend).toContain('class="lv-legend-calm">NXDOMAIN<');
    } finally {
      Object.assign(state, { view: 'raw', exact: undefined });
    }
  });
});
