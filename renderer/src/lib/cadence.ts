/**
 * The one place for how often the window asks the backend again (issue 20.3: every view live
 * or labelled). Views poll only while they are on screen (their tab or the overview is open)
 * and the page is visible; the cadences are sized so that a change shows within 5 s.
 */

/** Poll intervals in ms, by what is polled. */
export const CADENCE_MS = {
  /** dns:status (the verdict line, the card, drift): a CLI start shows within ~1.3 s. */
  status: 1000,
  /** cluster:status while the Overview is open. */
  cluster: 3000,
  /** zones:list while the Zones tab is open (discovery reads the Corefile ConfigMap: heavier). */
  zones: 4000,
  /** resolver:diff while the Resolver diff tab is open (local files only). */
  diff: 3000,
} as const;

/** `14:03:07`: local wall-clock time of `ms` since the epoch, 24-hour, for "last known at …". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** `last known at 14:03:07`: what a view says while the source of its data cannot be reached. */
export function lastKnownText(ms: number): string {
  return `last known at ${clockTime(ms)}`;
}
