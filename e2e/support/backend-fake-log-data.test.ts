/** The fake backend's log data is the captured real output, and its generated query records read like the real ones. */
import { describe, expect, it } from 'vitest';
import { buildQueryLog } from '../../shared/query-log';
import { fixtureText } from './log-fixtures';
import { dnsproxyQueryLines, dnsproxyRun, previousDnsmasqRun } from './backend-fake-log-data';
import { DNSMASQ_VERBOSE_LOG, DNSPROXY_VERBOSE_LOG } from './backend-fake-logs';

describe('fake backend log data', () => {
  it('embeds fixtures/logs byte for byte (regenerate both with scripts/capture-engine-logs.ts)', () => {
    expect(DNSPROXY_VERBOSE_LOG).toBe(fixtureText('dnsproxy-verbose.log'));
    expect(DNSMASQ_VERBOSE_LOG).toBe(fixtureText('dnsmasq-verbose.log'));
  });

  it('splits the dnsproxy run at its shutdown and keeps the dnsmasq run whole', () => {
    const { start, stop } = dnsproxyRun();
    expect(start[0]!.message).toBe('dnsproxy config path: /etc/k2s/dnsproxy-verbose.yaml');
    expect(stop.map((l) => l.message)).toEqual(['stopping server', 'tcp connection closed', 'udp connection closed', 'stopped dns proxy server']);
    expect(previousDnsmasqRun()[0]!.fields).toMatchObject({ event: 'started', version: '2.90' });
  });

  it('generated records give the same kind of query row as the captured ones', () => {
    const lines = dnsproxyQueryLines(Date.UTC(2026, 10, 30, 22, 0, 0), { id: 4001, client: '127.0.0.1:40000', name: 'kubernetes.default.svc.cluster.local', type: 'A', rcode: 'NOERROR', answers: ['172.21.0.1'], upstream: '172.21.0.10:53' });
    const real = lines.find((l) => l.message === 'in' && l.fields.line_num === '8')!;
    expect(real.raw.slice(27)).toBe('DEBUG in prefix=dnsproxy line_num=8 line=";kubernetes.default.svc.cluster.local.\\tIN\\t A"');
    expect(fixtureText('dnsproxy-verbose.log')).toContain(real.raw.slice(33).replace('line_num=8', 'line_num=9'));
    expect(buildQueryLog(lines, { clusterZones: ['cluster.local'] })).toMatchObject([
      { client: '127.0.0.1:40000', name: 'kubernetes.default.svc.cluster.local', type: 'A', route: 'cluster', zone: 'cluster.local', upstream: '172.21.0.10:53', answers: ['172.21.0.1'], rcode: 'NOERROR', time: '2026-11-30T22:00:00.000000' },
    ]);
  });
});
