/**
 * The capture parser reads untrusted packets: over random and mutated pcap streams it never
 * throws past the file header, and every row it gives is a pair it saw — a query and an answer
 * with the same transport, client, listener, DNS id and question.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Packet } from 'dns-packet';
import { frame, pcapHeader, record, type FrameSpec } from '../../../e2e/support/pcap-frames';
import { PcapRows } from './pcap-rows';
import type { CapturedQuery } from './pairing';
import { dnsMessageOf } from './dns-message';
import { segmentOf } from './frame';
import { rowLine } from './row-line';

const NAMES = ['a.example', 'web.demo.svc.cluster.local', 'KUBERNETES.DEFAULT.svc.cluster.local'];

/** A DNS packet to or from the listener 127.0.0.1:53 with small id/port ranges, so collisions happen. */
const packetArb = fc.record({
  response: fc.boolean(),
  port: fc.integer({ min: 50000, max: 50003 }),
  id: fc.integer({ min: 0, max: 3 }),
  name: fc.constantFrom(...NAMES),
  rcode: fc.integer({ min: 0, max: 5 }),
  tcp: fc.boolean(),
  dt: fc.integer({ min: 0, max: 2000 }),
});
/** A mutation of the frame bytes: flip, cut or keep. */
const mutationArb = fc.oneof(
  fc.constant({ kind: 'keep' as const }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

interface Sent { proto: string; client: string; id: number; name: string; response: boolean; ok: boolean }

describe('capture parser on random and mutated frames', () => {
  it('never throws; every row is a query and an answer it saw with the same client, port, id and question', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(packetArb, mutationArb), { maxLength: 60 }), fc.integer({ min: 1, max: 300 }), (specs, chunk) => {
        let t = 1_764_600_000_000_000;
        const parts: Uint8Array[] = [pcapHeader()];
        const seen: Sent[] = [];
        for (const [i, [p, m]] of specs.entries()) {
          t += p.dt;
          // Each frame's TCP sequence number differs from every other frame's (and from where any
          // segment ends) in at least two bytes, so one flipped byte never makes two frames one
          // stream: the oracle below reads each segment alone. Joining is pcap-rows.test.ts's job.
          const seq = ((i + 1) * 0x01010101) >>> 0;
          const dns: Packet = p.response
            ? { type: 'response', id: p.id, flags: 0x8180 | p.rcode, questions: [{ name: p.name, type: 'A' }], answers: [{ type: 'A', name: p.name, ttl: 5, data: '192.0.2.1' }] }
            : { type: 'query', id: p.id, flags: 0x100, questions: [{ name: p.name, type: 'A' }] };
          const spec: FrameSpec = p.response
            ? { proto: p.tcp ? 'tcp' : 'udp', src: '127.0.0.1', srcPort: 53, dst: '127.0.0.1', dstPort: p.port, tsUs: t, dns, seq }
            : { proto: p.tcp ? 'tcp' : 'udp', src: '127.0.0.1', srcPort: p.port, dst: '127.0.0.1', dstPort: 53, tsUs: t, dns, seq };
          let bytes = frame(spec);
          if (m.kind === 'flip') {
            bytes = Uint8Array.from(bytes);
            bytes[m.at % bytes.length] = m.value;
          } else if (m.kind === 'cut') bytes = bytes.slice(0, m.at % (bytes.length + 1));
          // What the parser can truly see in this frame (after the mutation).
          const seg = segmentOf(276, bytes);
          const msg = seg && seg.proto === 'udp' ? dnsMessageOf(seg.payload) : seg ? dnsMessageOf(seg.payload.subarray(2)) : null;
          if (seg && msg) seen.push({ proto: seg.proto, client: `${msg.response ? seg.dst : seg.src}:${msg.response ? seg.dstPort : seg.srcPort}`, id: msg.id, name: msg.name.toLowerCase(), response: msg.response, ok: true });
          parts.push(record(t, bytes));
        }
        const all = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
        let at = 0;
        for (const x of parts) {
          all.set(x, at);
          at += x.length;
        }
        const rows: CapturedQuery[] = [];
        const parser = new PcapRows({ listeners: ['127.0.0.1:53'], onRow: (r) => rows.push(r) });
        for (let i = 0; i < all.length; i += chunk) parser.push(all.subarray(i, i + chunk));
        parser.end();
        for (const r of rows) {
          const match = (response: boolean) => seen.some((s) => s.response === response && s.proto === r.proto && s.client === r.client && s.id === r.id && s.name === r.name.toLowerCase());
          expect(match(false)).toBe(true);
          if (r.rcode !== null) expect(match(true)).toBe(true);
          expect(r.latencyMs === null || r.latencyMs >= 0).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on random bytes after a valid header, nor on random bytes as a DNS payload', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.integer({ min: 1, max: 64 }), (bytes, chunk) => {
        const parser = new PcapRows({ listeners: ['127.0.0.1:53'], onRow: () => {} });
        parser.push(pcapHeader());
        for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
        parser.end();
        expect(dnsMessageOf(bytes) === null || typeof dnsMessageOf(bytes)!.id === 'number').toBe(true);
        for (const lt of [0, 1, 101, 113, 276]) segmentOf(lt, bytes);
      }),
      { numRuns: 1000 },
    );
  });

  it('hostile bytes in names and answers (controls, `"`, `\\`, U+2028 as UTF-8, invalid UTF-8, Latin-1, dots) give row lines that are JSON.stringify of the row, byte for byte', () => {
    const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
    const byteArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x00, 0x1f, 0x22, 0x5c, 0x2e, 0x7f, 0xe2, 0x80, 0xa8, 0xc3, 0xff));
    const labelArb = fc.array(byteArb, { minLength: 1, maxLength: 20 });
    const nameArb = fc.array(labelArb, { minLength: 1, maxLength: 4 }).map((ls) => [...ls.flatMap((l) => [l.length, ...l]), 0]);
    // Answers: A, CNAME (a raw name), TXT (raw bytes), each with the question's name as a pointer (offset 12).
    const answerArb = fc.oneof(
      fc.tuple(fc.constant(1), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 })),
      fc.tuple(fc.constant(5), nameArb),
      fc.tuple(fc.constant(16), labelArb.map((l) => [l.length, ...l])),
    );
    fc.assert(
      fc.property(nameArb, fc.array(answerArb, { maxLength: 4 }), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }), (qname, answers, tcp, search) => {
        const question = [...qname, 0, 1, 0, 1];
        const query = [0, 9, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...question];
        const rrs = answers.flatMap(([type, data]) => [0xc0, 12, ...be16(type), 0, 1, 0, 0, 0, 5, ...be16(data.length), ...data]);
        const answer = [0, 9, 0x81, 0x80, 0, 1, ...be16(answers.length), 0, 0, 0, 0, ...question, ...rrs];
        const payload = (m: number[]) => (tcp ? [...be16(m.length), ...m] : m);
        const proto = tcp ? ('tcp' as const) : ('udp' as const);
        const dns = {} as Packet;
        const parts = [pcapHeader(), record(1, frame({ proto, src: '127.0.0.1', srcPort: 40000, dst: '127.0.0.1', dstPort: 53, tsUs: 1, dns, seq: 100 }, payload(query))), record(2, frame({ proto, src: '127.0.0.1', srcPort: 53, dst: '127.0.0.1', dstPort: 40000, tsUs: 2, dns, seq: 7000 }, payload(answer)))];
        const rows: CapturedQuery[] = [];
        const parser = new PcapRows({ listeners: ['127.0.0.1:53'], onRow: (r) => rows.push(r) });
        for (const x of parts) parser.push(x);
        parser.end();
        expect(rows.length).toBe(1);
        const line = rowLine(rows[0]!, search);
        expect(line).toBe(`${JSON.stringify({ ...rows[0]!, search })}\n`);
        expect(JSON.parse(line)).toEqual({ ...rows[0]!, search });
      }),
      { numRuns: 1000 },
    );
  });
});
