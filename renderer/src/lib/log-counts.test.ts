/** Counts in words and the system resolver's TTL (first-user report 7). */
import { describe, expect, it } from 'vitest';
import { queryCountText, rawCountText, ttlText } from './log-counts';

describe('log counts', () => {
  it('raw view: lines with the queries they hold', () => {
    expect(rawCountText(40, 40, 12)).toBe('40 lines (12 queries)');
    expect(rawCountText(9, 40, 1)).toBe('9 of 40 lines (1 query)');
    expect(rawCountText(1, 1, 0)).toBe('1 line (0 queries)');
  });

  it('raw view with the exact query log in use: no query lines here says where the queries are', () => {
    expect(rawCountText(1237, 1237, 0, true)).toBe('1237 lines (no query lines: the queries are in the exact query log, in the Queries view)');
    expect(rawCountText(9, 40, 3, true)).toBe('9 of 40 lines (3 queries)');
  });

  it('query view: shown of total, and the hidden health probes', () => {
    expect(queryCountText(7, 7, 0)).toBe('7 queries');
    expect(queryCountText(5, 7, 30)).toBe('5 of 7 queries · 30 health probes hidden');
    // left28 #2: how many of the hidden ones start's verify asked.
    expect(queryCountText(5, 7, 30, 4)).toBe("5 of 7 queries · 30 health probes hidden (4 of them k2s-dns start's checks)");
    expect(queryCountText(0, 0, 4, 4)).toBe("0 queries · 4 health probes hidden (all are k2s-dns start's checks)");
    expect(queryCountText(1, 1, 1)).toBe('1 query · 1 health probe hidden');
  });

  it('TTL: — for getaddrinfo (no TTL), the number for a DNS answer', () => {
    expect(ttlText('getaddrinfo', 0)).toBe('—');
    expect(ttlText('udp', 0)).toBe('0');
    expect(ttlText('tcp', 30)).toBe('30');
  });
});

describe('raw rows stand for every line', () => {
  it('on the captured dnsproxy -v run, the rows add up to all its lines (grouped in/out messages count their records)', async () => {
    const { fixtureLines } = await import('../../../e2e/support/log-fixtures');
    const { rawRows } = await import('./log-rows');
    const lines = fixtureLines('dnsproxy-verbose');
    const rows = rawRows(lines, () => true);
    const shown = rows.reduce((n, r) => n + (r.kind === 'line' ? r.lines : 0), 0);
    expect(rows.filter((r) => r.kind === 'line').length).toBeLessThan(lines.length);
    expect(shown).toBe(lines.length);
  });
});
