/**
 * A new user's finding: `k2s-dns queries --lines 4` printed three query rows and a run line, and
 * the help did not say what N counts. N counts query rows (withoutProbes, and the read of
 * `--probes`/`--json`); the header and each run's `— K2s DNS started … —` line come on top, and
 * `--help` says so.
 */
import { describe, expect, it } from 'vitest';
import { capturedQueryRow } from '../core/capture/to-query-row';
import { QUERIES_HEADER, queriesTextLines, withoutProbes } from './print-queries';
import { commandUsage } from './usage';
import type { QueryRow } from '../../shared/query-log/row';

const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'a.example.test', type: 'A', queryUs: 1_764_615_600_123_456, rcode: 'NOERROR', answers: ['192.0.2.7'], latencyMs: 0.4, upstream: '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 };

/** Row `n` (`n` ms after c's time) of the run started at `runMs`, named `name`. */
const row = (name: string, n: number, runMs: number): QueryRow => ({ ...capturedQueryRow({ ...c, name, id: 4101 + n, queryUs: c.queryUs + n * 1000 }, 'adguard', `k${n}`, []), runStartedMs: runMs });

describe('k2s-dns queries --lines N', () => {
  // Two runs: rows 0–2 of the first, rows 3–5 of the second; row 4 is a health check.
  const first = c.queryUs / 1000 - 60_000;
  const second = c.queryUs / 1000 + 2;
  const rows = [row('r0.example.test', 0, first), row('r1.example.test', 1, first), row('r2.example.test', 2, first), row('r3.example.test', 3, second), row('KUBERNETES.DEFAULT.svc.cluster.local', 4, second), row('r5.example.test', 5, second)];

  it('prints N query rows, the header and the run lines on top (--lines 4 across a start: 4 rows, 2 run lines, 1 header)', () => {
    const shown = withoutProbes(rows, 4);
    const lines = queriesTextLines(shown.rows);
    expect(lines[0]).toBe(QUERIES_HEADER);
    const runLines = lines.filter((l) => l.startsWith('— K2s DNS started '));
    const queryLines = lines.slice(1).filter((l) => !l.startsWith('— '));
    expect(queryLines.map((l) => l.split(' ')[4])).toEqual(['r1.example.test', 'r2.example.test', 'r3.example.test', 'r5.example.test']);
    expect(runLines).toHaveLength(2);
    expect(lines).toHaveLength(1 + 2 + 4);
    expect(shown.hidden).toBe(1);
  });

  it('--help says N counts query rows and that the header and run lines come on top', () => {
    const help = commandUsage('queries').replace(/\s+/g, ' ');
    expect(help).toContain('the newest N query rows that are not health checks of k2s-dns');
    expect(help).toContain('It counts query rows only: the header line and the run lines below come on top of them.');
  });
});
