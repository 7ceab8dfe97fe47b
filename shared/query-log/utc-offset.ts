/**
 * The UTC offset of the query log's local times, so a printed time says its time zone
 * (`2026-12-07T12:03:04.123456+01:00`, ISO 8601's time offset). Pure but for the process's time
 * zone (TZ, else /etc/localtime), the one the rows' local times were made in (localIso of
 * electron/core/capture/to-query-row.ts, run in the reading process).
 */

/** `+01:00`, `-05:30`, `+00:00`: the offset from UTC of the process's time zone at `ms` (since the epoch). */
export function utcOffsetAt(ms: number): string {
  const east = -new Date(ms).getTimezoneOffset();
  const abs = Math.abs(east);
  return `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const LOCAL_ISO = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d+)?$/;

/**
 * `time` (a local ISO-8601 time without offset: `2026-12-07T12:03:04.123456`) with the offset
 * the process's time zone has at that local time appended; any other text as it is. In the
 * hour a clock turned back repeats, the offset is the earlier one's (what `new Date(y, m, …)` picks).
 */
export function withUtcOffset(time: string): string {
  const m = LOCAL_ISO.exec(time);
  if (!m) return time;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return `${time}${utcOffsetAt(new Date(y, mo - 1, d, h, mi, s).getTime())}`;
}
