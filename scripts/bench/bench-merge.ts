/**
 * A partial bench run (BENCH_ONLY=debian, …) rewrites docs/bench.md and docs/bench.json whole:
 * mergeSections keeps, for every section it did not run, the figures of the last report, so the
 * report stays one table of every goal (each section says its own load average, loadAt).
 */
import type { BenchResult } from './report';

/** The BenchResult fields each BENCH_ONLY section writes (run.ts). */
export const SECTION_FIELDS: Record<string, readonly (keyof BenchResult)[]> = {
  cli: ['cli'],
  lifecycle: ['lifecycle', 'floor'],
  debian: ['lifecycleSystemd'],
  dnsperf: ['dnsperf'],
  query: ['query'],
  logs: ['logViewer', 'logSearch', 'exactPages'],
  ui: ['ui', 'renderer'],
  idle: ['idle'],
};

/** The loadAt keys (run.ts mark) of each section. */
const LOAD_KEY: Record<string, (key: string) => boolean> = {
  cli: (k) => k === 'cli',
  lifecycle: (k) => k === 'floor' || (k.startsWith('lifecycle ') && k !== 'lifecycle debian'),
  debian: (k) => k === 'lifecycle debian',
  dnsperf: (k) => k === 'dnsperf',
  query: (k) => k === 'query',
  logs: (k) => k === 'logs',
  ui: (k) => k === 'ui',
  idle: (k) => k.startsWith('idle'),
};

/**
 * `run` (this run, sections `ran`) with every other section's fields and load averages taken
 * from `last` (the previous docs/bench.json; null: none, `run` as it is). Its notes that a
 * section was not in BENCH_ONLY go for the sections `last` had; the date, commit and machine are
 * this run's, and a line in notMeasured says which sections are older and from when.
 */
export function mergeSections(run: BenchResult, last: BenchResult | null, ran: ReadonlySet<string>): BenchResult {
  if (!last) return run;
  const merged: BenchResult = { ...run, loadAt: { ...run.loadAt }, stealAt: { ...run.stealAt } };
  const kept: string[] = [];
  for (const [section, fields] of Object.entries(SECTION_FIELDS)) {
    if (ran.has(section)) continue;
    const had = fields.some((f) => { const v = last[f]; return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0); });
    if (!had) continue;
    kept.push(section);
    for (const f of fields) (merged as unknown as Record<string, unknown>)[f] = last[f];
    for (const [k, v] of Object.entries(last.loadAt ?? {})) if (LOAD_KEY[section]!(k)) merged.loadAt![k] = v;
    for (const [k, v] of Object.entries(last.stealAt ?? {})) if (LOAD_KEY[section]!(k)) merged.stealAt![k] = v;
  }
  merged.notMeasured = run.notMeasured.filter((n) => !kept.some((s) => n.toLowerCase().startsWith(`${s}:`)));
  if (kept.length) merged.notMeasured.push(`Sections ${kept.join(', ')} are from the run of ${last.date} (commit ${last.versions.commit ?? '?'}); this run (BENCH_ONLY) measured ${[...ran].join(', ')}.`);
  return merged;
}
