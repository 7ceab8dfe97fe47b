import { describe, expect, it } from 'vitest';
import { READY_POLL_FAST, readyPollWait } from './service-ready';

/** ms from the first poll to the first poll at or after `t` ms, with wait `wait(attempt)` between polls. */
function foundAt(t: number, wait: (attempt: number) => number): number {
  let at = 0;
  for (let attempt = 0; at < t; attempt++) at += wait(attempt);
  return at;
}

describe('readyPollWait', () => {
  it('polls after 1, 2, then every 4 ms up to 127 ms, then 128 and 200 ms apart', () => {
    const waits = Array.from({ length: READY_POLL_FAST + 4 }, (_, i) => readyPollWait(i));
    expect(waits.slice(0, 5)).toEqual([1, 2, 4, 4, 4]);
    expect(waits.slice(READY_POLL_FAST - 1)).toEqual([4, 128, 200, 200, 200]);
    expect(waits.slice(0, READY_POLL_FAST).reduce((a, b) => a + b, 0)).toBe(127);
  });

  it('finds a proxy that binds at any time within 20 s no later than the plain doubling from 1 ms did, and within 4 ms in the first 127 ms', () => {
    const doubling = (attempt: number) => Math.min(200, 2 ** attempt);
    for (let t = 1; t <= 20_000; t += 1) {
      expect(foundAt(t, readyPollWait)).toBeLessThanOrEqual(foundAt(t, doubling));
      if (t <= 127) expect(foundAt(t, readyPollWait) - t).toBeLessThan(4);
    }
  });
});
