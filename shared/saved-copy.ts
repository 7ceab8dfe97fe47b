/**
 * How to name the resolver copy K2s DNS keeps — what stop's restore puts back — in the banner,
 * its dialog and stop's result: "the original saved at start", or, once a follow adopted the
 * network's newest file (electron/core/lifecycle/follow.ts sets savedAt to the follow's time),
 * "the file NetworkManager wrote at 00:00:40 (followed while K2s DNS ran)". A drift after that
 * follow does not change the copy, so the copy is named by the followed change whose time is
 * savedAt, not by the newest change. Pure module.
 */
import type { NetworkChangeView } from './types';

/** The followed change that made the saved copy (`at` === `savedAt`), among `changes`; null when the copy is start's. */
export function followedCopy(changes: readonly (NetworkChangeView | null | undefined)[], savedAt: string | null | undefined): NetworkChangeView | null {
  if (!savedAt) return null;
  return changes.find((c): c is NetworkChangeView => !!c && c.outcome === 'followed' && c.at === savedAt) ?? null;
}

/** The copy's name; `time` formats the follow's time (ms since the epoch). */
export function savedCopyWords(followed: NetworkChangeView | null, time: (ms: number) => string): string {
  if (!followed) return 'the original saved at start';
  const ms = Date.parse(followed.at);
  return `the file ${followed.writer || 'another program'} wrote at ${Number.isNaN(ms) ? followed.at : time(ms)} (followed while K2s DNS ran)`;
}
