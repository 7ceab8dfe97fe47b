import { describe, expect, it } from 'vitest';
import { figure, percentile } from './stats';

describe('bench statistics', () => {
  it('median, min and max of odd and even sample counts', () => {
    expect(figure([5, 1, 3, 9, 7])).toEqual({ median: 5, min: 1, max: 9, n: 5 });
    expect(figure([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, n: 4 });
    expect(figure([]).n).toBe(0);
  });
  it('nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([3], 99)).toBe(3);
  });
});
