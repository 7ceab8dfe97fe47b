/** Raw-view rows and time formatting on the captured engine logs (fixtures/logs/). */
import { describe, expect, it } from 'vitest';
import { fixtureLines } from '../../../e2e/support/log-fixtures';
import { formatFields, formatLogTime } from './log-filter';
import { logFileWords, rawRows } from './log-rows';

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

describe('rawRows: every dnsproxy continuation record folds into its message', () => {
  const verbose = fixtureLines('dnsproxy-verbose');
  // Fixture lines 20–30: the first request's records line_num=1..10 (kube-dns.kube-system… A, id 19956).
  const request = verbose.slice(19, 29);
  const lineRows = (rows: ReturnType<typeof rawRows>) => rows.filter((r) => r.kind === 'line');

  it('a page that starts on a continuation record (line_num=5) shows it as one row from line 5, with the question', () => {
    const rows = lineRows(rawRows(verbose.slice(23), ALL));
    const first = rows[0]!;
    expect(first.kind === 'line' && [first.text, first.lines, first.line.fields.line_num]).toEqual(['request (in) from line 5: kube-dns.kube-system.svc.cluster.local. IN A', 6, '5']);
    // No row of the page is a lone continuation record.
    expect(rows.some((r) => r.kind === 'line' && (r.line.message === 'in' || r.line.message === 'out') && r.lines === 1)).toBe(false);
  });

  it('two requests whose records interleave (concurrent queries) fold into two rows of 10 records each', () => {
    const other = request.map((l) => ({ ...l, fields: { ...l.fields, line: (l.fields.line ?? '').replace('kube-dns.kube-system', 'web.demo') } }));
    const mixed = request.flatMap((l, i) => [l, other[i]!]);
    const rows = lineRows(rawRows(mixed, ALL));
    // Which of two same-length messages a record continues is a guess (dnsproxy logs no request
    // id); what is certain: two rows, each a whole 10-line message with one question.
    expect(rows.map((r) => r.kind === 'line' && r.lines)).toEqual([10, 10]);
    expect(rows.map((r) => (r.kind === 'line' ? r.text : '')).sort()).toEqual(['request (in): kube-dns.kube-system.svc.cluster.local. IN A', 'request (in): web.demo.svc.cluster.local. IN A']);
  });
});

describe('rawRows: every engine run in dnsproxy.log has its header (walk 11 L13)', () => {
  const dnsmasq = fixtureLines('dnsmasq-verbose');
  const adguard = fixtureLines('dnsproxy-quiet');
  const titles = (rows: ReturnType<typeof rawRows>) => rows.flatMap((r) => (r.kind === 'run' ? [r.title] : []));

  it('a tail that begins after dnsmasq\'s "started" line: its lines get a dnsmasq header before the AdGuard run\'s', () => {
    const rows = rawRows([...dnsmasq.slice(1), ...adguard], ALL);
    expect(titles(rows)).toEqual(['dnsmasq run (its start line is not shown)', 'AdGuard dnsproxy run (v0.83.1)']);
    expect(rows[0]).toMatchObject({ kind: 'run', engine: 'dnsmasq', time: dnsmasq[1]!.time });
    expect(rows[1]).toMatchObject({ kind: 'line', text: dnsmasq[1]!.message });
    expect(logFileWords(rows, 'adguard')).toBe('dnsproxy.log, written by dnsmasq and AdGuard dnsproxy');
  });

  it('dnsmasq lines right after an AdGuard run, without their start line, begin a dnsmasq run; a blank or unparsed line none', () => {
    const rows = rawRows([...adguard, ...dnsmasq.slice(2)], ALL);
    expect(titles(rows)).toEqual(['AdGuard dnsproxy run (v0.83.1)', 'dnsmasq run (its start line is not shown)']);
    const failed = rawRows(fixtureLines('dnsmasq-bind-failure'), ALL);
    expect(titles(failed)).toEqual(['dnsmasq run (its start line is not shown)']);
  });

  it('one engine\'s runs name that engine; no run shown names the engine writing now, if any', () => {
    expect(logFileWords(rawRows(dnsmasq, ALL), 'adguard')).toBe('dnsproxy.log, written by dnsmasq');
    expect(logFileWords([], 'dnsmasq')).toBe('dnsproxy.log, written by dnsmasq now');
    expect(logFileWords([], null)).toBe('dnsproxy.log');
  });
});
