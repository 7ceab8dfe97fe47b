/** parseLogLine and its helpers on real captured engine output (fixtures/logs/, dnsproxy v0.83.1, dnsmasq 2.90). */
import { describe, expect, it } from 'vitest';
import { isQueryLine, isRunStart, lineEngine, parseLogLine } from './log-line';
import { fixtureLines, fixtureRawLines } from '../e2e/support/log-fixtures';

describe('dnsproxy v0.83.1 real output', () => {
  const verbose = fixtureLines('dnsproxy-verbose');

  it('reads every line with a time except the config-path line printed before the logger starts', () => {
    expect(verbose[0]).toMatchObject({ time: null, level: 'INFO', message: 'dnsproxy config path: /etc/k2s/dnsproxy-verbose.yaml' });
    const untimed = verbose.slice(1).filter((l) => l.time === null);
    expect(untimed).toEqual([]);
    expect(verbose[1]).toMatchObject({ level: 'INFO', message: 'dnsproxy starting', fields: { version: 'v0.83.1', revision: '', branch: '', commit_time: '' } });
    expect(verbose[1]!.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
  });

  it('reads the listener lines with prefix and addr', () => {
    const udp = verbose.find((l) => l.message === 'listening to udp')!;
    expect(udp).toMatchObject({ level: 'INFO', fields: { prefix: 'dnsproxy', addr: '127.0.0.1:15353' } });
    expect(verbose.find((l) => l.message === 'entering listener loop')!.fields).toEqual({ prefix: 'dnsproxy', proto: 'tcp', addr: '127.0.0.1:15353' });
  });

  it('reads the in/out dig-style records: message in/out, line_num and the unquoted line (tabs restored)', () => {
    const first = verbose.find((l) => l.message === 'in')!;
    expect(first.level).toBe('DEBUG');
    expect(first.fields.line_num).toBe('1');
    expect(first.fields.line).toMatch(/^;; opcode: QUERY, status: NOERROR, id: \d+$/);
    const question = verbose.find((l) => l.message === 'in' && l.fields.line?.startsWith(';kubernetes.default'))!;
    expect(question.fields.line).toBe(';kubernetes.default.svc.cluster.local.\tIN\t A');
    const empty = verbose.find((l) => l.message === 'in' && l.fields.line_num === '3')!;
    expect(empty.fields.line).toBe('');
    const answer = verbose.find((l) => l.message === 'out' && l.fields.line?.startsWith('kubernetes.default'))!;
    expect(answer.fields.line).toBe('kubernetes.default.svc.cluster.local.\t5\tIN\tA\t172.21.0.1');
  });

  it('keeps quoted errors whole and levels upstream failures ERROR', () => {
    const failed = verbose.filter((l) => l.message === 'exchange failed');
    expect(failed.map((l) => [l.level, l.fields.upstream, l.fields.question])).toEqual([
      ['ERROR', '127.0.0.1:15356', ';slow.timeout.test.\tIN\t A'],
      ['ERROR', '127.0.0.1:15357', ';any.refused.test.\tIN\t A'],
    ]);
    expect(failed[0]!.fields.err).toMatch(/^exchanging with 127\.0\.0\.1:15356 over udp: read udp 127\.0\.0\.1:\d+->127\.0\.0\.1:15356: i\/o timeout$/);
    expect(failed[1]!.fields.duration).toMatch(/^[\d.]+µs$/);
  });

  it('ends a SIGTERM run with stopping/stopped lines', () => {
    expect(verbose.slice(-4).map((l) => l.message)).toEqual(['stopping server', 'tcp connection closed', 'udp connection closed', 'stopped dns proxy server']);
  });

  it('the bind failure: the retry (WARN, raised to ERROR for its bind error) and an ERROR with the full cause', () => {
    const bind = fixtureLines('dnsproxy-bind-failure');
    const last = bind[bind.length - 1]!;
    expect(last).toMatchObject({ level: 'ERROR', message: 'running dnsproxy' });
    expect(last.fields.err).toBe('starting dnsproxy: configuring listeners: listening on udp addr 127.0.0.1:15353: listening to udp socket: listen udp 127.0.0.1:15353: bind: address already in use');
    expect(bind.find((l) => l.message === 'binding')).toMatchObject({ level: 'ERROR', fields: { attempt: '1', err: 'listen udp 127.0.0.1:15353: bind: address already in use' } });
  });

  it('classifies query traffic apart from start-up DEBUG lines; ERROR lines are never queries', () => {
    expect(verbose.filter((l) => l.level === 'DEBUG' && !isQueryLine(l)).map((l) => l.message).sort()).toEqual(
      ['hosts files are disabled', 'set upstream', 'set upstream', 'tcp connection closed', 'udp connection closed', 'upstream is reserved', 'upstream is reserved', 'upstream is reserved', 'upstream is reserved'].sort(),
    );
    expect(verbose.filter((l) => l.level === 'ERROR').some(isQueryLine)).toBe(false);
    expect(verbose.every((l) => lineEngine(l) === 'adguard')).toBe(true);
  });

  it('finds one run start per run (the config-path line, not the following dnsproxy starting)', () => {
    const both = [...fixtureLines('dnsproxy-quiet'), ...verbose];
    const starts = both.flatMap((l, i) => (isRunStart(l, both[i - 1] ?? null) ? [i] : []));
    expect(starts).toEqual([0, fixtureLines('dnsproxy-quiet').length]);
  });
});

describe('dnsmasq 2.90 real output', () => {
  const verbose = fixtureLines('dnsmasq-verbose');

  it('reads the syslog-style time and log-queries=extra serial and client', () => {
    const q = verbose.find((l) => l.fields.event === 'query')!;
    expect(q.time).toMatch(/^2026-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(q.fields).toMatchObject({ process: 'dnsmasq', serial: '1', clientAddr: '127.0.0.1', event: 'query', type: 'A', name: 'kube-dns.kube-system.svc.cluster.local', client: '127.0.0.1' });
    expect(q.fields.clientPort).toMatch(/^\d+$/);
  });

  it('reads zone and default nameserver lines (with the trailing space dnsmasq prints)', () => {
    const ns = verbose.filter((l) => l.fields.event === 'nameserver').map((l) => [l.fields.upstream, l.fields.domain ?? null]);
    expect(ns).toEqual([
      ['127.0.0.1#15354', 'cluster.local'],
      ['127.0.0.1#15354', '21.172.in-addr.arpa'],
      ['127.0.0.1#15356', 'timeout.test'],
      ['127.0.0.1#15357', 'refused.test'],
      ['127.0.0.1#15355', null],
    ]);
  });

  it('reads `reply error is SERVFAIL` as an rcode, not a name', () => {
    const err = verbose.filter((l) => l.message.includes('reply error is'));
    expect(err.map((l) => [l.fields.rcode, l.fields.name])).toEqual([['SERVFAIL', undefined], ['REFUSED', undefined]]);
  });

  it('classifies query lines; start-up lines are not queries; the run starts at `started`', () => {
    expect(verbose.filter((l) => !isQueryLine(l)).map((l) => l.message.split(',')[0])).toEqual([
      'started', 'compile time options: IPv6 GNU-getopt DBus no-UBus i18n IDN2 DHCP DHCPv6 no-Lua TFTP conntrack ipset nftset auth cryptohash DNSSEC loop-detect inotify dumpfile',
      'using nameserver 127.0.0.1#15354 for domain cluster.local ', 'using nameserver 127.0.0.1#15354 for domain 21.172.in-addr.arpa ',
      'using nameserver 127.0.0.1#15356 for domain timeout.test ', 'using nameserver 127.0.0.1#15357 for domain refused.test ',
      'using nameserver 127.0.0.1#15355', 'cleared cache', 'exiting on receipt of SIGTERM',
    ]);
    expect(verbose.every((l) => lineEngine(l) === 'dnsmasq')).toBe(true);
    expect(isRunStart(verbose[0]!, null)).toBe(true);
  });

  it('levels its stderr bind failure (no pid, no time) ERROR', () => {
    const raw = fixtureRawLines('dnsmasq-bind-failure');
    expect(raw).toEqual(['', 'dnsmasq: failed to create listening socket for 127.0.0.1: Address already in use']);
    expect(parseLogLine(raw[1]!)).toEqual({ time: null, level: 'ERROR', message: 'failed to create listening socket for 127.0.0.1: Address already in use', fields: { process: 'dnsmasq' }, raw: raw[1] });
  });

  it('quiet run: start-up and SIGTERM only, all INFO', () => {
    const quiet = fixtureLines('dnsmasq-quiet');
    expect(quiet.map((l) => l.level)).toEqual(quiet.map(() => 'INFO'));
    expect(quiet.some(isQueryLine)).toBe(false);
  });
});
