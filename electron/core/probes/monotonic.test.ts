import { describe, expect, it } from 'vitest';
import { monotonicMs } from './monotonic';

describe('monotonicMs', () => {
  it('runs at the rate of performance.now(): an interval of one clock read inside the other\'s is no longer, one around it no shorter', () => {
    const m0 = monotonicMs();
    const p0 = performance.now();
    const m1 = monotonicMs();
    let x = 0;
    for (let i = 0; i < 200_000; i++) x += Math.sqrt(i);
    const m2 = monotonicMs();
    const p1 = performance.now();
    const m3 = monotonicMs();
    expect(x).toBeGreaterThan(0);
    // 1 µs of slack for rounding of the two doubles.
    expect(m2 - m1).toBeLessThanOrEqual(p1 - p0 + 0.001);
    expect(p1 - p0).toBeLessThanOrEqual(m3 - m0 + 0.001);
    expect(m2 - m1).toBeGreaterThan(0);
  });

  it('never goes back and has sub-ms resolution', () => {
    const xs = Array.from({ length: 1000 }, () => monotonicMs());
    expect(xs.every((x, i) => i === 0 || x >= xs[i - 1]!)).toBe(true);
    expect(xs.some((x) => !Number.isInteger(x))).toBe(true);
  });
});
