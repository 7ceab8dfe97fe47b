import { describe, expect, it } from 'vitest';
import { parseLogLine } from './log-line';

describe('parseLogLine: dnsproxy v0.72+ slog text', () => {
  it('reads the readiness line', () => {
    const raw = '2026/11/29 15:04:05.123456 INFO listening to udp addr=127.0.0.1:53';
    expect(parseLogLine(raw)).toEqual({
      time: '2026-11-29T15:04:05.123456',
      level: 'INFO',
      message: 'listening to udp',
      fields: { addr: '127.0.0.1:53' },
      raw,
    });
  });

  it('keeps quoted values with spaces and several keys', () => {
    const raw = '2026/11/29 15:04:06.000001 DEBUG handling query prefix=dnsproxy id=4711 question="kubernetes.default.svc.cluster.local. IN A" upstream=172.21.0.10:53';
    const line = parseLogLine(raw);
    expect(line.level).toBe('DEBUG');
    expect(line.message).toBe('handling query');
    expect(line.fields).toEqual({
      prefix: 'dnsproxy',
      id: '4711',
      question: 'kubernetes.default.svc.cluster.local. IN A',
      upstream: '172.21.0.10:53',
    });
  });

  it('takes msg="…" as the message and marks bind failures as ERROR', () => {
    const raw = '2026/11/29 15:04:07.5 WARN msg="exchange failed" err="read udp 127.0.0.1:41000->192.168.1.1:53: i/o timeout"';
    expect(parseLogLine(raw)).toMatchObject({
      time: '2026-11-29T15:04:07.5',
      level: 'WARN',
      message: 'exchange failed',
      fields: { err: 'read udp 127.0.0.1:41000->192.168.1.1:53: i/o timeout' },
    });
    const bind = parseLogLine('2026/11/29 15:04:05.000000 INFO starting listener err="listen udp 127.0.0.1:53: bind: address already in use"');
    expect(bind.level).toBe('ERROR');
    expect(bind.fields.err).toBe('listen udp 127.0.0.1:53: bind: address already in use');
  });

  it('reads slog TextHandler lines', () => {
    const raw = 'time=2026-11-29T15:04:05.123+01:00 level=ERROR msg="upstream failed" upstream=192.168.1.1:53';
    expect(parseLogLine(raw)).toEqual({
      time: '2026-11-29T15:04:05.123+01:00',
      level: 'ERROR',
      message: 'upstream failed',
      fields: { upstream: '192.168.1.1:53' },
      raw,
    });
  });
});

describe('parseLogLine: older dnsproxy', () => {
  it.each([
    ['2023/06/01 12:00:00 [info] Listening to udp://127.0.0.1:53', 'INFO', 'Listening to udp://127.0.0.1:53'],
    ['2023/06/01 12:00:00 1234#56 [debug] github.com/AdguardTeam/dnsproxy/proxy.(*Proxy).logDNSMessage(): OUT: ;; opcode: QUERY', 'DEBUG', 'github.com/AdguardTeam/dnsproxy/proxy.(*Proxy).logDNSMessage(): OUT: ;; opcode: QUERY'],
    ['2023/06/01 12:00:01 [error] upstream 192.168.1.1:53 failed', 'ERROR', 'upstream 192.168.1.1:53 failed'],
    ['2023/06/01 12:00:01 [fatal] listen udp 127.0.0.1:53: bind: address already in use', 'ERROR', 'listen udp 127.0.0.1:53: bind: address already in use'],
  ])('%s', (raw, level, message) => {
    expect(parseLogLine(raw)).toEqual({ time: raw.slice(0, 19).replace(/\//g, '-').replace(' ', 'T'), level, message, fields: {}, raw });
  });

  it('flags a level-less Go log bind failure as ERROR', () => {
    expect(parseLogLine('2023/06/01 12:00:02 listen udp 127.0.0.1:53: bind: address already in use')).toMatchObject({
      time: '2023-06-01T12:00:02',
      level: 'ERROR',
    });
  });
});

describe('parseLogLine: dnsmasq', () => {
  it('reads query, forwarded, reply and config lines with the syslog-style prefix', () => {
    const opts = { year: 2026 };
    expect(parseLogLine('Nov 29 15:04:05 dnsmasq[123]: query[A] kubernetes.default.svc.cluster.local from 127.0.0.1', opts)).toMatchObject({
      time: '2026-11-29T15:04:05',
      level: 'DEBUG',
      message: 'query[A] kubernetes.default.svc.cluster.local from 127.0.0.1',
      fields: { process: 'dnsmasq', pid: '123', event: 'query', type: 'A', name: 'kubernetes.default.svc.cluster.local', client: '127.0.0.1' },
    });
    expect(parseLogLine('Nov  9 15:04:05 dnsmasq[123]: forwarded kubernetes.default.svc.cluster.local to 172.21.0.10', opts)).toMatchObject({
      time: '2026-11-09T15:04:05',
      fields: { event: 'forwarded', name: 'kubernetes.default.svc.cluster.local', upstream: '172.21.0.10' },
    });
    expect(parseLogLine('Nov 29 15:04:05 dnsmasq[123]: reply kubernetes.default.svc.cluster.local is 172.21.0.1', opts).fields).toEqual({
      process: 'dnsmasq', pid: '123', event: 'reply', name: 'kubernetes.default.svc.cluster.local', answer: '172.21.0.1',
    });
    expect(parseLogLine('Nov 29 15:04:05 dnsmasq[123]: config nothere.cluster.local is NXDOMAIN', opts).fields).toMatchObject({
      event: 'config', name: 'nothere.cluster.local', answer: 'NXDOMAIN',
    });
  });

  it('reads lines without a time and log-queries=extra fields', () => {
    expect(parseLogLine('dnsmasq[77]: 5 127.0.0.1/40123 query[PTR] 10.0.21.172.in-addr.arpa from 127.0.0.1')).toEqual({
      time: null,
      level: 'DEBUG',
      message: '5 127.0.0.1/40123 query[PTR] 10.0.21.172.in-addr.arpa from 127.0.0.1',
      fields: { process: 'dnsmasq', pid: '77', serial: '5', clientAddr: '127.0.0.1', clientPort: '40123', event: 'query', type: 'PTR', name: '10.0.21.172.in-addr.arpa', client: '127.0.0.1' },
      raw: 'dnsmasq[77]: 5 127.0.0.1/40123 query[PTR] 10.0.21.172.in-addr.arpa from 127.0.0.1',
    });
  });

  it('levels start-up, warning and failure lines', () => {
    const opts = { year: 2026 };
    expect(parseLogLine('Nov 29 15:04:00 dnsmasq[123]: started, version 2.90 cachesize 1000', opts)).toMatchObject({ level: 'INFO', fields: { event: 'started', version: '2.90' } });
    expect(parseLogLine('Nov 29 15:04:00 dnsmasq[123]: using nameserver 172.21.0.10#53 for domain cluster.local', opts).fields).toMatchObject({
      event: 'nameserver', upstream: '172.21.0.10#53', domain: 'cluster.local',
    });
    expect(parseLogLine('dnsmasq[123]: warning: no upstream servers configured').level).toBe('WARN');
    expect(parseLogLine('dnsmasq[123]: failed to create listening socket for 127.0.0.1: Address already in use').level).toBe('ERROR');
    expect(parseLogLine('dnsmasq[123]: FAILED to start up').level).toBe('ERROR');
  });
});

describe('parseLogLine: anything else', () => {
  it('keeps unparseable lines as INFO with the raw text', () => {
    const raw = 'panic: runtime error: something odd';
    expect(parseLogLine(raw)).toEqual({ time: null, level: 'INFO', message: raw, fields: {}, raw });
  });

  it('strips a trailing CR/LF from the message but not from raw', () => {
    const line = parseLogLine('2026/11/29 15:04:05.1 INFO started\r\n');
    expect(line.message).toBe('started');
    expect(line.raw).toBe('2026/11/29 15:04:05.1 INFO started\r\n');
  });
});
