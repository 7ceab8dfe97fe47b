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
