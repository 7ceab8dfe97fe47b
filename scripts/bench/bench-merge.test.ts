import { describe, expect, it } from 'vitest';
import { mergeSections } from './bench-merge';
import type { BenchResult } from './report';

const fig = (median: number) => ({ median, min: median, max: median, n: 5 });
/** A report with the given fields set over an empty one. */
function result(over: Partial<BenchResult>): BenchResult {
  return { date: '2026-12-05T00:00:00.000Z', machine: { cpus: 2, cpuModel: 'x', memGiB: 24, kernel: 'k', loadavgAtStart: [0, 0, 0] }, loadAt: {}, versions: { commit: 'new' }, rounds: 5, cli: {}, lifecycle: {}, floor: {}, dnsperf: [], query: {}, renderer: null, logViewer: null, logSearch: null, ui: null, idle: [], notMeasured: [], durationS: 1, ...over } as BenchResult;
}

describe('mergeSections', () => {
  it('keeps the last report\'s figures and load averages for the sections not run, this run\'s for the ones run, and says which are older', () => {
    const last = result({ date: '2026-12-04T10:00:00.000Z', versions: { commit: 'old' }, cli: { help: fig(41) }, query: { dig: fig(23) }, loadAt: { cli: 1.1, query: 0.9, 'lifecycle debian': 0.3 }, lifecycleSystemd: { host: 'old host', nodeFloor: fig(81), byEngine: {} } });
    const run = result({ loadAt: { 'lifecycle debian': 0.0 }, lifecycleSystemd: { host: 'new host', nodeFloor: fig(80), byEngine: {} }, notMeasured: ['dnsperf: not in BENCH_ONLY.', 'query: not in BENCH_ONLY.'] });
    const merged = mergeSections(run, last, new Set(['debian']));
    expect(merged.lifecycleSystemd?.host).toBe('new host');
    expect(merged.cli).toEqual({ help: fig(41) });
    expect(merged.query).toEqual({ dig: fig(23) });
    expect(merged.loadAt).toEqual({ 'lifecycle debian': 0.0, cli: 1.1, query: 0.9 });
    expect(merged.versions.commit).toBe('new');
    // dnsperf had nothing in the last report either: its note stays; query's goes.
    expect(merged.notMeasured).toEqual(['dnsperf: not in BENCH_ONLY.', 'Sections cli, query are from the run of 2026-12-04T10:00:00.000Z (commit old); this run (BENCH_ONLY) measured debian.']);
    expect(mergeSections(run, null, new Set(['debian']))).toBe(run);
  });
});
