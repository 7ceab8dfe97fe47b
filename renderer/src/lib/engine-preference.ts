/**
 * The Engine select's choice, kept for the app: in the origin's localStorage, which every window
 * of the app shares (the desktop window and a browser tab of `k2s-dns ui` alike load the page
 * from the one web server) and which a reload keeps. A window open while another one chooses
 * follows it (the `storage` event fires in the other windows of the origin). Only a user's choice
 * is kept, never what a window shows for a running K2s DNS or its fallback when an engine is missing.
 */
import { isEngineName } from '../../../shared/engines/table';
import type { EngineName } from '../../../shared/types';

/** The Engine select's values: Automatic sends no engine. */
export type EngineChoice = EngineName | 'auto';

/** localStorage key of the choice. */
export const ENGINE_KEY = 'k2s-dns.engine';

/** The storage the choice lives in; null where there is none (a unit test, storage disabled). */
function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // a browser that refuses storage for this origin throws on access
  }
}

/** A stored value as a choice: `auto` for nothing stored or anything that is no engine name. */
export function engineChoiceOf(value: string | null): EngineChoice {
  return value !== null && isEngineName(value) ? value : 'auto';
}

/** The kept choice, `auto` when none. */
export function loadEngineChoice(store: Storage | null = storage()): EngineChoice {
  try {
    return engineChoiceOf(store?.getItem(ENGINE_KEY) ?? null);
  } catch {
    return 'auto';
  }
}

/** Keeps `choice` (Automatic removes the key: nothing chosen). A full or refused storage keeps nothing. */
export function saveEngineChoice(choice: EngineChoice, store: Storage | null = storage()): void {
  try {
    if (choice === 'auto') store?.removeItem(ENGINE_KEY);
    else store?.setItem(ENGINE_KEY, choice);
  } catch {
    // This window still shows the choice; the next one starts from Automatic.
  }
}

/** Calls `onChange` when another window of the app chooses; returns the unsubscribe. */
export function followEngineChoice(onChange: (choice: EngineChoice) => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const listener = (e: StorageEvent) => {
    if (e.key === ENGINE_KEY || e.key === null) onChange(engineChoiceOf(e.key === null ? null : e.newValue));
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
