import { describe, expect, it } from 'vitest';
import { cpuTimes, stealShare } from './steal';

describe('steal share', () => {
  it('reads steal and the total of the first eight times of the cpu line (guest is in user already)', () => {
    const stat = 'cpu  845277 13485 159371 1513902 5118 0 9886 7956 100 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1\n';
    expect(cpuTimes(stat)).toEqual({ steal: 7956, total: 845277 + 13485 + 159371 + 1513902 + 5118 + 0 + 9886 + 7956 });
    expect(cpuTimes('intr 1\n')).toBeNull();
    expect(cpuTimes('cpu  1 2 x 4 5 6 7 8\n')).toBeNull();
  });

  it('is the steal delta over the total delta; null without two readings or time between them', () => {
    expect(stealShare({ steal: 100, total: 1000 }, { steal: 150, total: 1200 })).toBe(0.25);
    expect(stealShare({ steal: 100, total: 1000 }, { steal: 100, total: 1000 })).toBeNull();
    expect(stealShare(null, { steal: 1, total: 2 })).toBeNull();
  });
});
