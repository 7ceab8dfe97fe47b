import { describe, expect, it } from 'vitest';
import { encode } from 'dns-packet';
import { messageView, readMessage, type MessageView } from './dns-message';
import { segmentView, type SegmentView } from './frame';
import { OPEN_MAX, Pairing, type CapturedQuery } from './pairing';

const LISTENER = '127.0.0.1:53';

/** A UDP segment between two IPv4 addresses (dotted text), as readSegment fills it. */
function udp(src: string, srcPort: number, dst: string, dstPort: number): SegmentView {
  const d = Uint8Array.from([...src.split('.'), ...dst.split('.')].map(Number));
  const n = (at: number) => ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;
  return { ...segmentView(), d, srcAt: 0, dstAt: 4, src4: n(0), dst4: n(4), srcPort, dstPort };
}

/** The DNS message (a query, or a response with one A record 192.0.2.1) as readMessage fills it. */
function message(id: number, name: string, response: boolean): MessageView {
  const bytes = encode(response ? { type: 'response', id, flags: 0x8180, questions: [{ name, type: 'A' }], answers: [{ type: 'A', name, ttl: 5, data: '192.0.2.1' }] } : { type: 'query', id, flags: 0x100, questions: [{ name, type: 'A' }] });
  const m = messageView();
  if (!readMessage(bytes, 0, bytes.length, m)) throw new Error('not a message');
  return m;
}

/** Client `n`'s UDP segment to (query) or from (answer) the listener: port 1024 + n % 60000, DNS id n % 65536. */
function client(n: number, answer: boolean): [SegmentView, MessageView] {
  const port = 1024 + (n % 60_000);
  const seg = answer ? udp('127.0.0.1', 53, '127.0.0.1', port) : udp('127.0.0.1', port, '127.0.0.1', 53);
  return [seg, message(n % 65_536, `q${n}.example.test`, answer)];
}

/** The proxy's query `n` upstream (from port 40000 + n % 20000, id n % 65536). */
function upstreamQuery(n: number): [SegmentView, MessageView] {
  return [udp('127.0.0.1', 40_000 + (n % 20_000), '172.21.0.10', 53), message(n % 65_536, `u${n}.example.test`, false)];
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
