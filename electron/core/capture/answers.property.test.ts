/**
 * answersOf reads A-only messages itself (dns-message.ts answersA) and every other message with
 * dns-packet: over valid, compressed, mutated and cut messages its answers are exactly those of
 * dns-packet's decode (the oracle below is the parser's former answersOf), [] where decode throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode, type Answer } from 'dns-packet';
import { answersOf } from './dns-message';

/** The former answersOf: dns-packet decode, answers' data as text. */
function oracle(b: Uint8Array): string[] {
  try {
    return (decode(Buffer.from(b)).answers ?? []).map((a: Answer) => {
      const data = (a as { data?: unknown }).data;
      return typeof data === 'string' ? data : data === undefined ? '' : `other:${JSON.stringify(data)}`;
    });
  } catch {
    return [];
  }
}

const ip = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((x) => x.join('.'));
const nameArb = fc.constantFrom('a.example', 'web.demo.svc.cluster.local', 'X', 'kube-dns.kube-system.svc.cluster.local');
const aArb = fc.record({ type: fc.constant('A' as const), name: nameArb, ttl: fc.nat(1000), data: ip });
const otherArb = fc.oneof(aArb, fc.record({ type: fc.constant('CNAME' as const), name: nameArb, ttl: fc.nat(1000), data: nameArb }), fc.record({ type: fc.constant('AAAA' as const), name: nameArb, ttl: fc.nat(1000), data: fc.constant('fd00::1') }));

/** A message as dns-packet encodes it (no compression), or with its answer names as pointers to the question (c0 0c) as servers write them. */
/** EDNS's OPT record (RFC 6891), mostly without options (the common answer), sometimes with a cookie. */
const optArb = fc.record({ type: fc.constant('OPT' as const), name: fc.constant('.'), udpPayloadSize: fc.constantFrom(1232, 4096), flags: fc.constant(0), options: fc.constantFrom([], [], [{ code: 10, data: Buffer.from('0123456789abcdef', 'hex') }]) });
const messageArb = fc.tuple(nameArb, fc.array(aArb, { maxLength: 4 }), fc.array(otherArb, { maxLength: 2 }), fc.array(fc.oneof(aArb, optArb), { maxLength: 2 }), fc.boolean()).map(([q, an, ns, ar, compress]) => {
  if (!compress) return Uint8Array.from(encode({ type: 'response', id: 1, flags: 0x8180, questions: [{ name: q, type: 'A' }], answers: an, authorities: ns, additionals: ar as never }));
  const head = [...encode({ type: 'response', id: 1, flags: 0x8180, questions: [{ name: q, type: 'A' }] })];
  head[7] = an.length;
  const recs = an.flatMap((a) => [0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, a.ttl & 0xff, 0, 4, ...a.data.split('.').map(Number)]);
  return Uint8Array.from([...head, ...recs]);
});

/** Mutations: some bytes set, a cut, or none. */
const mutated = fc.tuple(messageArb, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }), fc.option(fc.nat())).map(([b, sets, cut]) => {
  const c = Uint8Array.from(b);
  for (const [at, v] of sets) c[at % c.length] = v;
  return cut === null ? c : c.subarray(0, cut % (c.length + 1));
});

describe('answersOf', () => {
  it('gives what dns-packet decode gives, on valid, compressed, mutated and cut messages and random bytes, at any offset', () => {
    fc.assert(
      fc.property(fc.oneof(mutated, mutated, fc.uint8Array({ maxLength: 64 })), fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (msg, before, after) => {
        const big = Uint8Array.from([...before, ...msg, ...after]);
        const got = answersOf(big, before.length, before.length + msg.length);
        const want = oracle(msg);
        expect(got.map((x, i) => (want[i]?.startsWith('other:') ? want[i] : x))).toEqual(want);
      }),
      { numRuns: 5000 },
    );
  });
});
