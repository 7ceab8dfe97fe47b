/**
 * Regression: an undecodable answer (compression loop, truncated, label > 63) was reported as
 * TIMEOUT after the whole deadline. A fake server on 127.0.0.1 answers each query with crafted
 * bytes carrying the query's own ID.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as dnsPacket from 'dns-packet';
import { queryDns } from './dns-query';
import { malformedReason } from './dns-wire-check';

/** Header with `id`, QR set, the given counts. */
function header(id: number, qd: number, an: number): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(id, 0);
  h.writeUInt16BE(0x8180, 2);
  h.writeUInt16BE(qd, 4);
  h.writeUInt16BE(an, 6);
  return h;
}

/** Crafted replies by case name: bytes for a query with `id`. */
const CASES: Record<string, (id: number) => Buffer> = {
  loop: (id) => Buffer.concat([header(id, 1, 0), Buffer.from([0xc0, 0x0c, 0, 1, 0, 1])]),
  truncated: (id) => dnsPacket.encode({ type: 'response', id, flags: 0x8180, questions: [{ type: 'A', name: 'a.example', class: 'IN' }], answers: [{ type: 'A', name: 'a.example', ttl: 5, data: '192.0.2.1' }] }).subarray(0, -3),
  label64: (id) => Buffer.concat([header(id, 1, 0), Buffer.from([64]), Buffer.alloc(64, 0x61), Buffer.from([0, 0, 1, 0, 1])]),
};
const REASON: Record<string, RegExp> = {
  loop: /compression pointer at octet 12 points to 12, not before the name \(a loop\)/,
  truncated: /truncated: record data at octet \d+ needs 4 octets, the message has \d+/,
  label64: /label length 64 at octet 12 is over 63 \(label type 0x40 is not in use\)/,
};

let udp: dgram.Socket;
let tcp: net.Server;
let port = 0;
let mode = 'loop';
beforeAll(async () => {
  udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    if (mode === 'wrong-id') udp.send(Buffer.from([0xde, 0xad, 1, 2, 3]), rinfo.port, rinfo.address);
    else udp.send(CASES[mode]!(msg.readUInt16BE(0)), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  port = udp.address().port;
  tcp = net.createServer((s) => s.once('data', (d) => {
    const body = CASES[mode]!(d.readUInt16BE(2));
    const len = Buffer.alloc(2);
    len.writeUInt16BE(body.length);
    s.end(Buffer.concat([len, body]));
  }));
  await new Promise<void>((resolve) => tcp.listen(port, '127.0.0.1', resolve));
});
afterAll(() => {
  udp.close();
  tcp.close();
});

describe('an undecodable DNS answer', () => {
  for (const c of Object.keys(CASES)) {
    for (const transport of ['udp', 'tcp'] as const) {
      it(`${c} over ${transport}: MALFORMED_ANSWER with the decoder's reason, well before the deadline`, async () => {
        mode = c;
        const r = await queryDns({ name: 'a.example', type: 'A', server: `127.0.0.1:${port}`, transport, timeoutMs: 8000 });
        expect(r).toMatchObject({ rcode: 'MALFORMED_ANSWER', answers: [] });
        expect(r.error).toMatch(REASON[c]!);
        expect(r.error).toContain(`malformed answer from 127.0.0.1:${port}`);
        expect(r.latencyMs).toBeLessThan(4000);
      });
    }
  }

  it('a garbage packet that does not carry our ID is ignored (RFC 5452): TIMEOUT at the deadline', async () => {
    mode = 'wrong-id';
    const r = await queryDns({ name: 'a.example', type: 'A', server: `127.0.0.1:${port}`, timeoutMs: 300 });
    expect(r.rcode).toBe('TIMEOUT');
  });
});

describe('malformedReason', () => {
  it('accepts every message dns-packet encodes (names with compression included)', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,20}$/);
    const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
    fc.assert(fc.property(name, fc.array(fc.tuple(name, fc.ipV4()), { maxLength: 5 }), (q, as) => {
      const msg = dnsPacket.encode({ type: 'response', id: 1, questions: [{ type: 'A', name: q, class: 'IN' }], answers: as.map(([n, ip]) => ({ type: 'A', name: n, ttl: 1, data: ip })) });
      expect(malformedReason(msg)).toBeNull();
    }));
  });

  it('names a forward pointer, a name over 255 octets, a short header and a label over 63', () => {
    expect(malformedReason(Buffer.concat([header(1, 1, 0), Buffer.from([0xc0, 0x20, 0, 1, 0, 1])]))).toMatch(/points to 32, not before the name/);
    const long = Buffer.concat([header(1, 1, 0), ...Array.from({ length: 5 }, () => Buffer.concat([Buffer.from([63]), Buffer.alloc(63, 0x61)])), Buffer.from([0, 0, 1, 0, 1])]);
    expect(malformedReason(long)).toBe('name longer than 255 octets at octet 12');
    expect(malformedReason(Buffer.from([0, 1, 2]))).toBe('truncated: the header at octet 0 needs 12 octets, the message has 3');
    expect(malformedReason(Buffer.concat([header(1, 1, 0), Buffer.from([0x41, 0, 0, 1, 0, 1])]))).toBe('label length 65 at octet 12 is over 63 (label type 0x40 is not in use)');
  });
});
