/**
 * Unanswered queries reach the log on a timer (idle-release.ts), on pcap streams shaped as
 * tcpdump -i any writes them (e2e/support/pcap-frames.ts). Before it, a query no answer came for
 * stayed in the pairing until some later packet arrived (an upstream down on an idle host: no
 * `no answer` row at +10, +30 or +45 s).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Packet } from 'dns-packet';
import { pcapHeader, record, frame, type FrameSpec } from '../../../e2e/support/pcap-frames';
import { PcapRows } from './pcap-rows';
import type { CapturedQuery } from './pairing';
import { IdleRelease, RELEASE_EVERY_MS, RELEASE_MARGIN_MS } from './idle-release';

const T0_MS = 1_764_600_000_000;
const query = (id: number, name: string): Packet => ({ type: 'query', id, flags: 0x100, questions: [{ name, type: 'A' }] });
const answer = (id: number, name: string): Packet => ({ type: 'response', id, flags: 0x8180, questions: [{ name, type: 'A' }], answers: [{ type: 'A', name, ttl: 5, data: '192.0.2.1' }] });

/** Client `port`'s query to 127.0.0.1:53 at `ms`. */
const clientQuery = (ms: number, port: number, id: number, name: string): FrameSpec => ({ src: '127.0.0.1', srcPort: port, dst: '127.0.0.1', dstPort: 53, tsUs: ms * 1000, dns: query(id, name) });
/** The proxy's answer to it at `ms`. */
const clientAnswer = (ms: number, port: number, id: number, name: string): FrameSpec => ({ src: '127.0.0.1', srcPort: 53, dst: '127.0.0.1', dstPort: port, tsUs: ms * 1000, dns: answer(id, name) });
/** The proxy's query upstream (192.0.2.53, which never answers) at `ms`. */
const upstreamQuery = (ms: number, id: number, name: string): FrameSpec => ({ src: '192.0.2.1', srcPort: 40001, dst: '192.0.2.53', dstPort: 53, tsUs: ms * 1000, dns: query(id, name) });

/** A parser process's rows and release, wired as rows-main.ts wires them; `push` feeds frames as tcpdump writes them. */
function parser() {
  const rows: CapturedQuery[] = [];
  const flushed: number[] = [];
  let reading = true;
  const p = new PcapRows({ listeners: ['127.0.0.1:53'], onRow: (r) => rows.push(r) });
  const release = new IdleRelease({ rows: p, reading: () => reading, released: () => flushed.push(rows.length) });
  p.push(pcapHeader());
  return {
    rows,
    flushed,
    release,
    setReading: (r: boolean) => (reading = r),
    push(...frames: FrameSpec[]) {
      for (const f of frames) p.push(record(f.tsUs, frame(f)));
      release.arm();
    },
  };
}

describe('IdleRelease: an unanswered query is written without a later packet', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0_MS);
  });
  afterEach(() => vi.useRealTimers());

  it(`a query the upstream never answers becomes its "no answer" row ${30_000 + RELEASE_MARGIN_MS} ms after it was asked, with no other packet on the host`, () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41001, 4101, 'down.example.test'));
    vi.advanceTimersByTime(1);
    x.push(upstreamQuery(T0_MS + 1, 4101, 'down.example.test'));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10_000 - 1);
    expect(x.rows).toEqual([]);
    vi.advanceTimersByTime(30_000 + RELEASE_MARGIN_MS - 10_000);
    expect(x.rows).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(x.rows).toEqual([{ proto: 'udp', client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'down.example.test', type: 'A', queryUs: T0_MS * 1000, rcode: null, answers: [], latencyMs: null, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 }]);
    // Written out at once (rows-main.ts flush), and nothing left to wait for: no timer.
    expect(x.flushed).toEqual([1]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an idle capture holds no timer: none before any query, none once every query is answered', () => {
    const x = parser();
    x.release.arm();
    expect(vi.getTimerCount()).toBe(0);
    x.push(clientQuery(T0_MS, 41002, 7, 'a.example.test'), clientAnswer(T0_MS + 3, 41002, 7, 'a.example.test'));
    expect(x.rows.map((r) => [r.name, r.rcode, r.latencyMs])).toEqual([['a.example.test', 'NOERROR', 3]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('one timer for many waiting queries: each is written at its own time, oldest first', () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41003, 1, 'one.example.test'));
    vi.advanceTimersByTime(5_000);
    x.push(clientQuery(T0_MS + 5_000, 41004, 2, 'two.example.test'), clientQuery(T0_MS + 5_000, 41005, 3, 'three.example.test'));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(30_000 + RELEASE_MARGIN_MS - 5_000 + 2);
    expect(x.rows.map((r) => [r.name, r.rcode])).toEqual([['one.example.test', null]]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(x.rows.map((r) => [r.name, r.rcode])).toEqual([['one.example.test', null], ['two.example.test', null], ['three.example.test', null]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a flood of unanswered queries 1 ms apart (no packet after it) is released in scans at least RELEASE_EVERY_MS apart, not one per query', () => {
    const x = parser();
    const scans = vi.spyOn(PcapRows.prototype, 'expire');
    // Time stamps 1 ms apart over the 3 s before they are handed over at once (as a ring block is).
    x.push(...Array.from({ length: 3_000 }, (_, i) => clientQuery(T0_MS - 3_000 + i, 20_000 + i, i, `flood${i}.example.test`)));
    vi.advanceTimersByTime(30_000 + RELEASE_MARGIN_MS + 100);
    expect(x.rows).toHaveLength(3_000);
    expect(x.rows.every((r) => r.rcode === null)).toBe(true);
    // At +29 s, +30 s, +31 s and +32 s: 4 scans for 3,000 queries.
    expect(scans.mock.calls.length).toBe(4);
    expect(RELEASE_EVERY_MS).toBe(1000);
    expect(vi.getTimerCount()).toBe(0);
    scans.mockRestore();
  });

  it('an answer the kernel took within 30 s but handed over late (its ring block, up to 1 s) still pairs with its query', () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41006, 9, 'slow.example.test'));
    // The answer was captured at +29.9 s; its block reaches the parser 1.5 s later, before the timer fires.
    vi.advanceTimersByTime(31_400);
    x.push(clientAnswer(T0_MS + 29_900, 41006, 9, 'slow.example.test'));
    vi.advanceTimersByTime(10_000);
    expect(x.rows.map((r) => [r.name, r.rcode, r.latencyMs])).toEqual([['slow.example.test', 'NOERROR', 29_900]]);
  });

  it('while the CPU budget holds the input back the timer releases nothing; read again, the query is released', () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41007, 11, 'held.example.test'));
    x.setReading(false);
    vi.advanceTimersByTime(60_000);
    expect(x.rows).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    // rows-main.ts's resume arms it again.
    x.setReading(true);
    x.release.arm();
    vi.advanceTimersByTime(1);
    expect(x.rows.map((r) => [r.name, r.rcode])).toEqual([['held.example.test', null]]);
  });

  it('a query stamped far ahead of the last packet (the clock stepped back > 24.8 days between them) waits on one timer, not a 1 ms loop', () => {
    // setTimeout takes at most 2^31 - 1 ms; a longer wait became 1 ms (TimeoutOverflowWarning),
    // and each firing released nothing and armed again: 258 scans in 300 ms of wall time.
    const x = parser();
    const scans = vi.spyOn(PcapRows.prototype, 'expire');
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    x.push(clientQuery(T0_MS + 30 * 86_400_000, 41009, 13, 'ahead.example.test'));
    vi.advanceTimersByTime(1);
    x.push(clientQuery(T0_MS, 41010, 14, 'back.example.test'), clientAnswer(T0_MS + 1, 41010, 14, 'back.example.test'));
    vi.advanceTimersByTime(1_000);
    expect(scans.mock.calls.length).toBe(0);
    // At most one look per expiry window while the capture clock is behind the query.
    vi.advanceTimersByTime(120_000);
    expect(scans.mock.calls.length).toBeLessThanOrEqual(4);
    expect(x.rows.map((r) => [r.name, r.rcode])).toEqual([['back.example.test', 'NOERROR']]);
    expect(vi.getTimerCount()).toBe(1);
    expect(warn).not.toHaveBeenCalled();
    scans.mockRestore();
    warn.mockRestore();
  });

  it('a wall clock stepped forward by 60 s between packets does not release a query asked 5 ms before the step: its answer pairs', () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41011, 15, 'first.example.test'));
    // The second query comes 5 ms before the first one's timer fires...
    vi.advanceTimersByTime(30_000 + RELEASE_MARGIN_MS - 5);
    const askedMs = T0_MS + 30_000 + RELEASE_MARGIN_MS - 5;
    x.push(clientQuery(askedMs, 41012, 16, 'second.example.test'));
    // ...then NTP steps the wall clock 60 s forward; the timer fires 6 ms later.
    vi.setSystemTime(Date.now() + 60_000);
    vi.advanceTimersByTime(6);
    expect(x.rows.map((r) => [r.name, r.rcode])).toEqual([['first.example.test', null]]);
    // The answer, 20 ms after its query, stamped by the stepped clock: it pairs.
    vi.advanceTimersByTime(14);
    x.push(clientAnswer(askedMs + 60_020, 41012, 16, 'second.example.test'));
    expect(x.rows.map((r) => [r.name, r.rcode])).toEqual([['first.example.test', null], ['second.example.test', 'NOERROR']]);
  });

  it(`a wall clock stepped back by an hour after a query (no packet since) still releases it ${30_000 + RELEASE_MARGIN_MS} ms after it was asked`, () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41013, 17, 'stepped.example.test'));
    vi.advanceTimersByTime(10);
    vi.setSystemTime(Date.now() - 3_600_000);
    vi.advanceTimersByTime(30_000 + RELEASE_MARGIN_MS - 10);
    expect(x.rows).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(x.rows.map((r) => [r.name, r.rcode, r.queryUs])).toEqual([['stepped.example.test', null, T0_MS * 1000]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stop() clears the timer (the input ended)', () => {
    const x = parser();
    x.push(clientQuery(T0_MS, 41008, 12, 'end.example.test'));
    x.release.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(x.rows).toEqual([]);
  });
});
