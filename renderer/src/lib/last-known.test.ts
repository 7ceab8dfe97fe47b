import { describe, expect, it } from 'vitest';
import { clockTime, timeText, windowTimes } from './last-known';

describe('one time format in the window', () => {
  it('HH:MM:SS today, the date before it on another day (local, 24-hour)', () => {
    const at = new Date(2026, 11, 1, 18, 5, 7).getTime();
    expect(clockTime(at)).toBe('18:05:07');
    expect(timeText(at, new Date(2026, 11, 1, 23, 0, 0).getTime())).toBe('18:05:07');
    expect(timeText(at, new Date(2026, 11, 2, 0, 0, 1).getTime())).toBe('2026-12-01 18:05:07');
  });
});

describe('windowTimes: backend messages in the window’s one time format (issue 20 low: an ISO time in the Stop step)', () => {
  const now = Date.parse('2026-12-02T01:30:00Z');
  it('an ISO time becomes HH:MM:SS (local), today', () => {
    const at = Date.parse('2026-12-02T01:12:03.456Z');
    expect(windowTimes('Restored the original saved at 2026-12-02T01:12:03.456Z, byte for byte.', now)).toBe(`Restored the original saved at ${clockTime(at)}, byte for byte.`);
    expect(windowTimes('x 2026-12-02T01:12:03.456Z', now)).not.toMatch(/T\d\d:|Z\b/);
  });
  it('another day keeps its date; a "HH:MM:SS UTC" clock is local too; other text is untouched', () => {
    expect(windowTimes('saved at 2026-11-30T10:00:00Z', now)).toMatch(/^saved at 2026-11-3\d \d{2}:\d{2}:\d{2}$/);
    expect(windowTimes('the file NetworkManager wrote at 01:10:00 UTC (followed while K2s DNS ran)', now)).toBe(`the file NetworkManager wrote at ${clockTime(Date.parse('2026-12-02T01:10:00Z'))} (followed while K2s DNS ran)`);
    expect(windowTimes('K2s DNS is stopped; 127.0.0.1:53 and 12:30 stay.', now)).toBe('K2s DNS is stopped; 127.0.0.1:53 and 12:30 stay.');
  });
});
