/** Logs domain store: the proxy log buffer with its query log (built once per pushed batch), pause/resume and filters. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { LogCursor, LogLine, LogReset, LogSearch } from '../../../shared/types';
import type { QueryRoute, QueryRow } from '../../../shared/query-log';
import type { LogCategory } from '../lib/log-filter';
import { dropOverlap } from '../lib/log-merge';
import { trimLogLines } from '../lib/log-trim';
import { QueryBuffer, queryView, type QueryBufferView } from '../lib/query-buffer';
import { latestRequest } from '../lib/latest-request';
import type { ExactQueryLog } from '../../../shared/query-log/exact';

/** The panel's two views: one row per query, or the log lines as written. */
export type LogView = 'queries' | 'raw';

/** Lines kept in memory (the contract's logs:tail cap); health probe lines have a smaller budget within it (lib/log-trim.ts). */
export const MAX_LOG_LINES = 5000;
/** Lines of one older page (logs:page). */
export const OLDER_PAGE_LINES = 5000;
/** Older lines kept at most on top of MAX_LOG_LINES (two full 20 MiB files are ~300,000 lines; past this, search). */
export const MAX_HISTORY_LINES = 100_000;
/** Lines a whole-log search returns at most (the newest matches with their context). */
export const SEARCH_LINES = 5000;
/** Lines of context around each match, so the query view can rebuild a dnsproxy -v query (~20 lines each). */
export const SEARCH_CONTEXT = 30;

/** The whole-log search behind a view's text filter (logs:search). */
export interface LogsSearchState {
  /** The text searched (trimmed). */
  text: string;
  loading: boolean;
  result: LogSearch | null;
  /** The query log of the result's lines (built once when it arrived); null without a result. */
  log: QueryBufferView | null;
  /**
   * The Queries view's search of the exact query log (logs:exact with text), when that log is in
   * use; null otherwise. Older matches paged in (loadOlderMatches) are in its `rows` above the
   * newest, its `oldestUs` then theirs and `search.truncated` whether still older ones match.
   */
  exact: ExactQueryLog | null;
  error: string | null;
  /** True while a page of older matches loads (loadOlderMatches). */
  loadingOlder?: boolean;
}

/** Log buffer and view settings. While paused, new lines wait in `pending`. */
export interface LogsState {
  lines: LogLine[];
  /** The query log of `lines` (rows in query order), kept with them: built from each pushed batch only. */
  queries: QueryRow[];
  /** For each of `lines`, the query row it belongs to (null: no query's; lib/log-trim.ts lineOwners). */
  owners: (QueryRow | null)[];
  /** Cluster zones the query log's routes are judged by (the zones store's discovery). */
  clusterZones: readonly string[];
  /** Sets clusterZones; the query logs are rebuilt when they changed. */
  setClusterZones(zones: readonly string[]): void;
  pending: LogLine[];
  paused: boolean;
  /** Raw view: categories shown (the levels plus QUERY). */
  levels: Record<LogCategory, boolean>;
  /** Raw view: text filter. */
  text: string;
  view: LogView;
  /** Query view: name/client/upstream/answer text filter. */
  queryText: string;
  /** Query view: rcode shown (`''` = all, `none` = no reply, `problems` = NXDOMAIN/SERVFAIL/REFUSED/errors). */
  rcode: string;
  /** Query view: route shown (`''` = all). */
  route: QueryRoute | '';
  error: string | null;
  /** Query view: show k2s-dns's own health probes (QueryRow.probe); hidden by default. */
  showProbes: boolean;
  /** Where older lines continue (logs:page); null when the oldest line of the log is loaded. */
  older: LogCursor | null;
  /**
   * True only while the buffer holds the first line of the oldest file of the log (a page came
   * back with no older cursor and no line other than a health probe's was cut since): the only
   * state in which the panel says "Start of the log". False with `older` null: older lines
   * exist but are not held (the buffer's cap cut them, or MAX_HISTORY_LINES was reached).
   */
  atStart: boolean;
  /** The log's files that exist, oldest first, as the last page named them; null when not known ("Start of the log" names only these). */
  logFiles: string[] | null;
  /** Lines loaded by loadOlder (they are kept on top of MAX_LOG_LINES). */
  history: number;
  loadingOlder: boolean;
  /** The search over the whole log for the open view's text filter; null while no text is typed. */
  search: LogsSearchState | null;
  /** Loads the page of lines before the oldest one held (newest first, so the buffer grows upwards). */
  loadOlder(): Promise<void>;
  /**
   * Searches the whole log for `text` ('' ends the search); the newest call's answer wins. In the
   * Queries view while the exact query log is in use, its rows are searched (logs:exact with text)
   * instead of dnsproxy.log; the Raw view always searches dnsproxy.log.
   */
  runSearch(text: string): Promise<void>;
  /** Why the buffer was emptied (e.g. Uninstall removed the log), shown by the empty state; null otherwise. */
  cleared: string | null;
  setShowProbes(show: boolean): void;
  /** Empties the buffer, e.g. after Uninstall removed the proxy log; `why` is shown in the empty state. */
  reset(why: string): void;
  append(lines: LogLine[]): void;
  setPaused(paused: boolean): void;
  toggleLevel(level: LogCategory): void;
  setText(text: string): void;
  setView(view: LogView): void;
  setQueryFilter(f: Partial<Pick<LogsState, 'queryText' | 'rcode' | 'route'>>): void;
  /** Loads the last `lines` lines, replacing the buffer. */
  loadTail(lines?: number): Promise<void>;
  /**
   * Subscribes to pushed lines and to the log's resets (removed, replaced, emptied: the buffer
   * empties and says why); returns the unsubscribe. (The Logs panel reads the exact query log while it is open.)
   */
  attach(): () => void;
  /**
   * The exact query log (packets, `logs:exact`): when available, the Queries view shows its rows
   * instead of the ones built from the engine's log lines; null until first read.
   */
  exact: ExactQueryLog | null;
  /** Reads the exact query log now (the newest EXACT_ROWS rows; the older rows held stay). */
  loadExact(): Promise<void>;
  /**
   * Exact rows older than `exact.rows`, oldest first, paged in by loadOlderExact (and the rows a
   * live read pushed out of the newest EXACT_ROWS once paging began, so no hole opens).
   */
  exactOlder: QueryRow[];
  /** Where the older exact rows continue (`logs:exact` before: µs of the oldest row held); null before the first page or at the start. */
  exactCursor: number | null;
  /** True while the held exact rows begin with the first row of the exact log (an older page said `complete`). */
  exactAtStart: boolean;
  loadingOlderExact: boolean;
  /** Loads the EXACT_OLDER_ROWS exact rows at or before the oldest one held and puts the new ones above it. */
  loadOlderExact(): Promise<void>;
  /**
   * The filtered view's "Load older matches" (walk5 M2): the EXACT_ROWS matching rows of the exact
   * log asked before the oldest match held (logs:exact with text and before), put above them; at
   * most MAX_EXACT_HISTORY matches are held. Nothing while no exact search has older matches.
   */
  loadOlderMatches(): Promise<void>;
}

/** Rows of the exact query log the Queries view holds (the contract's cap). */
export const EXACT_ROWS = 2000;
/**
 * How often the exact log is read while the Logs tab is open, ms (LogsPanel; once at once when it
 * opens): its rows are in their own file (no pushed lines tell of them); one read of the file's
 * tail, no process. Not read while another tab is open: nothing else shows its rows.
 */
export const EXACT_POLL_MS = 2000;
/**
 * Rows one "Load older rows" page asks for (logs:exact before; the contract's cap for it): issue
 * 20 walked 19,000 rows in 9 pages of 2,000; 10,000 reach them in 2. One of them is the oldest
 * row held (the cursor is inclusive), so a page adds up to EXACT_OLDER_ROWS − 1.
 */
export const EXACT_OLDER_ROWS = 10_000;
/** Older exact rows held at most (two full 10 MiB files are ~70,000 rows; past this, search). */
export const MAX_EXACT_HISTORY = 100_000;

/** Why the buffer emptied after a pushed `logs:reset`, for the empty state. */
export function logResetText(r: LogReset): string {
  if (r.reason === 'removed') return `The proxy log (${r.path}) was removed.`;
  if (r.reason === 'replaced') return `The proxy log (${r.path}) was replaced by a new file; its old lines are gone.`;
  return `The proxy log (${r.path}) was emptied.`;
}

/** `rows` without those whose key is in `held`. */
function notHeld(rows: readonly QueryRow[], held: readonly QueryRow[]): QueryRow[] {
  const keys = new Set(held.map((r) => r.key));
  return rows.filter((r) => !keys.has(r.key));
}

/** Creates the logs store on `api`. */
export function createLogsStore(api: K2sDnsApi) {
  // Set by loadTail: the next pushed batch may replay lines the tail already holds (the shared
  // follower resumes at an older tail's offset), so it is trimmed against the buffer once.
  let afterTail = false;
  // Lines pushed while a tail request is in flight: the tail replaces the buffer, these are re-added after it.
  let inFlight: LogLine[] | null = null;
  const searches = latestRequest();
  const buffer = new QueryBuffer();
  // Counts resets: a tail or exact read that began before the log was removed does not refill the buffer.
  let generation = 0;
  // loadTail calls in flight (the last one to end stops collecting `inFlight`).
  let tailsRunning = 0;
  return createStore<LogsState>()((set, get) => {
  const cap = () => MAX_LOG_LINES + get().history;
  // After the buffer was capped: once a line other than a probe's was cut, the top of the
  // buffer is neither the log's first line nor where the `older` cursor continues (paging from
  // it would leave a hole), so both go. `atStart` is the state before the cap (default: as is).
  const afterCap = (atStart = get().atStart): Pick<LogsState, 'older' | 'atStart'> =>
    buffer.cutSinceReplace().cutHistory ? { older: null, atStart: false } : { older: get().older, atStart };
  return {
    lines: [],
    queries: [],
    owners: [],
    clusterZones: [],
    setClusterZones(zones) {
      const view = buffer.setZones(zones);
      const search = get().search;
      set({ clusterZones: [...zones], ...view, search: search?.result ? { ...search, log: queryView(search.result.lines, zones) } : search });
    },
    pending: [],
    paused: false,
    levels: { QUERY: true, DEBUG: true, INFO: true, WARN: true, ERROR: true },
    text: '',
    view: 'queries',
    queryText: '',
    rcode: '',
    route: '',
    error: null,
    showProbes: false,
    cleared: null,
    older: null,
    atStart: false,
    logFiles: null,
    history: 0,
    loadingOlder: false,
    search: null,
    async loadOlder() {
      const { older, loadingOlder } = get();
      if (!older || loadingOlder) return;
      set({ loadingOlder: true });
      try {
        const page = await api.logsPage({ lines: OLDER_PAGE_LINES, before: older });
        // A reload (loadTail) meanwhile started over: this page no longer joins the buffer.
        if (get().older !== older) return set({ loadingOlder: false });
        if (page.lost) return set({ loadingOlder: false, older: null, atStart: false, error: 'The older lines were rotated away while you read; reload the log to see what is left.' });
        const history = Math.min(MAX_HISTORY_LINES, get().history + page.lines.length);
        const full = history >= MAX_HISTORY_LINES;
        // Lines above the buffer: the query log is built again (once for the page).
        set((s) => ({ ...buffer.replace([...page.lines, ...s.lines], Number.POSITIVE_INFINITY), older: full ? null : page.older, atStart: page.older === null, logFiles: page.files ?? null, history, loadingOlder: false, error: null }));
      } catch (err) {
        set({ loadingOlder: false, error: (err as Error).message });
      }
    },
    async runSearch(raw) {
      const text = raw.trim();
      const isLatest = searches.begin();
      if (text === '') return set({ search: null });
      const inExact = get().view === 'queries' && get().exact?.available === true;
      set((s) => ({ search: s.search?.text === text && (s.search.exact !== null) === inExact ? { ...s.search, loading: true, error: null } : { text, loading: true, result: null, log: null, exact: null, error: null } }));
      try {
        if (inExact) {
          const exact = await api.logsExact({ rows: EXACT_ROWS, text, probes: get().showProbes });
          if (isLatest()) set({ search: { text, loading: false, result: null, log: null, exact, error: null } });
          return;
        }
        const result = await api.logsSearch({ text, lines: SEARCH_LINES, context: SEARCH_CONTEXT, probes: get().showProbes });
        if (isLatest()) set({ search: { text, loading: false, result, log: queryView(result.lines, get().clusterZones), exact: null, error: null } });
      } catch (err) {
        if (isLatest()) set({ search: { text, loading: false, result: null, log: null, exact: null, error: (err as Error).message } });
      }
    },
    setShowProbes: (showProbes) => set({ showProbes }),
    reset(why) {
      generation += 1;
      afterTail = false;
      if (inFlight) inFlight = [];
      // The exact query log goes with it (Uninstall removes both): its next read fills it again.
      set({ ...buffer.replace([], MAX_LOG_LINES), pending: [], cleared: why, older: null, atStart: false, logFiles: null, history: 0, search: null, exact: null, exactOlder: [], exactCursor: null, exactAtStart: false });
    },
    append(incoming) {
      if (inFlight) inFlight.push(...incoming);
      let lines = incoming;
      if (afterTail && !inFlight) {
        afterTail = false;
        const s = get();
        lines = dropOverlap([...s.lines, ...s.pending], incoming);
        if (lines.length === 0) return;
      }
      if (get().paused) set((s) => ({ pending: trimLogLines([...s.pending, ...lines], cap()), cleared: null }));
      else set({ ...buffer.append(lines, cap()), ...afterCap(), cleared: null });
    },
    setPaused(paused) {
      if (paused) set({ paused });
      else set((s) => ({ paused, ...buffer.append(s.pending, cap()), ...afterCap(), pending: [] }));
    },
    toggleLevel: (level) => set((s) => ({ levels: { ...s.levels, [level]: !s.levels[level] } })),
    setText: (text) => set({ text }),
    setView: (view) => set({ view }),
    setQueryFilter: (f) => set(f),
    async loadTail(lines = 1000) {
      inFlight = [];
      const gen = generation;
      tailsRunning += 1;
      try {
        const page = await api.logsPage({ lines });
        // The log was reset meanwhile: this page may hold its old lines; a newer load decides.
        if (gen !== generation) {
          if (tailsRunning === 1) inFlight = null;
          return;
        }
        const tail = page.lines;
        const pushed = inFlight;
        inFlight = null;
        // Replaces the buffer (a refresh never appends a tail twice), then keeps pushed lines newer than it.
        set({ ...buffer.replace([...tail, ...dropOverlap(tail, pushed, true)], MAX_LOG_LINES), pending: [], error: null, older: page.older, logFiles: page.files ?? null, history: 0 });
        set(afterCap(page.older === null));
        afterTail = true;
      } catch (err) {
        inFlight = null;
        set({ error: (err as Error).message });
      } finally {
        tailsRunning -= 1;
      }
    },
    attach() {
      const offLines = api.onLogLines((lines) => get().append(lines));
      const offReset = api.onLogReset((r) => {
        const s = get();
        // Already emptied with its reason (Uninstall's result came first): that reason stays.
        if (s.cleared !== null && s.lines.length === 0 && s.pending.length === 0) return;
        get().reset(logResetText(r));
      });
      return () => {
        offLines();
        offReset();
      };
    },
    exact: null,
    async loadExact() {
      // The live poll asks only for the newest rows (the backend's memo answers it while no file changed).
      const gen = generation;
      const exact = await api.logsExact({ rows: EXACT_ROWS }).catch(() => null);
      if (!exact || gen !== generation) return;
      const s = get();
      // Nothing paged in, or nothing older to hold (the newest rows are the whole log, or none is readable).
      if (s.exactOlder.length === 0 || !exact.available || exact.complete) return set({ exact, exactOlder: [], exactCursor: null, exactAtStart: false });
      // Rows the newest page no longer holds stay, below the older pages: the list keeps no hole.
      const pushedOut = s.exact?.available ? notHeld(s.exact.rows, exact.rows) : [];
      set({ exact, exactOlder: notHeld([...s.exactOlder, ...pushedOut], exact.rows) });
    },
    exactOlder: [],
    exactCursor: null,
    exactAtStart: false,
    loadingOlderExact: false,
    async loadOlderMatches() {
      const s = get().search;
      const ex = s?.exact;
      if (!s || s.loadingOlder || !ex?.available || !ex.search?.truncated || ex.oldestUs === undefined || ex.rows.length >= MAX_EXACT_HISTORY) return;
      set({ search: { ...s, loadingOlder: true } });
      // A search run again meanwhile (another text, probes shown) replaced this one: its page is dropped.
      const same = () => get().search?.exact === ex;
      try {
        const page = await api.logsExact({ rows: EXACT_ROWS + 1, text: s.text, probes: get().showProbes, before: ex.oldestUs });
        if (!same()) return;
        // The boundary row comes again (at or before the cursor): dropped by key.
        const fresh = notHeld(page.rows, ex.rows);
        const search = ex.search && page.search ? { ...ex.search, truncated: fresh.length > 0 && page.search.truncated } : ex.search;
        set({ search: { ...get().search!, loadingOlder: false, exact: { ...ex, rows: [...fresh, ...ex.rows], ...(page.oldestUs === undefined ? {} : { oldestUs: page.oldestUs }), ...(search ? { search } : {}) } } });
      } catch (err) {
        if (same()) set({ search: { ...get().search!, loadingOlder: false, error: (err as Error).message } });
      }
    },
    async loadOlderExact() {
      const s = get();
      if (s.loadingOlderExact || !s.exact?.available || s.exact.complete || s.exactAtStart || s.exactOlder.length >= MAX_EXACT_HISTORY) return;
      const before = s.exactOlder.length > 0 ? s.exactCursor : (s.exact.oldestUs ?? null);
      if (before === null) return;
      set({ loadingOlderExact: true });
      try {
        // `before` is inclusive (rows asked in the same µs as the oldest held are not lost): the
        // oldest held row comes back too (dropped below by its key).
        const page = await api.logsExact({ rows: EXACT_OLDER_ROWS, before });
        const now = get();
        if (!page.available || !now.exact?.available) return set({ loadingOlderExact: false });
        // Ties at the cursor's µs come back with the page: the rows already held are dropped.
        const fresh = notHeld(page.rows, [...now.exactOlder, ...now.exact.rows]);
        set({ exactOlder: [...fresh, ...now.exactOlder], exactCursor: page.oldestUs ?? before, exactAtStart: page.complete === true, loadingOlderExact: false, error: null });
      } catch (err) {
        set({ loadingOlderExact: false, error: (err as Error).message });
      }
    },
  };
  });
}
