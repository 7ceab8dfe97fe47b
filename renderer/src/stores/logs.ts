/** Logs domain store: the proxy log buffer, pause/resume and filters. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { LogLine } from '../../../shared/types';
import type { QueryRoute } from '../../../shared/query-log';
import type { LogCategory } from '../lib/log-filter';
import { dropOverlap } from '../lib/log-merge';
import { trimLogLines } from '../lib/log-trim';

/** The panel's two views: one row per query, or the log lines as written. */
export type LogView = 'queries' | 'raw';

/** Lines kept in memory (the contract's logs:tail cap); health probe lines have a smaller budget within it (lib/log-trim.ts). */
export const MAX_LOG_LINES = 5000;

/** Log buffer and view settings. While paused, new lines wait in `pending`. */
export interface LogsState {
  lines: LogLine[];
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
  /** Subscribes to pushed lines; returns the unsubscribe. */
  attach(): () => void;
}

/** Creates the logs store on `api`. */
export function createLogsStore(api: K2sDnsApi) {
  // Set by loadTail: the next pushed batch may replay lines the tail already holds (the shared
  // follower resumes at an older tail's offset), so it is trimmed against the buffer once.
  let afterTail = false;
  // Lines pushed while a tail request is in flight: the tail replaces the buffer, these are re-added after it.
  let inFlight: LogLine[] | null = null;
  return createStore<LogsState>()((set, get) => ({
    lines: [],
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
    setShowProbes: (showProbes) => set({ showProbes }),
    reset(why) {
      afterTail = false;
      if (inFlight) inFlight = [];
      set({ lines: [], pending: [], cleared: why });
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
      if (get().paused) set((s) => ({ pending: trimLogLines([...s.pending, ...lines], MAX_LOG_LINES), cleared: null }));
      else set((s) => ({ lines: trimLogLines([...s.lines, ...lines], MAX_LOG_LINES), cleared: null }));
    },
    setPaused(paused) {
      if (paused) set({ paused });
      else set((s) => ({ paused, lines: trimLogLines([...s.lines, ...s.pending], MAX_LOG_LINES), pending: [] }));
    },
    toggleLevel: (level) => set((s) => ({ levels: { ...s.levels, [level]: !s.levels[level] } })),
    setText: (text) => set({ text }),
    setView: (view) => set({ view }),
    setQueryFilter: (f) => set(f),
    async loadTail(lines = 1000) {
      inFlight = [];
      try {
        const tail = await api.logsTail({ lines });
        const pushed = inFlight;
        inFlight = null;
        // Replaces the buffer (a refresh never appends a tail twice), then keeps pushed lines newer than it.
        set({ lines: trimLogLines([...tail, ...dropOverlap(tail, pushed, true)], MAX_LOG_LINES), pending: [], error: null });
        afterTail = true;
      } catch (err) {
        inFlight = null;
        set({ error: (err as Error).message });
      }
    },
    attach() {
      return api.onLogLines((lines) => get().append(lines));
    },
  }));
}
