/** Raw-view rows and time formatting on the captured engine logs (fixtures/logs/). */
import { describe, expect, it } from 'vitest';
import { fixtureLines } from '../../../e2e/support/log-fixtures';
import { formatFields, formatLogTime } from './log-filter';
import { rawRows } from './log-rows';

const ALL = () => true;

describe('rawRows on real logs', () => {
  const lines = [...fixtureLines('dnsproxy-quiet'), ...fixtureLines('dnsproxy-verbose'), ...fixtureLines('dnsmasq-verbose')];

  it('puts one separator before each of the three runs, titled with engine and version', () => {
    const runs = rawRows(lines, ALL).filter((r) => r.kind === 'run');
    expect(runs.map((r) => (r.kind === 'run' ? r.title : ''))).toEqual(['AdGuard dnsproxy run (v0.83.1)', 'AdGuard dnsproxy run (v0.83.1)', 'dnsmasq run (started, version 2.90)']);
    expect(runs.every((r) => r.kind === 'run' && r.time !== null)).toBe(true);
  });

  it('folds each in/out message dump into one row with the whole dig-style text', () => {
    const verbose = fixtureLines('dnsproxy-verbose');
    const rows = rawRows(verbose, ALL);
    const ins = rows.filter((r) => r.kind === 'line' && r.line.message === 'in');
    expect(ins).toHaveLength(13);
    expect(rows.length).toBe(verbose.length + 1 - verbose.filter((l) => (l.message === 'in' || l.message === 'out') && l.fields.line_num !== '1').length);
    const first = ins[0]!;
    expect(first.kind === 'line' && first.text).toBe('request (in): kube-dns.kube-system.svc.cluster.local. IN A');
    expect(first.kind === 'line' && first.detail).toMatch(/^;; opcode: QUERY, status: NOERROR, id: \d+\n;; flags: rd ad;[^]*;; QUESTION SECTION:\n;kube-dns\.kube-system\.svc\.cluster\.local\. IN  A$/);
    const answer = rows.find((r) => r.kind === 'line' && r.line.message === 'out' && r.detail?.includes('ANSWER SECTION'));
    expect(answer?.kind === 'line' && answer.detail).toContain('kube-dns.kube-system.svc.cluster.local. 5 IN A 172.21.0.10');
    expect(rows.every((r) => r.kind === 'run' || r.category === (r.line.level === 'DEBUG' && !['hosts files are disabled', 'upstream is reserved', 'set upstream', 'tcp connection closed', 'udp connection closed'].includes(r.line.message) ? 'QUERY' : r.line.level))).toBe(true);
  });

  it('shows the full message with its fields once (no Fields column), dnsmasq lines as written', () => {
    const rows = rawRows(lines, (_l, text) => text.includes('exchange failed') || text.includes('reply error is'));
    const texts = rows.filter((r) => r.kind === 'line').map((r) => (r.kind === 'line' ? r.text : ''));
    expect(texts).toHaveLength(6);
    expect(texts[0]).toMatch(/^exchange failed {2}prefix=dnsproxy upstream=127\.0\.0\.1:15356 question=";slow\.timeout\.test\.\\tIN\\t A" duration=[\d.]+s err="exchanging with 127\.0\.0\.1:15356 over udp: read udp 127\.0\.0\.1:\d+->127\.0\.0\.1:15356: i\/o timeout"$/);
    expect(texts[4]).toMatch(/^\d+ 127\.0\.0\.1\/\d+ reply error is SERVFAIL$/);
  });
});

describe('formatLogTime / formatFields', () => {
  it('shows the engine time as written, ms precision for dnsproxy, seconds for dnsmasq', () => {
    expect(formatLogTime('2026-11-30T22:43:40.536717')).toBe('22:43:40.536');
    expect(formatLogTime('2026-11-30T22:43:40')).toBe('22:43:40');
    expect(formatLogTime(null)).toBe('');
  });

  it('quotes values with spaces, tabs or none', () => {
    expect(formatFields({ a: '1', q: ';x.\tIN\t A', e: '' })).toBe('a=1 q=";x.\\tIN\\t A" e=""');
  });
});
