/** Wall-clock times as the CLI and the window both print them; the CLI adds the zone (cliTimeText). */

/** `14:03:07`: local wall-clock time of `ms` since the epoch, 24-hour. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * The one time format of the window and the CLI: `14:03:07` today, `2026-11-30 14:03:07` on
 * another day (local, 24-hour). Every view that names a time uses it (new-user pass: four formats
 * in one window).
 */
export function timeText(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const today = new Date(now);
  const p = (n: number) => String(n).padStart(2, '0');
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  return sameDay ? clockTime(ms) : `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${clockTime(ms)}`;
}

/**
 * An ISO 8601 time with seconds and a zone (`2026-12-02T01:12:03.456Z`, `…+01:00`), or a `01:12:03 UTC`
 * clock — not one already written with an offset (`01:12:03 UTC+1`, cliTimeText's), so a second pass changes nothing.
 */
const BACKEND_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})|\b\d{2}:\d{2}:\d{2} UTC(?![+-]?\d)\b/g;

/**
 * `text` (a backend message: lifecycle results, status notes) with every ISO time and
 * `HH:MM:SS UTC` clock in the one time format (timeText), for people: "restored the original saved
 * at 2026-12-02T01:12:03.456Z" → "… saved at 02:12:03" in a UTC+1 zone. The window shows messages
 * through it and the CLI prints them through it; `--json` keeps the backend's ISO times. A
 * `HH:MM:SS UTC` clock is read as today's (UTC).
 */
export function localTimes(text: string, now = Date.now(), format: (ms: number, now: number) => string = timeText): string {
  return text.replace(BACKEND_TIME, (t) => {
    const utcClock = /^(\d{2}):(\d{2}):(\d{2}) UTC$/.exec(t);
    if (utcClock) {
      const d = new Date(now);
      return format(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), Number(utcClock[1]), Number(utcClock[2]), Number(utcClock[3])), now);
    }
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? t : format(ms, now);
  });
}

/**
 * The local time zone at `ms`, as the CLI writes it after a time: `UTC` at offset 0, else the
 * zone's short English name where it has one (`EST`, `CET`), else the offset (`UTC+1`, `UTC+5:30`).
 * From Intl (ECMA-402 DateTimeFormat `timeZoneName: 'short'`, whose unnamed zones read `GMT+1`,
 * written here as `UTC+1`); the offset from Date when Intl gives none.
 */
export function zoneName(ms: number): string {
  const d = new Date(ms);
  let name: string | undefined;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value;
  } catch {
    name = undefined;
  }
  const gmt = name === undefined ? null : /^(?:GMT|UTC)([+-]\d{1,2}(?::\d{2})?)?$/.exec(name);
  if (name !== undefined && gmt === null) return name;
  const offset = -d.getTimezoneOffset();
  if (offset === 0) return 'UTC';
  const abs = Math.abs(offset);
  return `UTC${offset < 0 ? '-' : '+'}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
}

/**
 * A time as every CLI line prints it: timeText (local, the date before it on another day) and
 * its zone (zoneName): `17:13:22 UTC`, `2026-11-30 14:03:07 UTC+1`. A terminal's lines are pasted
 * and read elsewhere, where a bare clock's zone is not known (new-user walk: "saved at 17:13:22"
 * while docs/host-integration.md writes UTC); the window, read where it runs, shows timeText alone.
 */
export function cliTimeText(ms: number, now = Date.now()): string {
  return `${timeText(ms, now)} ${zoneName(ms)}`;
}

/** `text` (a backend message) with its times as the CLI prints them (localTimes with cliTimeText); `--json` keeps the backend's. */
export function cliTimes(text: string, now = Date.now()): string {
  return localTimes(text, now, cliTimeText);
}
