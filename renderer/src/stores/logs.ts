/** Logs domain store: the proxy log buffer, pause/resume and filters. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { LogLine } from '../../../shared/types';
import { dropOverlap } from '../lib/log-merge';

/** Lines kept in memory (the contract's logs:tail cap). */
export const MAX_LOG_LINES = 5000;

/** Log buffer and view settings. While paused, new lines wait in `pending`. */
export interface LogsState {
  lines: LogLine[];
  pending: LogLine[];
  paused: boolean;
  levels: Record<LogLine['level'], boolean>;
  text: string;
  error: string | null;
  append(lines: LogLine[]): void;
  setPaused(paused: boolean): void;
  toggleLevel(level: LogLine['level']): void;
  setText(text: string): void;
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
    levels: { DEBUG: true, INFO: true, WARN: true, ERROR: true },
    text: '',
    error: null,
    append(incoming) {
      if (inFlight) inFlight.push(...incoming);
      let lines = incoming;
      if (afterTail && !inFlight) {
        afterTail = false;
        const s = get();
        lines = dropOverlap([...s.lines, ...s.pending], incoming);
        if (lines.length === 0) return;
      }
      if (get().paused) set((s) => ({ pending: [...s.pending, ...lines].slice(-MAX_LOG_LINES) }));
      else set((s) => ({ lines: [...s.lines, ...lines].slice(-MAX_LOG_LINES) }));
    },
    setPaused(paused) {
      if (paused) set({ paused });
      else set((s) => ({ paused, lines: [...s.lines, ...s.pending].slice(-MAX_LOG_LINES), pending: [] }));
    },
    toggleLevel: (level) => set((s) => ({ levels: { ...s.levels, [level]: !s.levels[level] } })),
    setText: (text) => set({ text }),
    async loadTail(lines = 1000) {
      inFlight = [];
      try {
        const tail = await api.logsTail({ lines });
        const pushed = inFlight;
        inFlight = null;
        // Replaces the buffer (a refresh never appends a tail twice), then keeps pushed lines newer than it.
        set({ lines: [...tail, ...dropOverlap(tail, pushed, true)].slice(-MAX_LOG_LINES), pending: [], error: null });
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
