/** Logs domain store: the proxy log buffer, pause/resume and filters. */
import { createStore } from 'zustand/vanilla';
import type { K2sDnsApi } from '../../../shared/api';
import type { LogLine } from '../../../shared/types';

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
  return createStore<LogsState>()((set, get) => ({
    lines: [],
    pending: [],
    paused: false,
    levels: { DEBUG: true, INFO: true, WARN: true, ERROR: true },
    text: '',
    error: null,
    append(lines) {
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
      try {
        set({ lines: await api.logsTail({ lines }), pending: [], error: null });
      } catch (err) {
        set({ error: (err as Error).message });
      }
    },
    attach() {
      return api.onLogLines((lines) => get().append(lines));
    },
  }));
}
