/** Counts in words: "1 error", never "1 errors" (new-user pass: the Diagnostics summary badge). */
import { describe, expect, it } from 'vitest';
import { severityCountText } from './announce';

describe('Diagnostics summary counts', () => {
  it('singular for one, plural otherwise', () => {
    expect(severityCountText('error', 1)).toBe('1 error');
    expect(severityCountText('error', 0)).toBe('0 errors');
    expect(severityCountText('warn', 1)).toBe('1 warning');
    expect(severityCountText('warn', 2)).toBe('2 warnings');
    expect(severityCountText('info', 3)).toBe('3 info');
    expect(severityCountText('ok', 1)).toBe('1 ok');
  });
});
