import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from './log-line';
import { buildQueryLog } from './query-log';
import { fixtureRawLines } from '../e2e/support/log-fixtures';
import { hostileString } from '../e2e/support/hostile-arbitraries';

/** Real lines, shuffled, cut, duplicated and mixed with hostile ones: what a torn or interleaved log gives. */
const REAL = [...fixtureRawLines('dnsproxy-verbose'), ...fixtureRawLines('dnsmasq-verbose'), ...fixtureRawLines('dnsproxy-quiet')];
const lineArb = fc.oneof(
  fc.constantFrom(...REAL),
  fc.tuple(fc.constantFrom(...REAL), fc.nat()).map(([l, n]) => l.slice(0, n % (l.length + 1))),
  fc.tuple(fc.constantFrom('Nov 30 22:45:49 dnsmasq[1]: 7 127.0.0.1/1 ', '2026/11/30 22:45:38.1 DEBUG out prefix=dnsproxy line_num=1 line=', '2026/11/30 22:45:38.1 DEBUG '), hostileString(6)).map(([a, b]) => a + b),
);

describe('buildQueryLog on damaged real logs', () => {
  it('never throws and gives rows with a name and a type', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 200 }), (raw) => {
        const rows = buildQueryLog(raw.map((l) => parseLogLine(l, { year: 2026 })), { clusterZones: ['cluster.local'] });
        for (const r of rows) {
          expect(typeof r.name).toBe('string');
          expect(typeof r.type).toBe('string');
          expect(r.latencyMs === null || Number.isFinite(r.latencyMs)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
