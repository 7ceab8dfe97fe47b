/** QueryLogBuilder: fed in batches it gives the same log as one build over all lines (real captured logs, fixtures/logs/). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from '../log-line';
import { buildQueryLog } from '../query-log';
import { QueryLogBuilder } from './builder';
import { fixtureRawLines } from '../../e2e/support/log-fixtures';

const ZONES = { clusterZones: ['cluster.local', '21.172.in-addr.arpa'] };
/** Both engines' logs one after the other (three runs). */
const LINES = [...fixtureRawLines('dnsproxy-verbose'), ...fixtureRawLines('dnsmasq-verbose'), ...fixtureRawLines('dnsproxy-quiet')].map((l) => parseLogLine(l, { year: 2026 }));
const strip = (rows: { key: string }[]) => rows.map(({ key: _key, ...rest }) => rest);

describe('QueryLogBuilder', () => {
  it('fed in any batches, gives the rows and line owners of one build over all lines', () => {
    const owners: unknown[] = [];
    const whole = buildQueryLog(LINES, { ...ZONES, lineRows: owners as never });
    expect(whole.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 60 }), (sizes) => {
        const log = new QueryLogBuilder(ZONES);
        let at = 0;
        for (const n of sizes) {
          log.push(LINES.slice(at, at + n));
          at += n;
        }
        log.push(LINES.slice(at));
        expect(strip(log.rows())).toEqual(strip(whole));
        expect(log.lineRows().map((r) => r?.name ?? null)).toEqual((owners as ({ name: string } | null)[]).map((r) => r?.name ?? null));
      }),
      { numRuns: 50 },
    );
  });

  it('retain drops the lines not kept and the rows that no kept line owns', () => {
    const log = new QueryLogBuilder(ZONES);
    log.push(LINES);
    const owners = log.lineRows();
    const first = log.rows()[0]!;
    log.retain(owners.map((o) => o !== first));
    expect(log.rows()).not.toContain(first);
    expect(log.lineRows()).toHaveLength(owners.filter((o) => o !== first).length);
    expect(log.rows()).toHaveLength(buildQueryLog(LINES, ZONES).length - 1);
  });
});
