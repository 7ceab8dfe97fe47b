/** The hand-read header and question agree with dns-packet on every message it encodes; mutated bytes never throw. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode, type Packet } from 'dns-packet';
import { dnsMessageOf } from './dns-message';

const label = fc.stringMatching(/^[a-zA-Z0-9-]{1,20}$/);
const nameArb = fc.array(label, { minLength: 1, maxLength: 5 }).map((l) => l.join('.'));
const typeArb = fc.constantFrom('A', 'AAAA', 'PTR', 'SRV', 'TXT', 'MX', 'CNAME', 'NS', 'SOA', 'ANY');

describe('dnsMessageOf', () => {
  it('reads id, QR, rcode, question name (case kept) and type as dns-packet does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), fc.boolean(), fc.integer({ min: 0, max: 5 }), nameArb, typeArb, (id, response, rcode, name, type) => {
        const p: Packet = { type: response ? 'response' : 'query', id, flags: (response ? 0x8000 : 0) | 0x100 | rcode, questions: [{ name, type: type as 'A' }], answers: response ? [{ type: 'A', name, ttl: 5, data: '192.0.2.7' }] : [] };
        const bytes = encode(p);
        const ref = decode(bytes) as unknown as { id: number; rcode: string; questions: { name: string; type: string }[] };
        const m = dnsMessageOf(bytes)!;
        expect([m.id, m.response, m.rcode, m.name, m.type]).toEqual([ref.id, response, ref.rcode, ref.questions[0]!.name, ref.questions[0]!.type]);
        expect(m.answers).toEqual(response ? ['192.0.2.7'] : []);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on a mutated or cut message; a forward or looping name pointer gives null', () => {
    const base = encode({ type: 'response', id: 9, flags: 0x8180, questions: [{ name: 'web.demo.svc.cluster.local', type: 'A' }], answers: [{ type: 'A', name: 'web.demo.svc.cluster.local', ttl: 5, data: '172.21.14.7' }] });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat(), (flips, cut) => {
        const b = Uint8Array.from(base);
        for (const [at, v] of flips) b[at % b.length] = v;
        const m = dnsMessageOf(b.subarray(0, cut % (b.length + 1)));
        if (m) expect(Array.isArray(m.answers)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    const loop = Uint8Array.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
    expect(dnsMessageOf(loop)).toBeNull();
  });
});
