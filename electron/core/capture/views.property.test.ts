/**
 * The hot path reads frames and messages in place (views into a pcap chunk, frame.ts
 * readSegment, dns-message.ts readMessage): what it reads from bytes in the middle of a larger
 * buffer is what it reads from a copy of exactly those bytes — no read past the end reaches the
 * next record's bytes — and a stream gives the same rows however it is cut into chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from 'dns-packet';
import { messageView, readMessage } from './dns-message';
import { readSegment, segmentView } from './frame';
import { PcapRows } from './pcap-rows';
import { corpusStream } from '../../../e2e/support/pcap-corpus';
import { frame } from '../../../e2e/support/pcap-frames';

/** A valid query or a mutation of one (a flipped byte, a cut), or random bytes. */
const messageArb = fc.oneof(
  fc.uint8Array({ maxLength: 80 }),
  fc.tuple(fc.stringMatching(/^[a-zA-Z0-9]{1,12}(\.[a-zA-Z0-9]{1,12}){0,3}$/), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat()).map(([name, at, v, cut]) => {
    const b = Uint8Array.from(encode({ type: 'response', id: 7, flags: 0x8180, questions: [{ name, type: 'A' }], answers: [{ type: 'A', name, ttl: 5, data: '192.0.2.1' }] }));
    b[at % b.length] = v;
    return b.subarray(0, cut % (b.length + 1));
  }),
);

describe('views into a larger buffer', () => {
  it('readMessage reads the same header, question and answers at any offset, whatever bytes follow', () => {
    fc.assert(
      fc.property(messageArb, fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ minLength: 1, maxLength: 64 }), (msg, before, after) => {
        const big = Uint8Array.from([...before, ...msg, ...after]);
        const a = messageView();
        const b = messageView();
        const okA = readMessage(Uint8Array.from(msg), 0, msg.length, a);
        const okB = readMessage(big, before.length, before.length + msg.length, b);
        expect(okB).toBe(okA);
        if (okA) expect([b.id, b.response, b.rcode, b.name, b.type]).toEqual([a.id, a.response, a.rcode, a.name, a.type]);
      }),
      { numRuns: 2000 },
    );
  });

  it('readSegment reads the same segment at any offset, whatever bytes follow', () => {
    const f = frame({ src: '10.0.0.7', srcPort: 50000, dst: '127.0.0.1', dstPort: 53, tsUs: 0, dns: { type: 'query', id: 1, flags: 0x100, questions: [{ name: 'a.example', type: 'A' }] } });
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), fc.constantFrom(0, 1, 12, 101, 113, 276), fc.uint8Array({ minLength: 1, maxLength: 64 }), (at, v, cut, lt, after) => {
        const bytes = Uint8Array.from(f);
        bytes[at % bytes.length] = v;
        const own = bytes.slice(0, cut % (bytes.length + 1));
        const big = Uint8Array.from([...after, ...own, ...after]);
        const a = segmentView();
        const b = segmentView();
        const okA = readSegment(lt, own, 0, own.length, a);
        const okB = readSegment(lt, big, after.length, after.length + own.length, b);
        expect(okB).toBe(okA);
        const shift = after.length;
        if (okA) expect([b.proto, b.v6, b.src4, b.dst4, b.srcPort, b.dstPort, b.seq, b.flags, b.srcAt - shift, b.dstAt - shift, b.payloadAt - shift, b.payloadEnd - shift]).toEqual([a.proto, a.v6, a.src4, a.dst4, a.srcPort, a.dstPort, a.seq, a.flags, a.srcAt, a.dstAt, a.payloadAt, a.payloadEnd]);
      }),
      { numRuns: 2000 },
    );
  });

  it('a stream gives the same rows and counts in one chunk and cut anywhere', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 20 }), (seed, sizes) => {
        const s = corpusStream(seed);
        const all = Uint8Array.from(s.chunks.flatMap((c) => [...c]));
        const run = (cuts: number[]) => {
          const rows: string[] = [];
          const p = new PcapRows({ listeners: s.listeners, onRow: (r) => rows.push(JSON.stringify(r)) });
          try {
            for (let at = 0, i = 0; at < all.length; i++) {
              const n = cuts[i % cuts.length]!;
              p.push(all.subarray(at, at + n));
              at += n;
            }
            p.end();
          } catch (e) {
            rows.push(`throw ${(e as Error).message}`);
          }
          return { rows, counts: p.counts, failed: p.failed };
        };
        expect(run(sizes)).toEqual(run([all.length || 1]));
      }),
      { numRuns: 300 },
    );
  });
});
