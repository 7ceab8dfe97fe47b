/**
 * New-user walk: the CLI printed "saved at 17:13:22" with no zone while docs/host-integration.md writes UTC.
 * Every CLI time now carries its zone (cliTimeText, cliTimes); the window's timeText stays bare.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cliTimes, cliTimeText, timeText, zoneName } from './clock';

const before = process.env.TZ;
/** Node reads TZ again when it is assigned (Date and Intl alike). */
function inZone(tz: string): void {
  process.env.TZ = tz;
}

afterEach(() => {
  if (before === undefined) delete process.env.TZ;
  else process.env.TZ = before;
});

const at = Date.parse('2026-12-05T17:13:22Z');
const sameDay = Date.parse('2026-12-05T17:20:00Z');

describe('CLI times carry their zone', () => {
  it('in UTC: "17:13:22 UTC"; the window\'s format stays without one', () => {
    inZone('UTC');
    expect(cliTimeText(at, sameDay)).toBe('17:13:22 UTC');
    expect(timeText(at, sameDay)).toBe('17:13:22');
    // Another day keeps its date before the time.
    expect(cliTimeText(at, Date.parse('2026-12-06T09:00:00Z'))).toBe('2026-12-05 17:13:22 UTC');
    inZone('Etc/UTC');
    expect(zoneName(at)).toBe('UTC');
  });

  it("elsewhere: the zone's name where it has one, else its offset from UTC (with DST)", () => {
    inZone('America/New_York');
    expect(cliTimeText(at, sameDay)).toBe('12:13:22 EST');
    inZone('Europe/Berlin');
    expect(cliTimeText(at, sameDay)).toBe('18:13:22 UTC+1');
    expect(zoneName(Date.parse('2026-07-01T12:00:00Z'))).toBe('UTC+2');
    inZone('Asia/Kolkata');
    expect(cliTimeText(at, sameDay)).toBe('22:43:22 UTC+5:30');
    // London in winter is at UTC itself: said as UTC, not GMT.
    inZone('Europe/London');
    expect(zoneName(at)).toBe('UTC');
  });

  it("a backend message's ISO times and `HH:MM:SS UTC` clocks print with the zone", () => {
    inZone('UTC');
    expect(cliTimes('Restored the original saved at 2026-12-05T17:13:22.123Z, byte for byte.', sameDay)).toBe('Restored the original saved at 17:13:22 UTC, byte for byte.');
    expect(cliTimes('the file in place at Start, saved at 17:13:22 UTC by k2s-dns', sameDay)).toBe('the file in place at Start, saved at 17:13:22 UTC by k2s-dns');
    inZone('Asia/Kolkata');
    expect(cliTimes('the file in place at Start, saved at 17:13:22 UTC by k2s-dns', sameDay)).toBe('the file in place at Start, saved at 22:43:22 UTC+5:30 by k2s-dns');
    // Its own output passes through unchanged (a fix line that already holds a printed time).
    expect(cliTimes('saved at 22:43:22 UTC+5:30 by k2s-dns', sameDay)).toBe('saved at 22:43:22 UTC+5:30 by k2s-dns');
    inZone('Europe/Berlin');
    expect(cliTimes(cliTimes('saved at 17:13:22 UTC', sameDay), sameDay)).toBe(cliTimes('saved at 17:13:22 UTC', sameDay));
  });
});
