/**
 * Logs panel. Query view: one row per DNS query built from the proxy's log lines
 * (shared/query-log.ts), filterable by name, rcode and route, problems highlighted. Raw view: the
 * lines as written, full messages wrapped, categories (QUERY apart from DEBUG), a separator per
 * proxy run. Both lists are virtualized and follow new lines like `tail -f`.
 */
import { DnsName } from './DnsName';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ENGINES } from '../../../shared/engines/table';
import { filterQueries, type QueryRoute, type QueryRow } from '../../../shared/query-log';
import { CATEGORIES, formatLogTime, lineCategory as lineCategoryOf, lineMatches } from '../lib/log-filter';
import { plural, queriesInLines, queryCountText, rawCountText } from '../lib/log-counts';
import { logFileWords, rawRows, rowLines, type RawRow } from '../lib/log-rows';
import { ROUTE_LABEL, routeOptions } from '../lib/route-options';
import { EMPTY_VIEW } from '../lib/query-buffer';
import { searchExpansions, type SearchExpansion } from '../lib/search-expansion';
import { QueryLegend } from './QueryLegend';
import { isSearchNxdomain, isShownProblem } from '../lib/problem-rows';
import { logStartText } from '../lib/log-start';
import { hidesAsProbeLine } from '../../../shared/health-probe';
import { exactFilteredCountText, exactSearchCountText, queryFilterWords, searchCountText } from '../lib/log-counts';
import type { LogLine, LogSearch } from '../../../shared/types';
import { useDns, useLogs } from '../stores';
import { notLoggingLine } from '../lib/not-logging';
import { EXACT_POLL_MS, MAX_EXACT_HISTORY, MAX_HISTORY_LINES, MAX_LOG_LINES, type LogsSearchState } from '../stores/logs';
import { usePoll } from '../lib/use-poll';
import './logs-panel.css';
import { routeExactRows, type ExactQueryLog } from '../../../shared/query-log/exact';
import { noRowsWords } from '../../../shared/query-log/no-rows';
import { RichText } from './RichText';
import { unreadableLogsLine } from '../lib/unreadable-logs';
import { localTimes } from '../../../shared/clock';
import { runBoundary, runBoundaryLine } from '../../../shared/query-log/run-boundary';

/** Why a row is marked ≈ (QueryRow.mixed, shared/query-log.ts). */
const MIXED_TITLE = 'dnsproxy logged this query at the same moment as another and its log names no request, so the client, answer or rcode shown may be the other query’s';

/** The Response select's words for its values that are no rcode (the others show the rcode itself). */
const RCODE_LABEL: Record<string, string> = { problems: 'problems only', none: 'no reply' };

const QUERY_ROW_PX = 28;
/** Height of the line above a K2s DNS run's first row (shared/query-log/run-boundary.ts), in the same virtual item as the row. */
const RUN_LINE_PX = 24;
const RAW_ROW_PX = 22;

/** True when the list is scrolled to (within one row of) its bottom. */
function atBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= QUERY_ROW_PX;
}


/** `0.13 ms`, `4.7 ms`, `4.00 s`; `—` when not measurable. */
function latencyText(ms: number | null): string {
  if (ms === null) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms < 1 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`;
}

/**
 * The "nothing logged yet" state: what to do to see lines; `cleared` says why the log is gone
 * (e.g. Uninstall). `error`: the log could not be read (e.g. a user outside group adm): that,
 * with its fix, instead of claiming there is no log.
 */
function EmptyState({ cleared, error }: { cleared: string | null; error: string | null }) {
  if (error) {
    return (
      <div className="lv-empty" data-testid="logs-empty">
        <p className="error-text" role="alert" data-testid="logs-error"><RichText text={error} /></p>
      </div>
    );
  }
  return (
    <div className="lv-empty" data-testid="logs-empty">
      {cleared && <p data-testid="logs-cleared"><strong>{cleared}</strong></p>}
      <p><strong>{cleared ? 'The log is empty.' : 'No proxy log yet.'}</strong></p>
      <p>Start K2s DNS on the Overview tab; the proxy writes a line for each query and its lines appear here as they are written.</p>
      <p className="muted">Then resolve a name on this host, or use the Query tester tab, to see it in the query log.</p>
    </div>
  );
}

/** How long typing pauses before the whole-log search runs, ms. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * Older lines: a button at the top of the list and loading on scroll to the top; keeps the
 * row that was first in view where it was when a page is prepended.
 */
function useOlder(firstKey: string | undefined, keys: () => string[], scrollToIndex: (i: number) => void) {
  const { older, atStart, logFiles, history, loadingOlder, loadOlder, loadTail, exactAtStart, exactOlder, loadingOlderExact, loadOlderExact, loadOlderMatches } = useLogs((s) => s);
  const anchor = useRef<string | null>(null);
  useEffect(() => {
    if (anchor.current === null || firstKey === anchor.current) return;
    const at = keys().indexOf(anchor.current);
    anchor.current = null;
    if (at > 0) scrollToIndex(at);
  }, [firstKey, keys, scrollToIndex]);
  const load = () => {
    if (!older || loadingOlder) return;
    anchor.current = firstKey ?? null;
    void loadOlder();
  };
  // The exact query log's older rows (logs:exact with before), kept in view the same way.
  const loadExact = () => {
    if (loadingOlderExact) return;
    anchor.current = firstKey ?? null;
    void loadOlderExact();
  };
  // A filtered view's older matches (walk5 M2), kept in view the same way.
  const loadMatches = () => {
    anchor.current = firstKey ?? null;
    void loadOlderMatches();
  };
  return { older, atStart, logFiles, full: history >= MAX_HISTORY_LINES, loadingOlder, load, reload: () => void loadTail(), exactAtStart, exactFull: exactOlder.length >= MAX_EXACT_HISTORY, loadingOlderExact, loadExact, loadMatches };
}

/** Height of the "Start of the log" line that opens a list, px (the virtualizer's scrollMargin). */
const START_PX = 28;

/**
 * The "Start of the log" line while the list holds the log's oldest row (not during a search):
 * it opens the list, above that row, naming only the files that exist; null otherwise.
 */
function startOfList(older: ReturnType<typeof useOlder>, searching: boolean, exact?: ExactQueryLog | null): string | null {
  if (searching) return null;
  // Exact rows come from their own files (queries.jsonl and, once rotated, .1), not dnsproxy.log's pages.
  if (exact?.available) return exact.complete || older.exactAtStart ? logStartText(exact.files ?? null, 'the exact query log') : null;
  return !older.older && older.atStart ? logStartText(older.logFiles) : null;
}

/** The start line inside a list's scroll box (START_PX high), where the oldest row is. */
function StartLine({ text }: { text: string | null }) {
  if (text === null) return null;
  return <div className="lv-start muted" style={{ height: START_PX }} data-testid="logs-start" title={text}>{text}</div>;
}

/**
 * The "older lines" bar above a list (not while a search shows the whole log): a button while
 * there are older lines to page to; nothing when the first line of the oldest file is held (the
 * list then opens with StartLine); otherwise why older lines are not held and the way to them.
 */
function OlderBar({ older, searching, exact }: { older: ReturnType<typeof useOlder>; searching: boolean; exact?: ExactQueryLog | null }) {
  if (searching) return null;
  // Exact rows come from their own files (queries.jsonl and .1), not from dnsproxy.log's pages.
  if (exact?.available) {
    if (exact.complete || older.exactAtStart) return null;
    return (
      <div className="row lv-older">
        {older.exactFull ? (
          <span className="muted" data-testid="logs-not-held">Older rows are in the exact query log but not held here (this window keeps at most {MAX_EXACT_HISTORY.toLocaleString('en-US')} older rows): the filter searches the whole exact log.</span>
        ) : (
          <button type="button" className="secondary" onClick={older.loadExact} disabled={older.loadingOlderExact} data-testid="logs-older-rows">
            {older.loadingOlderExact ? 'Loading older rows…' : 'Load older rows'}
          </button>
        )}
      </div>
    );
  }
  if (!older.older && older.atStart) return null;
  return (
    <div className="row lv-older">
      {older.older ? (
        <button type="button" className="secondary" onClick={older.load} disabled={older.loadingOlder} data-testid="logs-older">
          {older.loadingOlder ? 'Loading older lines…' : 'Load older lines'}
        </button>
      ) : (
        <>
          <span className="muted" data-testid="logs-not-held">
            {older.full
              ? `Older lines are in the log but not held here (this window keeps at most ${MAX_HISTORY_LINES.toLocaleString('en-US')} older lines): the filter searches the whole log.`
              : `Older lines are in the log but no longer held here (this window keeps the newest ${MAX_LOG_LINES.toLocaleString('en-US')} lines): the filter searches the whole log, or reload to page back from the newest lines.`}
          </span>
          {!older.full && <button type="button" className="secondary" onClick={older.reload} data-testid="logs-reload">Reload the log</button>}
        </>
      )}
    </div>
  );
}

/**
 * The filtered Queries view's older matches (walk5 M2: the newest 2000 of 2362 were shown and the
 * older ones could not be reached): a "Load older matches" button while the exact log's search
 * left older matches out, the same paging as the unfiltered "Load older rows"; past
 * MAX_EXACT_HISTORY held, a sentence saying to narrow the filter.
 */
function OlderMatchesBar({ search, load }: { search: LogsSearchState | null; load: () => void }) {
  if (!search) return null;
  const ex = search?.exact;
  if (!ex?.available || !ex.search?.truncated) return null;
  const held = ex.rows.length;
  const of = `Showing the newest ${held.toLocaleString('en-US')} of ${plural(ex.search.matches, 'matching query', 'matching queries')}`;
  return (
    <div className="row lv-older" data-testid="logs-older-matches-bar">
      {held >= MAX_EXACT_HISTORY ? (
        <span className="muted" data-testid="logs-matches-not-held">{of}: this window holds at most {MAX_EXACT_HISTORY.toLocaleString('en-US')}; narrow the filter to reach older ones.</span>
      ) : (
        <>
          <span className="muted">{of}.</span>
          <button type="button" className="secondary" onClick={load} disabled={search.loadingOlder === true} data-testid="logs-older-matches">
            {search.loadingOlder ? 'Loading older matches…' : 'Load older matches'}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * What the whole-log search found, or that it runs. `filtered`: the Queries view's Response or
 * Route filter is on, so an exact-log search is counted after them (the rows shown), one count.
 */
function SearchSummary({ search, filtered }: { search: { text: string; loading: boolean; result: LogSearch | null; exact: ExactQueryLog | null; error: string | null } | null; filtered: { words: string; shown: number } | null }) {
  if (!search) return null;
  if (search.error) return <p className="error-text" role="alert" data-testid="logs-search-error">Searching the log failed: {search.error}</p>;
  const exact = search.exact?.search;
  const found = exact ? (filtered ? exactFilteredCountText(exact, search.exact!.rows.length, filtered.shown, filtered.words) : exactSearchCountText(exact, search.exact!.rows.length)) : search.result ? searchCountText(search.result) : null;
  return (
    <p className="muted" data-testid="logs-search-count" aria-live="polite">
      {found ?? `Searching the whole log for “${search.text}”…`}
      {search.loading && found ? ' (searching again…)' : ''}
    </p>
  );
}

/** Follow-the-bottom behaviour shared by both lists. */
function useFollow(count: number, paused: boolean, scrollToEnd: () => void) {
  const [following, setFollowing] = useState(true);
  useEffect(() => {
    if (!following || paused || count === 0) return;
    scrollToEnd();
  }, [count, following, paused, scrollToEnd]);
  return { following, setFollowing };
}

/**
 * The query view's empty state. From the exact query log (its file exists, no row yet): the facts
 * the CLI's `queries` says then, in the window's words (shared/query-log/no-rows.ts), a full disk
 * included; from the engine's own log: how to get a query into it.
 */
export function NoQueries({ exact }: { exact: ExactQueryLog | null }) {
  if (exact?.available) {
    const w = noRowsWords('gui', { unwritten: exact.unwritten ?? null });
    return (
      <div className="lv-empty" data-testid="logs-no-queries">
        <p><strong>{w.head}.</strong></p>
        <p><RichText text={w.body} /></p>
      </div>
    );
  }
  return (
    <div className="lv-empty" data-testid="logs-no-queries">
      <p><strong>No queries in the log.</strong></p>
      <p>Resolve a name on this host or use the Query tester tab. If K2s DNS was started with query logging off, only failed queries are logged: start it again with query logging on.</p>
    </div>
  );
}

/** The query view. */
function QueryView({ rows, allRows, expansions, searchNx, total, hiddenProbes, hiddenStartChecks, paused, searching, exact }: { rows: QueryRow[]; allRows: QueryRow[]; expansions: ReadonlyMap<string, SearchExpansion>; searchNx: number; total: number; hiddenProbes: number; hiddenStartChecks: number; paused: boolean; searching: boolean; exact: ExactQueryLog | null }) {
  const { queryText, rcode, route, setQueryFilter, search } = useLogs((s) => s);
  const parent = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const older = useOlder(rows[0]?.key, useMemo(() => () => rows.map((r) => r.key), [rows]), (i) => toIndex.current(i));
  const start = startOfList(older, searching, exact);
  // The start line sits above the rows inside the scroll box: the rows begin START_PX lower.
  const margin = start ? START_PX : 0;
  // The first row shown of each K2s DNS run (the exact log keeps earlier runs' rows) has its
  // start line above it, in the same virtual item: `— K2s DNS started … —`, as `k2s-dns queries` prints it.
  const runLines = useMemo(() => rows.map((r, i) => runBoundary(r, rows[i - 1])), [rows]);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: (i) => QUERY_ROW_PX + (runLines[i] == null ? 0 : RUN_LINE_PX), overscan: 20, getItemKey: (i) => rows[i]!.key, scrollMargin: margin });
  const scrollToEnd = useMemo(() => () => virtualizer.scrollToIndex(rows.length - 1, { align: 'end' }), [virtualizer, rows.length]);
  const { following, setFollowing } = useFollow(rows.length, paused || searching, scrollToEnd);
  const toIndex = useRef((i: number) => virtualizer.scrollToIndex(i, { align: 'start' }));
  toIndex.current = (i: number) => virtualizer.scrollToIndex(i, { align: 'start' });
  // The row picked with the arrow keys (or a click): its full values below the list, where the
  // cut Client, Upstream and Answer cells' titles are out of a keyboard user's reach (walk5 L5).
  const [picked, setPicked] = useState<string | null>(null);
  const pickedAt = picked === null ? -1 : rows.findIndex((r) => r.key === picked);
  const pick = (i: number) => {
    const at = Math.max(0, Math.min(rows.length - 1, i));
    if (!rows[at]) return;
    setPicked(rows[at].key);
    virtualizer.scrollToIndex(at, { align: 'auto' });
  };
  const onListKey = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    if (e.key in step) pick(pickedAt < 0 ? rows.length - 1 : pickedAt + step[e.key]!);
    else if (e.key === 'Home') pick(0);
    else if (e.key === 'End') pick(rows.length - 1);
    else if (e.key === 'Escape') setPicked(null);
    else return;
    e.preventDefault();
  };
  return (
    <>
      <div className="row">
        <input type="search" placeholder="Filter queries" title="Matches a query's name, client, upstream or answer" aria-label="Filter queries" value={queryText} onChange={(e) => setQueryFilter({ queryText: e.target.value })} data-testid="logs-query-filter" />
        <label className="check">
          Response{' '}
          <select value={rcode} onChange={(e) => setQueryFilter({ rcode: e.target.value })} data-testid="logs-rcode">
            <option value="">all</option>
            <option value="problems" title="NXDOMAIN, SERVFAIL, REFUSED, upstream errors and no reply; not the NXDOMAINs of a name's search-list expansions (glibc then asks the next search domain)">problems only</option>
            <option value="NOERROR">NOERROR</option>
            <option value="NXDOMAIN">NXDOMAIN</option>
            <option value="SERVFAIL">SERVFAIL</option>
            <option value="REFUSED">REFUSED</option>
            <option value="none">no reply</option>
          </select>
        </label>
        <label className="check">
          Route{' '}
          <select value={route} onChange={(e) => setQueryFilter({ route: e.target.value as QueryRoute | '' })} data-testid="logs-route">
            <option value="">all</option>
            {routeOptions(allRows, route).map((r) => <option key={r} value={r}>{ROUTE_LABEL[r]}</option>)}
          </select>
        </label>
        <span className="muted" data-testid="logs-query-count">{searching ? `${rows.length} matching ${rows.length === 1 ? 'query' : 'queries'} shown` : queryCountText(rows.length, total, hiddenProbes, hiddenStartChecks)}{rcode === 'problems' && searchNx > 0 ? ` · ${plural(searchNx, 'search-list NXDOMAIN', 'search-list NXDOMAINs')} not counted (glibc trying the next search domain)` : ''}</span>
        {!following && !paused && !searching && <button type="button" className="secondary" onClick={() => setFollowing(true)} data-testid="logs-follow">Follow newest</button>}
      </div>
      {total === 0 && !searching ? (
        <NoQueries exact={exact} />
      ) : (
        <>
          <div ref={head} className="lv-qhead mono" data-testid="logs-query-head">
            <span>Time</span><span>Client</span><span>Name</span><span>Type</span><span>Route</span><span>Upstream</span><span>Answer</span><span>Response</span><span>Latency</span>
          </div>
          <OlderBar older={older} searching={searching} exact={exact} />
          {searching && <OlderMatchesBar search={search} load={older.loadMatches} />}
          <div ref={parent} className="lv-scroll mono" tabIndex={0} aria-label="Queries: arrow keys pick a row, its full values show below the list" aria-describedby="q-detail" data-testid="logs-query-list" onKeyDown={onListKey} onScroll={(e) => {
            // The header row sits above the scroll box: it scrolls sideways with the rows (900 px windows).
            if (head.current) head.current.scrollLeft = e.currentTarget.scrollLeft;
            setFollowing(atBottom(e.currentTarget));
            if (e.currentTarget.scrollTop === 0 && !searching) {
              if (!exact?.available) older.load();
              else if (!exact.complete && !older.exactAtStart && !older.exactFull) older.loadExact();
            }
            // The filtered view pages back the same way: its older matches (walk5 M2).
            if (e.currentTarget.scrollTop === 0 && searching && search?.exact?.search?.truncated && !search.loadingOlder && search.exact.rows.length < MAX_EXACT_HISTORY) older.loadMatches();
          }}>
            <StartLine text={start} />
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const r = rows[item.index]!;
                const answer = r.error ?? (r.answers.join(', ') || (r.rcode === 'NOERROR' ? 'no records' : ''));
                // The Route column is narrow (900 px): its full text is the title too.
                const route = `${r.route ? ROUTE_LABEL[r.route] : '—'}${r.zone ? ` ${r.zone}` : ''}`;
                const began = runLines[item.index] ?? null;
                const top = item.start - margin + (began === null ? 0 : RUN_LINE_PX);
                return [
                  began === null ? null : (
                    <div key={`run-${r.key}`} className="lv-run lv-qrun" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: RUN_LINE_PX, transform: `translateY(${item.start - margin}px)` }} data-testid="query-run">
                      {runBoundaryLine(began, r.runRolledBack === true)}
                    </div>
                  ),
                  <div key={r.key} onClick={() => setPicked(r.key)} aria-selected={item.index === pickedAt || undefined} className={`lv-qrow${isShownProblem(r, expansions) ? ' problem' : ''}${item.index === pickedAt ? ' selected' : ''}`} data-search-nx={isSearchNxdomain(r, expansions) ? 'true' : undefined} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${top}px)` }} data-testid="query-row" data-rcode={r.rcode ?? 'none'} data-engine={r.engine} data-mixed={r.mixed}>
                    <span data-testid="q-time" title={r.time ?? ''}>{formatLogTime(r.time)}</span>
                    <span className="q-client" data-testid="q-client" title={r.protocol ? `${r.client ?? ''} over ${r.protocol.toUpperCase()}` : (r.client ?? '')}>
                      <span className="addr">{r.client ?? '—'}</span>
                      {r.mixed ? <span className="mixed" data-testid="q-mixed" title={MIXED_TITLE} aria-label={MIXED_TITLE}> ≈</span> : null}
                    </span>
                    <span data-testid="q-name" title={r.asked ?? r.name}><DnsName name={r.asked ?? r.name} expansion={expansions.get(r.key)} filter={queryText} />{r.startCheck ? <span className="muted" data-testid="q-start-check"> · k2s-dns start&apos;s check</span> : null}</span>
                    <span data-testid="q-type">{r.type}</span>
                    <span data-testid="q-route" title={route}>{route}</span>
                    <span data-testid="q-upstream" title={r.upstream ?? ''}>{r.upstream ?? '—'}</span>
                    <span data-testid="q-answer" title={answer}>{answer}</span>
                    <span data-testid="q-rcode" className={`rcode-${r.rcode ?? 'none'}`}>{r.rcode ?? 'no reply'}</span>
                    <span data-testid="q-latency" className="lat" title={r.latencyMs === null && ENGINES[r.engine].capabilities.latency === 's' ? `${ENGINES[r.engine].label} logs whole seconds only` : ''}>{latencyText(r.latencyMs)}</span>
                  </div>,
                ];
              })}
            </div>
          </div>
          <QueryDetail row={pickedAt < 0 ? null : rows[pickedAt]!} />
          <QueryLegend />
        </>
      )}
    </>
  );
}

/** The picked row's values in full, one line that wraps (walk5 L5: the cut cells' titles need a mouse). */
function QueryDetail({ row: r }: { row: QueryRow | null }) {
  const text = r
    ? [
        `${r.time ?? 'no time'}`,
        `client ${r.client ?? '—'}${r.protocol ? ` over ${r.protocol.toUpperCase()}` : ''}`,
        `${r.asked ?? r.name} ${r.type}`,
        `route ${r.route ? ROUTE_LABEL[r.route] : '—'}${r.zone ? ` ${r.zone}` : ''}`,
        `upstream ${r.upstream ?? '—'}`,
        `answer ${r.error ?? (r.answers.join(', ') || (r.rcode === 'NOERROR' ? 'no records' : '—'))}`,
        `${r.rcode ?? 'no reply'}`,
        latencyText(r.latencyMs),
      ].join(' · ')
    : 'Arrow keys in the list (or a click) pick a row: its full values show here.';
  return <p id="q-detail" className={`lv-qdetail small${r ? ' mono' : ' muted'}`} aria-live="polite" data-testid="q-detail">{text}</p>;
}

/** The raw view. */
function RawView({ rows, total, queries, exactElsewhere, paused, searching, hiddenProbeLines }: { rows: RawRow[]; total: number; queries: number; exactElsewhere: boolean; paused: boolean; searching: boolean; hiddenProbeLines: number }) {
  const { levels, text, toggleLevel, setText } = useLogs((s) => s);
  const parent = useRef<HTMLDivElement>(null);
  const older = useOlder(rows[0]?.key, useMemo(() => () => rows.map((r) => r.key), [rows]), (i) => toIndex.current(i));
  const start = startOfList(older, searching);
  const margin = start ? START_PX : 0;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => RAW_ROW_PX, overscan: 20, getItemKey: (i) => rows[i]!.key, scrollMargin: margin });
  const scrollToEnd = useMemo(() => () => virtualizer.scrollToIndex(rows.length - 1, { align: 'end' }), [virtualizer, rows.length]);
  const { following, setFollowing } = useFollow(rows.length, paused || searching, scrollToEnd);
  const toIndex = useRef((i: number) => virtualizer.scrollToIndex(i, { align: 'start' }));
  toIndex.current = (i: number) => virtualizer.scrollToIndex(i, { align: 'start' });
  const shown = rowLines(rows);
  return (
    <>
      <div className="row">
        {CATEGORIES.map((l) => (
          <label key={l} className="check" title={l === 'QUERY' ? 'DNS traffic: one line per query, forward and reply' : undefined}>
            <input type="checkbox" checked={levels[l]} onChange={() => toggleLevel(l)} data-testid={`logs-level-${l}`} /> {l === 'QUERY' ? 'queries' : l}
          </label>
        ))}
        <input type="search" placeholder="Filter text" aria-label="Filter log lines" value={text} onChange={(e) => setText(e.target.value)} data-testid="logs-filter" />
        <span className="muted" data-testid="logs-count">{searching ? `${shown} matching ${shown === 1 ? 'line' : 'lines'} shown` : rawCountText(shown, total, queries, exactElsewhere)}{!searching && hiddenProbeLines > 0 ? ` · ${plural(hiddenProbeLines, 'health probe line', 'health probe lines')} hidden` : ''}</span>
        {!following && !paused && !searching && <button type="button" className="secondary" onClick={() => setFollowing(true)} data-testid="logs-follow">Follow newest</button>}
      </div>
      <div className="lv-rhead mono" role="row"><span>Time</span><span>Level</span><span>Message</span></div>
      <OlderBar older={older} searching={searching} />
      <div ref={parent} className="lv-scroll mono" tabIndex={0} data-testid="logs-list" data-following={String(following && !paused)} onScroll={(e) => {
        setFollowing(atBottom(e.currentTarget));
        if (e.currentTarget.scrollTop === 0 && !searching) older.load();
      }}>
        <StartLine text={start} />
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index]!;
            const style = { position: 'absolute' as const, top: 0, left: 0, right: 0, transform: `translateY(${item.start - margin}px)` };
            if (r.kind === 'run') {
              return (
                <div key={r.key} ref={virtualizer.measureElement} data-index={item.index} className="lv-run" style={style} data-testid="log-run">
                  {formatLogTime(r.time)} {r.title}
                </div>
              );
            }
            const l = r.line;
            return (
              <div key={r.key} ref={virtualizer.measureElement} data-index={item.index} className={`lv-rrow log-row level-${l.level} cat-${r.category}`} style={style} title={l.raw} data-testid="log-row">
                <span>{formatLogTime(l.time)}</span>
                <span className={`cat-${r.category}`}>{r.category === 'QUERY' ? 'query' : l.level}</span>
                <span className="msg">{r.text}{r.detail !== null && <pre>{r.detail}</pre>}</span>
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}

/** The Logs panel. */
export function LogsPanel() {
  const buffer = useLogs((s) => s.lines);
  const pending = useLogs((s) => s.pending.length);
  // The engine that writes the log now (status), to name its file (the probes box).
  const engine = useDns((s) => s.status?.engine ?? null);
  // The running K2s DNS logs no query (started with query logging off): said above the rows (walk 24).
  const logQueries = useDns((s) => s.status?.logQueries);
  const { paused, view, levels, text, queryText, rcode, route, showProbes, cleared, error: loadError, setPaused, setView, setShowProbes, search, runSearch } = useLogs((s) => s);
  // The open view's text filter searches the whole log (current file and .1) in the backend.
  const filterText = (view === 'queries' ? queryText : text).trim();
  // In the Queries view the filter searches the exact query log's files while that log is in use.
  const exactOn = useLogs((s) => s.exact?.available === true);
  // The exact query log is read only while this tab is open: at once, then every EXACT_POLL_MS.
  const loadExact = useLogs((s) => s.loadExact);
  useEffect(() => void loadExact(), [loadExact]);
  usePoll(loadExact, EXACT_POLL_MS);
  useEffect(() => {
    const t = setTimeout(() => void runSearch(filterText), filterText === '' ? 0 : SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [filterText, showProbes, runSearch, view, exactOn]);
  const searching = search !== null && filterText !== '';
  // Both views need the query log (the query view's rows, the raw view's "(M queries)" and its
  // probe lines); the store keeps it with the lines it was built from. The raw view counts the
  // queries of its own lines, never the exact log's rows (those are not in dnsproxy.log).
  const bufferQueries = useLogs((s) => s.queries);
  const bufferOwners = useLogs((s) => s.owners);
  const shown = searching ? (search.log ?? EMPTY_VIEW) : null;
  const lines = shown ? shown.lines : buffer;
  // The exact log (packets) replaces the rows built from engine lines when it exists; a search
  // of the text log keeps its own rows (the search reads the log files).
  const exact = useLogs((s) => s.exact);
  const zones = useLogs((s) => s.clusterZones);
  // Older exact rows paged in (Load older rows) sit above the newest ones the poll reads.
  const exactOlder = useLogs((s) => s.exactOlder);
  const exactRows = useMemo(() => (exact?.available ? routeExactRows(exactOlder.length > 0 ? [...exactOlder, ...exact.rows] : exact.rows, zones) : null), [exact, exactOlder, zones]);
  const exactFound = useMemo(() => (searching && view === 'queries' && search.exact?.available ? routeExactRows(search.exact.rows, zones) : null), [searching, view, search, zones]);
  const allQueries = exactFound ?? (shown ? shown.queries : (exactRows ?? bufferQueries));
  const owners = shown ? shown.owners : bufferOwners;
  // The rows held in this window besides a search's result: where a found row's search walk may be.
  const heldQueries = useMemo(() => (allQueries === (exactRows ?? bufferQueries) ? [] : (exactRows ?? bufferQueries)), [allQueries, exactRows, bufferQueries]);
  const probes = useMemo(() => allQueries.filter((r) => r.probe).length, [allQueries]);
  // Of them, the queries start's verify asked (said apart in the count: QueryRow.startCheck).
  const startChecks = useMemo(() => allQueries.filter((r) => r.startCheck).length, [allQueries]);
  const notLogging = view === 'queries' ? notLoggingLine(logQueries, allQueries.length > 0) : null;
  // k2s-dns's own health probes are hidden unless asked for (they would flood the log), in both views.
  const queries = useMemo(() => (showProbes ? allQueries : allQueries.filter((r) => !r.probe)), [allQueries, showProbes]);
  // Each row is judged by its own facts (its client socket's other names, the search list recorded
  // with it), over every row held and every row a search found, so a filter never changes a mark.
  const expansions = useMemo(() => searchExpansions(allQueries, heldQueries), [allQueries, heldQueries]);
  const { shownQueries, searchNx } = useMemo(() => {
    // Rows the exact log's search returned matched already (its fields include the rcode).
    const base = filterQueries(queries, { text: exactFound ? '' : queryText, routes: route ? [route] : [], rcodes: rcode && rcode !== 'problems' ? [rcode] : [] });
    if (rcode !== 'problems') return { shownQueries: base, searchNx: 0 };
    // Search-list NXDOMAINs are glibc's walk, not problems (lib/problem-rows.ts); said in the count.
    return { shownQueries: base.filter((r) => isShownProblem(r, expansions)), searchNx: base.filter((r) => isSearchNxdomain(r, expansions)).length };
  }, [queries, queryText, rcode, route, exactFound, expansions]);
  // The Response and Route filters in words, for the one search count (walk 6 L6).
  const filterWords = queryFilterWords(rcode === '' ? null : (RCODE_LABEL[rcode] ?? rcode), route === '' ? null : ROUTE_LABEL[route]);
  // The raw view's "(M queries)": queries with a query line here, not an upstream's failure line alone.
  const rawQueries = useMemo(() => queriesInLines(lines, owners), [lines, owners]);
  // A probe's own query/answer lines may be hidden; an engine ERROR/WARN line about one never is.
  // "N health probe lines hidden" counts the lines the box would add to this view: those the
  // level and text filters keep (issue 20 low: it counted every probe line held).
  // `probeLines`: those lines whether hidden or shown, the Raw view's number on the box (walk:
  // it showed the exact log's probe queries, 108, beside a count of dnsproxy.log's lines).
  const raw = useMemo(() => {
    if (view !== 'raw') return { rows: [], hiddenProbeLines: 0, probeLines: 0 };
    const needle = text.trim().toLowerCase();
    const isProbe = new Map<LogLine, boolean>();
    lines.forEach((l, i) => isProbe.set(l, hidesAsProbeLine(l, owners[i]?.probe === true)));
    const filtered = (l: LogLine, t: string) => levels[lineCategoryOf(l)] !== false && (needle === '' || t.toLowerCase().includes(needle) || lineMatches(l, needle));
    const withProbes = rawRows(lines, filtered);
    const withoutProbes = rawRows(lines, (l, t) => !isProbe.get(l) && filtered(l, t));
    const probeLines = rowLines(withProbes) - rowLines(withoutProbes);
    return { rows: showProbes ? withProbes : withoutProbes, hiddenProbeLines: showProbes ? 0 : probeLines, probeLines };
  }, [lines, owners, levels, text, view, showProbes]);
  // The box's number names what it counts in the open view: the Raw view's probe lines of the
  // proxy's log, or the Queries view's probe queries (of the exact query log when it is in use).
  // dnsmasq writes the same file as AdGuard dnsproxy (shared/dnsmasq-config.ts log-facility,
  // K2S_PATHS.log): named with the engines of the runs shown, never as one engine's only
  // (walk 10 L9, walk 11 L13).
  const logName = logFileWords(raw.rows, engine);
  // Nothing could be read (the proxy log failed and no exact row is shown): one line says which
  // log(s) and the fix; no count of probes read from nothing (new-user report).
  const nothingRead = loadError !== null && buffer.length === 0 && pending === 0 && !searching && !(view === 'queries' && exactRows && exactRows.length > 0);
  const emptyError = loadError !== null && nothingRead && view === 'queries' && exact && !exact.available ? unreadableLogsLine(loadError, exact.unreadable, exact.reason) : loadError;
  const probesCount = view === 'raw' ? `${plural(raw.probeLines, 'line', 'lines')} of ${logName}` : `${plural(probes, 'query', 'queries')}${(exactFound ?? exactRows) !== null && allQueries === (exactFound ?? exactRows) ? ' of the exact query log' : ''}`;

  return (
    <section className="panel" data-testid="panel-logs">
      <h2>Logs</h2>
      <div className="row">
        <div className="lv-switch" role="group" aria-label="Log view">
          <button type="button" aria-pressed={view === 'queries'} onClick={() => setView('queries')} data-testid="logs-view-queries">Queries</button>
          <button type="button" aria-pressed={view === 'raw'} onClick={() => setView('raw')} data-testid="logs-view-raw">Raw log</button>
        </div>
        <button type="button" onClick={() => setPaused(!paused)} data-testid="logs-pause">
          {paused ? `Resume (${pending} new)` : 'Pause'}
        </button>
        <label className="check" data-testid="logs-probes-label" title="k2s-dns checks the path every few seconds by asking KUBERNETES.DEFAULT.svc.… (its own spelling of the cluster name); also the lookups k2s-dns start made to verify the path (the names it recorded, in the few ms it asked them)">
          <input type="checkbox" checked={showProbes} onChange={(e) => setShowProbes(e.target.checked)} data-testid="logs-show-probes" /> show k2s-dns health probes{nothingRead ? '' : ` (${probesCount})`}
        </label>
      </div>
      <SearchSummary search={searching ? search : null} filtered={view === 'queries' && filterWords ? { words: filterWords, shown: shownQueries.length } : null} />
      {view === 'queries' && exact && !(nothingRead && !exact.available) ? (
        <p className="muted" data-testid="logs-exact" data-available={exact.available}>
          {exact.available ? 'Exact query log: each row is one client socket\'s query and the answer to it, read from the proxy\'s packets, with the upstream that answered.' : <RichText text={exact.reason ?? ''} />}
          {exact.unwritten ? <span data-testid="logs-exact-unwritten">{` It misses rows: ${exact.unwritten}.`}</span> : null}
          {exact.missed ? <span data-testid="logs-exact-missed">{` It ${localTimes(exact.missed)}.`}</span> : null}
        </p>
      ) : null}
      {notLogging ? <p className="warn-text" data-testid="logs-not-logging">{notLogging}</p> : null}
      {buffer.length === 0 && pending === 0 && !searching && !(view === 'queries' && exactRows && exactRows.length > 0) ? (
        <EmptyState cleared={cleared} error={emptyError} />
      ) : view === 'queries' ? (
        <QueryView rows={shownQueries} allRows={allQueries} expansions={expansions} searchNx={searchNx} total={queries.length} hiddenProbes={showProbes ? 0 : probes} hiddenStartChecks={showProbes ? 0 : startChecks} paused={paused} searching={searching} exact={exactRows ? exact : null} />
      ) : (
        <RawView rows={raw.rows} total={lines.length} queries={rawQueries} exactElsewhere={exactRows !== null} paused={paused} searching={searching} hiddenProbeLines={raw.hiddenProbeLines} />
      )}
    </section>
  );
}
