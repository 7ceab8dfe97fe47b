/** The health probes' spelling, and the query log recognising it in real dnsproxy v0.83.1 / dnsmasq 2.90 lines. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { healthProbeName, hidesAsProbeLine, isHealthProbeName } from './health-probe';
import { parseLogLine } from './log-line';
import { buildQueryLog } from './query-log';
import { fixtureLines } from '../e2e/support/log-fixtures';

const captured = (engine: 'dnsproxy' | 'dnsmasq') =>
  readFileSync(new URL(`../fixtures/logs/health-probe/${engine}.log`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => parseLogLine(l, { year: 2026 }));

describe('health probe marker', () => {
  it('spells the cluster name KUBERNETES.DEFAULT.svc.<domain>, any domain; other names unchanged', () => {
    expect(healthProbeName('kubernetes.default.svc.cluster.local')).toBe('KUBERNETES.DEFAULT.svc.cluster.local');
    expect(healthProbeName('kubernetes.default.svc.k2s.example')).toBe('KUBERNETES.DEFAULT.svc.k2s.example');
    expect(healthProbeName('www.example.test')).toBe('www.example.test');
    expect(isHealthProbeName('KUBERNETES.DEFAULT.svc.cluster.local.')).toBe(true);
    expect(isHealthProbeName('kubernetes.default.svc.cluster.local')).toBe(false);
  });

  it.each(['dnsproxy', 'dnsmasq'] as const)('%s: the captured probe is one row, marked probe, named in lower case, shown as the packet spelled it (tidy30: the listing lower-cased it)', (engine) => {
    const rows = buildQueryLog(captured(engine));
    expect(rows.map((r) => [r.name, r.type, r.probe])).toEqual([['kubernetes.default.svc.cluster.local', 'A', true]]);
    expect(rows[0]!.answers).toEqual(['10.0.0.1']);
    // Both engines log the name as asked (fixtures/logs/health-probe/README.md): the row keeps it, as an exact-log row does.
    expect(rows[0]!.asked).toBe('KUBERNETES.DEFAULT.svc.cluster.local');
  });

  it('real traffic in the captured engine logs is never marked', () => {
    for (const name of ['dnsproxy-verbose', 'dnsproxy-quiet', 'dnsmasq-verbose'] as const) {
      const rows = buildQueryLog(fixtureLines(name));
      expect(rows.length, name).toBeGreaterThan(0);
      expect(rows.filter((r) => r.probe), name).toEqual([]);
      // Asked in lower case: no `asked` beside `name`.
      expect(rows.filter((r) => r.asked !== undefined), name).toEqual([]);
    }
  });
});

describe('only the spelling marks a probe: a user query of the same name is never hidden by its timing', () => {
  const proxyLines = (name: string, id: number, time: string, type = 'A') =>
    [
      `2026/12/01 ${time} DEBUG in prefix=dnsproxy line_num=1 line=";; opcode: QUERY, status: NOERROR, id: ${id}"`,
      `2026/12/01 ${time} DEBUG in prefix=dnsproxy line_num=2 line=";; QUESTION SECTION:"`,
      `2026/12/01 ${time} DEBUG in prefix=dnsproxy line_num=3 line=";${name}.\\tIN\\t ${type}"`,
    ].map((l) => parseLogLine(l));

  it('lowercase A/AAAA 1 ms beside a marked probe stay visible; the marked ones (getent keeps the capitals) are probes', () => {
    const rows = buildQueryLog([
      ...proxyLines('kubernetes.default.svc.cluster.local', 1, '03:24:07.745000'),
      ...proxyLines('kubernetes.default.svc.cluster.local', 2, '03:24:07.745500', 'AAAA'),
      ...proxyLines('KUBERNETES.DEFAULT.svc.cluster.local', 3, '03:24:07.746260'),
      ...proxyLines('KUBERNETES.DEFAULT.svc.cluster.local', 4, '03:24:07.746300', 'AAAA'),
      ...proxyLines('www.example.test', 5, '03:24:07.746400'),
    ]);
    expect(rows.map((r) => `${r.name} ${r.type} ${r.probe}`)).toEqual([
      'kubernetes.default.svc.cluster.local A false',
      'kubernetes.default.svc.cluster.local AAAA false',
      'kubernetes.default.svc.cluster.local A true',
      'kubernetes.default.svc.cluster.local AAAA true',
      'www.example.test A false',
    ]);
  });
});

describe('hidesAsProbeLine: a probe\'s own lines may be hidden, an engine ERROR/WARN line never', () => {
  it('during an outage the dnsproxy ERROR line of a probe\'s query stays, its DEBUG lines go', () => {
    const lines = [
      '2026/11/29 15:04:07.000001 DEBUG handling new packet prefix=dnsproxy raddr=127.0.0.1:40001 laddr=127.0.0.1 proto=udp',
      '2026/11/29 15:04:07.000009 DEBUG in prefix=dnsproxy line_num=9 line=";KUBERNETES.DEFAULT.svc.cluster.local.\\tIN\\t A"',
      '2026/11/29 15:04:11.000001 ERROR exchange failed prefix=dnsproxy upstream=172.21.0.10:53 question=";KUBERNETES.DEFAULT.svc.cluster.local.\\tIN\\t A" duration=4.0s err="i/o timeout"',
      '2026/11/29 15:04:11.000002 WARN upstream 172.21.0.10:53 is down prefix=dnsproxy',
    ].map((l) => parseLogLine(l));
    expect(lines.map((l) => hidesAsProbeLine(l, true))).toEqual([true, true, false, false]);
    expect(lines.map((l) => hidesAsProbeLine(l, false))).toEqual([false, false, false, false]);
  });
});

