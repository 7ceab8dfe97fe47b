import { describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep';

/** Active timers of this process (Node's process.getActiveResourcesInfo). */
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('abortableSleep', () => {
  it('ends at the abort with its timer cleared (a pending timer would keep the process alive)', async () => {
    const ac = new AbortController();
    const before = timers();
    let over = false;
    const sleeping = abortableSleep(60_000, ac.signal).then(() => (over = true));
    expect(timers()).toBe(before + 1);
    await Promise.resolve();
    expect(over).toBe(false);
    ac.abort();
    await sleeping;
    expect(timers()).toBe(before);
  });

  it('an aborted signal: over at once, no timer; without a signal: a plain sleep', async () => {
    const ac = new AbortController();
    ac.abort();
    const before = timers();
    const sleeping = abortableSleep(60_000, ac.signal);
    expect(timers()).toBe(before);
    await sleeping;
    let over = false;
    const plain = abortableSleep(1).then(() => (over = true));
    expect(over).toBe(false);
    await plain;
    expect(over).toBe(true);
  });
});
