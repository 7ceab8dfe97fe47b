/**
 * TcpFlows (dns-message.ts) rebuilds length-prefixed DNS messages (RFC 1035 §4.2.2) from TCP
 * segments: however a connection's bytes are cut into segments it gives the same messages, and a
 * message split into many small segments costs its length in copies, not segments × length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Segment } from './frame';
import { TcpFlows } from './dns-message';

/** A data segment (ACK|PSH) of the client 127.0.0.1:40000 → 127.0.0.1:53 at `seq`. */
function seg(seq: number, payload: Uint8Array, srcPort = 40000): Segment {
  return { proto: 'tcp', src: '127.0.0.1', srcPort, dst: '127.0.0.1', dstPort: 53, seq: seq >>> 0, flags: 0x18, payload };
}

/** `messages` with their 2-byte length prefixes, as one byte stream. */
function stream(messages: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(messages.reduce((n, m) => n + 2 + m.length, 0));
  let at = 0;
  for (const m of messages) {
    out[at] = m.length >> 8;
    out[at + 1] = m.length & 0xff;
    out.set(m, at + 2);
    at += 2 + m.length;
  }
  return out;
}

describe('TcpFlows', () => {
  it('a 65,535-byte message in 65,537 one-byte segments: the message whole, and at most 3 × its bytes copied (was 2 GiB: 1.5 s)', () => {
    const msg = Uint8Array.from({ length: 65_535 }, (_, i) => (i * 7) & 0xff);
    const bytes = stream([msg]);
    const flows = new TcpFlows();
    const got: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i++) got.push(...flows.push(seg(1000 + i, bytes.subarray(i, i + 1))));
    expect(got.length).toBe(1);
    expect(Buffer.from(got[0]!).equals(Buffer.from(msg))).toBe(true);
    expect(flows.copied).toBeLessThanOrEqual(3 * bytes.length);
  });

  it('any cut of a stream into in-order segments (seq wrapping past 2^32 too) gives its messages, in order', () => {
    const msgArb = fc.uint8Array({ maxLength: 300 });
    fc.assert(
      fc.property(fc.array(msgArb, { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 10 }), fc.constantFrom(1000, 0xffff_fff0), (messages, cuts, seq0) => {
        const bytes = stream(messages);
        const flows = new TcpFlows();
        const got: number[][] = [];
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const n = cuts[i % cuts.length]!;
          for (const m of flows.push(seg(seq0 + at, bytes.subarray(at, at + n)))) got.push([...m]);
          at += n;
        }
        expect(got).toEqual(messages.map((m) => [...m]));
      }),
      { numRuns: 500 },
    );
  });

  it('400 connections each holding most of a 64 KiB message hold at most 16 MiB (the oldest forgotten; was 26 MB, and 262 MB at 4,096); the newest still completes its message', () => {
    const msg = new Uint8Array(65_535).fill(0xab);
    const bytes = stream([msg]);
    const flows = new TcpFlows();
    for (let c = 0; c < 400; c++) expect(flows.push(seg(1000, bytes.subarray(0, 65_000), 20_000 + c))).toEqual([]);
    expect(flows.held).toBeGreaterThan(15 * 1024 * 1024);
    expect(flows.held).toBeLessThanOrEqual(16 * 1024 * 1024);
    const done = flows.push(seg(1000 + 65_000, bytes.subarray(65_000), 20_399));
    expect(done.map((m) => m.length)).toEqual([65_535]);
    expect(flows.held).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
