/** How a view names the time of data it shows while its source cannot be reached. */

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
