/** How a view names the time of data it shows while its source cannot be reached. */

/** `14:03:07`: local wall-clock time of `ms` since the epoch, 24-hour, for "last known at …". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * The window's one time format: `14:03:07` today, `2026-11-30 14:03:07` on another day (local,
 * 24-hour). Every view that names a time uses it (new-user pass: four formats in one window).
 */
export function timeText(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const today = new Date(now);
  const p = (n: number) => String(n).padStart(2, '0');
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  return sameDay ? clockTime(ms) : `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${clockTime(ms)}`;
}

/** `last known at 14:03:07`: what a view says while the source of its data cannot be reached. */
export function lastKnownText(ms: number): string {
  return `last known at ${clockTime(ms)}`;
}
