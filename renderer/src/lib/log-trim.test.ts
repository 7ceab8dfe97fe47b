/** The Logs buffer cap keeps the user's queries while health probes keep arriving (real dnsproxy v0.83.1 lines). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from '../../../shared/log-line';
import { buildQueryLog } from '../../../shared/query-log';
import { createLogsStore, MAX_LOG_LINES } from '../stores/logs';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import { MAX_PROBE_LINES, trimLogLines } from './log-trim';

const verbose = readFileSync(new URL('../../../fixtures/logs/dnsproxy-verbose.log', import.meta.url), 'utf8').split('\n');
// Lines 19–49: one user query (kube-dns.kube-system.svc.cluster.local A → 172.21.0.10), packet to reply.
const userQuery = verbose.slice(18, 49);
// Lines 50–80: kubernetes.default.svc.cluster.local A, respelled as the health probe asks it (shared/health-probe.ts).
const probeQuery = verbose.slice(49, 80).map((l) => l.replaceAll('kubernetes.default.svc', 'KUBERNETES.DEFAULT.svc'));
const parse = (raw: string[]) => raw.map((l) => parseLogLine(l, { year: 2026 }));

describe('log buffer cap', () => {
  it('the fixture slices are one user query and one probe', () => {
    expect(buildQueryLog(parse([...userQuery, ...probeQuery])).map((r) => [r.name, r.probe, r.rcode, r.answers])).toEqual([
      ['kube-dns.kube-system.svc.cluster.local', false, 'NOERROR', ['172.21.0.10']],
      ['kubernetes.default.svc.cluster.local', true, 'NOERROR', ['172.21.0.1']],
    ]);
  });

  it('health probes arriving after a user query never evict it; probe lines stay within their budget', () => {
    const logs = createLogsStore(inProcessApi());
    logs.getState().append(parse(userQuery));
    // 1 s status poll for ~5 minutes: 300 probes × 31 lines, pushed one probe per batch.
    for (let i = 0; i < 300; i++) logs.getState().append(parse(probeQuery));
    const lines = logs.getState().lines;
    expect(lines.length).toBeLessThanOrEqual(MAX_LOG_LINES);
    const rows = buildQueryLog(lines);
    expect(rows.filter((r) => !r.probe).map((r) => [r.name, r.rcode, r.answers])).toEqual([['kube-dns.kube-system.svc.cluster.local', 'NOERROR', ['172.21.0.10']]]);
    // Whole probe queries are kept: every probe row is complete.
    const probes = rows.filter((r) => r.probe);
    // Past the cap the probes were cut to their budget (32 whole queries), then grew again below the cap.
    expect(probes.length).toBeGreaterThanOrEqual(Math.floor(MAX_PROBE_LINES / probeQuery.length));
    expect(probes.length * probeQuery.length + userQuery.length).toBe(lines.length);
    expect(probes.every((r) => r.rcode === 'NOERROR' && r.answers[0] === '172.21.0.1')).toBe(true);
  });

  it('user lines past the cap still go oldest first', () => {
    const lines = parse(Array.from({ length: 40 }, () => userQuery).flat());
    const kept = trimLogLines(lines, 31 * 10);
    expect(kept).toHaveLength(310);
    expect(kept[0]).toBe(lines[lines.length - 310]);
  });
});
