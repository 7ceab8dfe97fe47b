import { describe, expect, it } from 'vitest';
import { helperArgs, HelperUsageError, parseHelperArgs } from './request';

describe('helper --allow-zones (zone policy)', () => {
  it('round-trips comma-separated zone names', () => {
    const req = { verb: 'start' as const, allowZones: ['corp.example', 'test'] };
    expect(helperArgs(req)).toEqual(['start', '--allow-zones', 'corp.example,test']);
    expect(parseHelperArgs(helperArgs(req))).toEqual(req);
  });
  it.each(['', 'a,,b', 'UPPER.case', 'x y', 'a;rm -rf /', `${'a,'.repeat(100)}a`])('refuses %j', (v) => {
    expect(() => parseHelperArgs(['start', '--allow-zones', v])).toThrow(HelperUsageError);
  });
});
