/** Wall-clock times as the CLI and the window both print them. */

/** `14:03:07`: local wall-clock time of `ms` since the epoch, 24-hour. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
