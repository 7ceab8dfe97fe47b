/**
 * dnsproxy v0.83.1 client pairing on real bytes (fixtures/logs/dnsproxy-pairing/, captured by its
 * capture.sh). New-user report 2026-12-01: after Start every AdGuard row showed the previous
 * packet's client and ≈, because the app's readiness check (a TCP connect, no query) left a
 * client record that no request took. Each dig ran from a fixed source port, so the right
 * client is known: `127.0.0.1:<port>` as listed below.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from './log-line';
import { buildQueryLog } from './query-log';

const LOG = readFileSync(new URL('../fixtures/logs/dnsproxy-pairing/dnsproxy-pairing.log', import.meta.url), 'utf8').split('\n').filter((l) => l !== '');

/** Source port of each query in capture.sh. */
const PORTS: Record<string, number> = {
  'kubernetes.default.svc.cluster.local': 41000,
  'a.uniq.example.test': 41001, 'b.uniq.example.test': 41002, 'c.uniq.example.test': 41003,
  'slow.overlap.example.test': 42001, 'fast.overlap.example.test': 42002, 'gee.overlap.example.test': 42003,
  'd.same.example.test': 43001, 'e.same.example.test': 43002,
  ...Object.fromEntries([...'hijklmnopqrs'].map((c, i) => [`${c}.burst.example.test`, 44000 + i])),
};

const build = (lines: string[]) => buildQueryLog(lines.map((l) => parseLogLine(l)));
/** `client name answer rcode mixed` per row. */
const show = (lines: string[]) => build(lines).map((r) => `${r.client} ${r.name} ${r.answers.join(',')} ${r.rcode} ${r.mixed ? '≈' : '-'}`);
/** What each row must show: its own client, the responder's answer (192.0.2.<1 + first letter>). */
const expected = (name: string) => `127.0.0.1:${PORTS[name]} ${name} 192.0.2.${1 + name.charCodeAt(0) - 97} NOERROR -`;

describe('dnsproxy rows show their own client (real capture)', () => {
  it('three single queries after the readiness check and a probe: own client, no ≈', () => {
    const rows = show(LOG).filter((r) => r.includes('.uniq.'));
    expect(rows).toEqual(['a.uniq.example.test', 'b.uniq.example.test', 'c.uniq.example.test'].map(expected));
  });

  it('the probe right after the readiness check gets its own client, not the check’s', () => {
    const probe = build(LOG).find((r) => r.probe)!;
    expect([probe.client, probe.mixed]).toEqual(['127.0.0.1:41000', false]);
  });

  it('overlapping queries (a slow one in flight), two at once and a burst of twelve: every row right, none ≈', () => {
    const rows = show(LOG);
    expect(rows).toHaveLength(Object.keys(PORTS).length);
    for (const r of rows) {
      const name = r.split(' ')[1]!;
      expect(r).toBe(name === 'kubernetes.default.svc.cluster.local' ? `127.0.0.1:41000 ${name} 192.0.2.11 NOERROR -` : expected(name));
    }
  });

  it('a client record no request takes ages out (the check’s close line removed, as when its close is not logged)', () => {
    const noClose = LOG.filter((l) => !l.includes('connection is closed'));
    expect(show(noClose).filter((r) => r.includes('.uniq.'))).toEqual(['a.uniq.example.test', 'b.uniq.example.test', 'c.uniq.example.test'].map(expected));
  });

  it('upstream and rcode are paired by DNS id: replies out of order in the burst keep their latency', () => {
    const rows = build(LOG);
    const slow = rows.find((r) => r.name === 'slow.overlap.example.test')!;
    const fast = rows.find((r) => r.name === 'fast.overlap.example.test')!;
    expect(slow.latencyMs).toBeGreaterThan(290);
    expect(fast.latencyMs).toBeLessThan(100);
    expect(rows.every((r) => r.upstream === '127.0.0.1:15354' && r.route === 'upstream')).toBe(true);
  });

  it('the same DNS id and question in flight twice: both rows ≈ (which reply is whose is a guess)', () => {
    // a.uniq's real records twice, from two clients, the second arriving before the first's reply.
    const start = LOG.findIndex((l) => l.includes('raddr=127.0.0.1:41001'));
    const outAt = LOG.findIndex((l, i) => i > start && l.includes(' out '));
    const end = LOG.findIndex((l, i) => i > outAt && !l.includes(' out '));
    const head = LOG.slice(start, outAt);
    const tail = LOG.slice(outAt, end);
    const twin = head.map((l) => l.replace('127.0.0.1:41001', '127.0.0.1:41999'));
    const rows = build([...LOG.slice(0, start), ...head, ...twin, ...tail, ...tail]).filter((r) => r.name === 'a.uniq.example.test');
    expect(rows.map((r) => [r.client, r.rcode, r.mixed])).toEqual([['127.0.0.1:41001', 'NOERROR', true], ['127.0.0.1:41999', 'NOERROR', true]]);
  });
});
