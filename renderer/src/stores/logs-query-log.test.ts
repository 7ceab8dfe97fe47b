/** The logs store keeps the query log with its lines, parsing each pushed batch once (real dnsproxy v0.83.1 and dnsmasq 2.90 lines). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseLogLine } from '../../../shared/log-line';
import { buildQueryLog, QueryLogBuilder } from '../../../shared/query-log';
import { fixtureRawLines } from '../../../e2e/support/log-fixtures';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import { createLogsStore } from './logs';

const ZONES = ['cluster.local', '21.172.in-addr.arpa'];
const LINES = [...fixtureRawLines('dnsproxy-verbose'), ...fixtureRawLines('dnsmasq-verbose')].map((l) => parseLogLine(l, { year: 2026 }));
const cells = (rows: ReturnType<typeof buildQueryLog>) => rows.map((r) => [r.name, r.type, r.route, r.zone, r.upstream, r.answers.join(','), r.rcode, r.client]);

afterEach(() => vi.restoreAllMocks());

describe('logs store: the query log', () => {
  it('pushed in batches of 7 lines, the store parses each line once and holds the log of its lines', () => {
    const push = vi.spyOn(QueryLogBuilder.prototype, 'push');
    const logs = createLogsStore(inProcessApi());
    logs.getState().setClusterZones(ZONES);
    for (let i = 0; i < LINES.length; i += 7) logs.getState().append(LINES.slice(i, i + 7));
    const parsed = push.mock.calls.reduce((n, [lines]) => n + lines.length, 0);
    expect(parsed).toBe(LINES.length);
    const s = logs.getState();
    expect(s.lines).toHaveLength(LINES.length);
    expect(cells(s.queries)).toEqual(cells(buildQueryLog(LINES, { clusterZones: ZONES })));
    expect(s.owners).toHaveLength(s.lines.length);
    // Each row is owned by the line that started it.
    for (const r of s.queries) expect(s.owners).toContain(r);
  });

  it('new cluster zones rebuild the routes of the lines held', () => {
    const logs = createLogsStore(inProcessApi());
    logs.getState().append(LINES);
    const route = () => logs.getState().queries.find((r) => r.name === '20.1.168.192.in-addr.arpa')!.zone;
    expect(logs.getState().queries.find((r) => r.name === 'kubernetes.default.svc.cluster.local')!.zone).toBeNull();
    logs.getState().setClusterZones(ZONES);
    expect(logs.getState().queries.find((r) => r.name === 'kubernetes.default.svc.cluster.local')!.zone).toBe('cluster.local');
    expect(route()).toBeNull();
  });
});
