import { describe, expect, it } from 'vitest';
import { clockTime, timeText } from './last-known';

describe('one time format in the window', () => {
  it('HH:MM:SS today, the date before it on another day (local, 24-hour)', () => {
    const at = new Date(2026, 11, 1, 18, 5, 7).getTime();
    expect(clockTime(at)).toBe('18:05:07');
    expect(timeText(at, new Date(2026, 11, 1, 23, 0, 0).getTime())).toBe('18:05:07');
    expect(timeText(at, new Date(2026, 11, 2, 0, 0, 1).getTime())).toBe('2026-12-01 18:05:07');
  });
});
