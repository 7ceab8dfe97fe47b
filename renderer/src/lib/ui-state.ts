/**
 * App-shell state shared across panels: the open tab (so a fix button can open Resolver diff)
 * and the chosen engine (so a fix button can pick dnsmasq). One small store, not app-wide state.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { EngineName } from '../../../shared/types';
import { loadEngineChoice, saveEngineChoice } from './engine-preference';

/** The tabs in display order; `id` is also the tabpanel's id suffix. */
export const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'zones', label: 'Zones' },
  { id: 'diff', label: 'Resolver diff' },
  { id: 'logs', label: 'Logs' },
  { id: 'query', label: 'Query tester' },
  { id: 'topology', label: 'Topology' },
  { id: 'diagnostics', label: 'Diagnostics' },
] as const;

/** One tab id, e.g. `overview`. */
export type TabId = (typeof TABS)[number]['id'];

/** The Start options' KubeSwitch choice: let discovery decide, no KubeSwitch listener, or an address. */
export type KubeSwitchMode = 'auto' | 'none' | 'address';

/**
 * The open tab and the Start options: the Engine select's value (`auto` sends no engine to
 * dns:start; the user's choice is kept for the app, lib/engine-preference.ts) and the KubeSwitch choice — here, not in the card, so every Start button (the Host
 * DNS card's and the verdict's) sends the same input (lib/start-input.ts).
 */
export interface UiState {
  tab: TabId;
  engine: EngineName | 'auto';
  kubeSwitchMode: KubeSwitchMode;
  /** The typed address when `kubeSwitchMode` is `address`. */
  kubeSwitchAddress: string;
  /** What a running K2s DNS does with a new network resolver file (`--on-network-change`); follow sends nothing (the default). */
  onNetworkChange: 'follow' | 'keep';
  /** Upstreams typed in Start options (IP or IP:PORT, space- or comma-separated); empty: the saved resolver's nameservers. */
  upstreamsText: string;
  /**
   * Which saved copy Stop (and the drift banner's Restore my original) puts back (`--restore`):
   * the newest (default) or the file from before Start, offered only while status.startCopy is set.
   */
  stopRestore: 'newest' | 'start';
  setTab(tab: TabId): void;
  /** Shows `engine` in this window only (the running engine, a fallback); see chooseEngine. */
  setEngine(engine: EngineName | 'auto'): void;
  /** The user's choice: shown and kept for the app (every window, a reload: lib/engine-preference.ts). */
  chooseEngine(engine: EngineName | 'auto'): void;
  setKubeSwitch(mode: KubeSwitchMode, address?: string): void;
  setOnNetworkChange(policy: 'follow' | 'keep'): void;
  setUpstreams(text: string): void;
  setStopRestore(choice: 'newest' | 'start'): void;
}

/** The one UI-state store. */
export const uiState = createStore<UiState>()((set) => ({
  tab: 'overview',
  engine: loadEngineChoice(),
  kubeSwitchMode: 'auto',
  kubeSwitchAddress: '',
  onNetworkChange: 'follow',
  upstreamsText: '',
  stopRestore: 'newest',
  setTab: (tab) => set({ tab }),
  setEngine: (engine) => set({ engine }),
  chooseEngine: (engine) => {
    saveEngineChoice(engine);
    set({ engine });
  },
  setKubeSwitch: (kubeSwitchMode, address) => set((s) => ({ kubeSwitchMode, kubeSwitchAddress: address ?? s.kubeSwitchAddress })),
  setOnNetworkChange: (onNetworkChange) => set({ onNetworkChange }),
  setUpstreams: (upstreamsText) => set({ upstreamsText }),
  setStopRestore: (stopRestore) => set({ stopRestore }),
}));

/** Reads the UI-state store. */
export const useUi = <T,>(sel: (s: UiState) => T) => useStore(uiState, sel);

/**
 * The tab a key press moves to, per the WAI-ARIA tabs pattern (APG "Tabs with automatic
 * activation"): ArrowRight/ArrowLeft wrap around, Home/End go to the first/last; null for other keys.
 */
export function tabForKey(current: TabId, key: string): TabId | null {
  const i = TABS.findIndex((t) => t.id === current);
  const n = TABS.length;
  if (key === 'ArrowRight') return TABS[(i + 1) % n]!.id;
  if (key === 'ArrowLeft') return TABS[(i - 1 + n) % n]!.id;
  if (key === 'Home') return TABS[0].id;
  if (key === 'End') return TABS[n - 1]!.id;
  return null;
}
