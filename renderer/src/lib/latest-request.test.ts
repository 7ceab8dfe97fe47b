import { describe, expect, it } from 'vitest';
import { latestRequest } from './latest-request';

describe('latestRequest', () => {
  it('only the newest request is the latest, whatever order the answers come in', () => {
    const requests = latestRequest();
    const first = requests.begin();
    expect(first()).toBe(true);
    const second = requests.begin();
    expect([first(), second()]).toEqual([false, true]);
    const third = requests.begin();
    expect([first(), second(), third()]).toEqual([false, false, true]);
  });
});

describe('latestRequest claims', () => {
  it('an answer applies unless a later request was applied first', () => {
    const requests = latestRequest();
    const a = requests.begin();
    const b = requests.begin();
    const c = requests.begin();
    expect([a.seq, b.seq, c.seq, requests.sent]).toEqual([1, 2, 3, 3]);
    // b answers first, then a (older: dropped), then c (newer: applied).
    expect(b.claim()).toBe(true);
    expect([a.stale(), a.claim()]).toEqual([true, false]);
    expect(c.claim()).toBe(true);
    expect(b.stale()).toBe(true);
  });
});
