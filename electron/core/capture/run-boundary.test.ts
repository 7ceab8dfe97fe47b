import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markStartRolledBack, parseStartChecks, runOf, startChecksBeside, writeStartChecks } from './start-checks';
import { readCapturedRows } from './rows-reader';
import { createHostFs } from '../host/host-fs-node';
import { exactRowLines } from '../../cli/print-queries';
import { runBoundary, runBoundaryLine } from '../../../shared/query-log/run-boundary';

const T0 = 1_764_615_600_000; // ms
const us = (ms: number) => Math.round(ms * 1000);
const hhmmss = (ms: number) => new Date(ms).toTimeString().slice(0, 8);

describe('run boundaries of the exact query log (new user: rows of the run before the last stop came first, nothing said which run a row was of)', () => {
  it("a row's run is the latest kept start that began at or before it (startedMs, else the window's fromMs)", () => {
    const checks = { names: ['a.test'], fromMs: T0 + 10_000, toMs: T0 + 10_010, startedMs: T0 + 9_500, earlier: [{ names: ['a.test'], fromMs: T0 + 100, toMs: T0 + 110 }] };
    expect(runOf(checks, us(T0 + 50))?.startedMs).toBe(undefined);
    expect(runOf(checks, us(T0 + 100))?.startedMs).toBe(T0 + 100);
    expect(runOf(checks, us(T0 + 9_499))?.startedMs).toBe(T0 + 100);
    // Asked after the last start began but before its verify: the last run's (its capture was open).
    expect(runOf(checks, us(T0 + 9_600))?.startedMs).toBe(T0 + 9_500);
    expect(runOf(checks, us(T0 + 60_000))?.startedMs).toBe(T0 + 9_500);
    expect(runOf(null, us(T0))?.startedMs).toBe(undefined);
  });

  it('startedMs is written and read back; one after its own checks (hand-edited) is left out', async () => {
    expect(parseStartChecks(JSON.stringify({ names: ['a.test'], fromMs: 5, toMs: 6, startedMs: 3 }))).toEqual({ names: ['a.test'], fromMs: 5, toMs: 6, startedMs: 3 });
    expect(parseStartChecks(JSON.stringify({ names: ['a.test'], fromMs: 5, toMs: 6, startedMs: 7 }))).toEqual({ names: ['a.test'], fromMs: 5, toMs: 6 });
    expect(parseStartChecks(JSON.stringify({ names: ['a.test'], fromMs: 5, toMs: 6, startedMs: 'x' }))).toEqual({ names: ['a.test'], fromMs: 5, toMs: 6 });
  });

  describe('on disk: two runs in one log', () => {
    let root = '';
    afterEach(() => {
      if (root) rmSync(root, { recursive: true, force: true });
      root = '';
    });
    /** A temp host root with the log directory: its HostFs and the real path of its queries.jsonl. */
    const logRoot = () => {
      root = mkdtempSync(path.join(tmpdir(), 'k2s-run-boundary-'));
      mkdirSync(path.join(root, 'var/log/dnsproxy'), { recursive: true });
      mkdirSync(path.join(root, 'etc'), { recursive: true });
      return { fs: createHostFs(root), rows: path.join(root, 'var/log/dnsproxy/queries.jsonl') };
    };
    const line = (name: string, ms: number, id: number) => JSON.stringify({ proto: 'udp', client: `127.0.0.1:${41000 + id}`, listener: '127.0.0.1:53', id, name, type: 'A', queryUs: us(ms), rcode: 'NOERROR', answers: ['198.51.100.7'], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 });

    it('each row names its run; queries prints a boundary line before the first row shown and before the first row of the next run', async () => {
      const { fs, rows } = logRoot();
      const first = { names: ['kubernetes.default.svc.cluster.local'], fromMs: T0 + 200, toMs: T0 + 210, startedMs: T0 };
      const second = { names: ['kubernetes.default.svc.cluster.local'], fromMs: T0 + 60_200, toMs: T0 + 60_210, startedMs: T0 + 60_000 };
      await writeStartChecks(fs, first, false);
      await writeStartChecks(fs, second, false);
      expect(JSON.parse(readFileSync(startChecksBeside(rows), 'utf8'))).toEqual({ ...second, earlier: [first] });
      writeFileSync(rows, [line('web.demo.svc.cluster.local', T0 + 1_000, 1), line('web.demo.svc.cluster.local', T0 + 2_000, 2), line('web.demo.svc.cluster.local', T0 + 60_100, 3), line('web.demo.svc.cluster.local', T0 + 61_000, 4)].join('\n') + '\n');
      const got = await readCapturedRows(rows, 50, 'adguard', []);
      expect(got.rows.map((r) => r.runStartedMs)).toEqual([T0, T0, T0 + 60_000, T0 + 60_000]);
      const printed = exactRowLines(got.rows);
      expect(printed.map((l) => (l.startsWith('—') ? l : l.split(' ')[1]))).toEqual([
        runBoundaryLine(T0),
        '127.0.0.1:41001',
        '127.0.0.1:41002',
        runBoundaryLine(T0 + 60_000),
        '127.0.0.1:41003',
        '127.0.0.1:41004',
      ]);
      expect(printed[3]).toMatch(new RegExp(`^— K2s DNS started \\d{4}-\\d\\d-\\d\\d ${hhmmss(T0 + 60_000)} [+-]\\d\\d:\\d\\d —$`));
      // Only the newest two: the last run's line heads them.
      expect(exactRowLines(got.rows.slice(2))[0]).toBe(runBoundaryLine(T0 + 60_000));
    });

    it('a start that failed and was rolled back: its rows are headed by a line that says so, the next run\'s by a started line', async () => {
      const { fs, rows } = logRoot();
      const failed = { names: ['kubernetes.default.svc.cluster.local'], fromMs: T0 + 200, toMs: T0 + 15_200, startedMs: T0 };
      await writeStartChecks(fs, failed, false);
      // Only the window it wrote is marked: another one is not.
      await markStartRolledBack(fs, { ...failed, toMs: T0 + 15_201 }, false);
      expect(parseStartChecks(readFileSync(startChecksBeside(rows), 'utf8'))?.rolledBack).toBeUndefined();
      await markStartRolledBack(fs, failed, false);
      await writeStartChecks(fs, { names: ['kubernetes.default.svc.cluster.local'], fromMs: T0 + 60_200, toMs: T0 + 60_210, startedMs: T0 + 60_000 }, false);
      expect(parseStartChecks(readFileSync(startChecksBeside(rows), 'utf8'))?.earlier).toEqual([{ ...failed, rolledBack: true }]);
      writeFileSync(rows, [line('kubernetes.default.svc.cluster.local', T0 + 300, 1), line('web.demo.svc.cluster.local', T0 + 61_000, 2)].join('\n') + '\n');
      const got = await readCapturedRows(rows, 50, 'adguard', []);
      expect(got.rows.map((r) => [r.runStartedMs, r.runRolledBack])).toEqual([[T0, true], [T0 + 60_000, undefined]]);
      const printed = exactRowLines(got.rows);
      expect(printed[0]).toMatch(new RegExp(`^— K2s DNS start \\d{4}-\\d\\d-\\d\\d ${hhmmss(T0)} [+-]\\d\\d:\\d\\d failed and was rolled back —$`));
      expect(printed[2]).toBe(runBoundaryLine(T0 + 60_000));
      expect(printed[2]).toMatch(/^— K2s DNS started /);
    });
  });

  it('a row of no known run gets no line, and a row of the same run as the one above none', () => {
    expect(runBoundary({}, undefined)).toBe(null);
    expect(runBoundary({ runStartedMs: 5 }, { runStartedMs: 5 })).toBe(null);
    expect(runBoundary({ runStartedMs: 5 }, {})).toBe(5);
    expect(runBoundary({ runStartedMs: 5 }, undefined)).toBe(5);
  });
});
