import { describe, expect, it } from 'vitest';
import { notLoggingLine } from './not-logging';

describe('notLoggingLine (walk 24)', () => {
  it('a running start with query logging off: says so, and that held rows are from an earlier run', () => {
    expect(notLoggingLine(false, true)).toBe('The running K2s DNS was started with query logging off: it logs no query; the rows shown are from an earlier run. To log queries, press Stop, then Start.');
    expect(notLoggingLine(false, false)).toBe('The running K2s DNS was started with query logging off: it logs no query. To log queries, press Stop, then Start.');
  });
  it('logging queries, or not known: nothing', () => {
    expect(notLoggingLine(undefined, true)).toBeNull();
  });
});
