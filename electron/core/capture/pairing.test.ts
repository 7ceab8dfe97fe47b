import { describe, expect, it } from 'vitest';
import type { DnsMessage } from './dns-message';
import type { Segment } from './frame';
import { OPEN_MAX, Pairing, type CapturedQuery } from './pairing';

const LISTENER = '127.0.0.1:53';
const UPSTREAM = '172.21.0.10';

/** Client `n`'s UDP segment to (query) or from (answer) the listener: port 1024 + n % 60000, DNS id n % 65536. */
function client(n: number, answer: boolean): [Segment, DnsMessage] {
  const port = 1024 + (n % 60_000);
  const seg: Segment = answer
    ? { proto: 'udp', src: '127.0.0.1', srcPort: 53, dst: '127.0.0.1', dstPort: port, seq: 0, flags: 0, payload: new Uint8Array() }
    : { proto: 'udp', src: '127.0.0.1', srcPort: port, dst: '127.0.0.1', dstPort: 53, seq: 0, flags: 0, payload: new Uint8Array() };
  return [seg, { id: n % 65_536, response: answer, rcode: answer ? 'NOERROR' : 'NOERROR', name: `q${n}.example.test`, type: 'A', answers: answer ? ['192.0.2.1'] : [] }];
}

/** The proxy's query `n` upstream (from port 40000 + n % 20000, id n % 65536). */
function upstreamQuery(n: number): [Segment, DnsMessage] {
  return [{ proto: 'udp', src: '127.0.0.1', srcPort: 40_000 + (n % 20_000), dst: UPSTREAM, dstPort: 53, seq: 0, flags: 0, payload: new Uint8Array() }, { id: n % 65_536, response: false, rcode: 'NOERROR', name: `u${n}.example.test`, type: 'A', answers: [] }];
}

describe('Pairing: the open-query table is capped', () => {
  it(`keeps at most ${OPEN_MAX} unanswered queries: 70,000 unanswered in one second emit the 4,464 oldest as unanswered rows, oldest first, and count them`, () => {
    const rows: CapturedQuery[] = [];
    const p = new Pairing({ listeners: [LISTENER], onRow: (r) => rows.push(r) });
    // All within one second, so the 30 s expiry removes nothing: only the cap does.
    for (let n = 0; n < 70_000; n++) p.packet(...client(n, false), 1_000_000 + n);
    expect(OPEN_MAX).toBe(65_536);
    expect(p.evicted).toBe(70_000 - 65_536);
    expect(rows).toHaveLength(4_464);
    expect(rows[0]).toMatchObject({ name: 'q0.example.test', client: '127.0.0.1:1024', id: 0, rcode: null, latencyMs: null, answers: [] });
    expect(rows.at(-1)).toMatchObject({ name: 'q4463.example.test', rcode: null });
    // The newest query is still open: its answer makes a paired row, 2.5 ms after its query.
    p.packet(...client(69_999, true), 1_000_000 + 69_999 + 2_500);
    expect(rows.at(-1)).toMatchObject({ name: 'q69999.example.test', rcode: 'NOERROR', answers: ['192.0.2.1'], latencyMs: 2.5 });
    // An evicted query's late answer makes no row (nothing open under its key and name).
    p.packet(...client(10, true), 1_100_000);
    expect(rows).toHaveLength(4_465);
    // What is left open: exactly the cap minus the one answered.
    p.flush();
    expect(rows).toHaveLength(4_465 + 65_535);
  });

  it('a small cap (3) evicts in arrival order, and a new question under a known key moves to the newest place', () => {
    const rows: CapturedQuery[] = [];
    const p = new Pairing({ listeners: [LISTENER], onRow: (r) => rows.push(r), openMax: 3 });
    for (const n of [1, 2, 3]) p.packet(...client(n, false), n);
    // Client 1 asks another question under the same port and id: q1 ends unanswered, its key is now the newest.
    const [seg, m] = client(1, false);
    p.packet(seg, { ...m, name: 'other.example.test' }, 4);
    expect(rows.map((r) => r.name)).toEqual(['q1.example.test']);
    p.packet(...client(4, false), 5);
    expect(rows.map((r) => r.name)).toEqual(['q1.example.test', 'q2.example.test']);
    expect(p.evicted).toBe(1);
  });

  it(`keeps at most ${OPEN_MAX} unanswered upstream exchanges and counts the forgotten ones`, () => {
    const p = new Pairing({ listeners: [LISTENER], onRow: () => undefined });
    for (let n = 0; n < 66_000; n++) p.packet(...upstreamQuery(n), 1_000_000 + n);
    expect(p.evictedExchanges).toBe(66_000 - 65_536);
    expect(p.evicted).toBe(0);
  });
});
