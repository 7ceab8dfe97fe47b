/**
 * Test support: a seeded corpus of pcap streams for the capture parser — client and upstream
 * exchanges over UDP and TCP, IPv4 and IPv6, five link types, mixed-case names, several answer
 * types, retries and collisions (small pools of ports, ids and names), then mutated (bytes
 * flipped, frames cut, garbage records, odd file headers) and cut into random chunks. The same
 * seed gives the same streams on every machine (own PRNG, mulberry32).
 */
import type { Packet } from 'dns-packet';
import { dnsPayload, frame, type FrameSpec } from './pcap-frames';

/** Bytes of a frame's TCP payload (the DNS message and its length prefix). */
function dnsLength(spec: FrameSpec): number {
  return dnsPayload(spec).length;
}

import { prng } from './prng';

export { prng };

/** One stream of the corpus: its chunks as pushed, and the listeners the parser is given. */
export interface CorpusStream {
  listeners: string[];
  chunks: Uint8Array[];
}

const NAMES = ['a.example', 'web.demo.svc.cluster.local', 'KUBERNETES.default.svc.cluster.local', 'Mixed.Case.Test', 'x', 'caf\u00e9.example', 'q"uote\\back.example', 'ctl\u0001\u001f.example'];
const CLIENTS = ['127.0.0.1', '10.0.0.7', '::1', 'fd00::7'];
const LISTENERS = ['127.0.0.1', '::1', '172.19.1.1'];
const UPSTREAMS = ['172.21.0.10', '8.8.8.8', '2001:db8::53'];

/** The link header of `linkType` in place of an SLL2 frame's 20 bytes (1 Ethernet, maybe 802.1Q; 113 SLL; 101 raw; 0 BSD loopback). */
function relink(sll2: Uint8Array, linkType: number, vlan: boolean): Uint8Array {
  const ip = sll2.subarray(20);
  const type = [sll2[0]!, sll2[1]!];
  const v6 = type[0] === 0x86;
  let head: number[];
  if (linkType === 1) head = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ...(vlan ? [0x81, 0x00, 0, 5] : []), ...type];
  else if (linkType === 113) head = [0, 0, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, ...type];
  else if (linkType === 101) head = [];
  else if (linkType === 0) head = v6 ? [30, 0, 0, 0] : [2, 0, 0, 0];
  else return sll2;
  return Uint8Array.from([...head, ...ip]);
}

/** A random DNS answer record for `name`. */
function answerOf(r: () => number, name: string): NonNullable<Packet['answers']>[number] {
  switch (Math.floor(r() * 6)) {
    case 0:
      return { type: 'AAAA', name, ttl: 5, data: 'fd00::1' };
    case 1:
      return { type: 'CNAME', name, ttl: 5, data: 'target.example' };
    case 2:
      return { type: 'TXT', name, ttl: 5, data: ['v=1', 'x'] };
    case 3:
      return { type: 'SRV', name, ttl: 5, data: { priority: 1, weight: 2, port: 53, target: 'srv.example' } };
    case 4:
      return { type: 'MX', name, ttl: 5, data: { preference: 10, exchange: 'mx.example' } };
    default:
      return { type: 'A', name, ttl: 5, data: `192.0.2.${Math.floor(r() * 256)}` };
  }
}

/** Stream `seed` of the corpus (see the file comment). */
export function corpusStream(seed: number): CorpusStream {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const linkType = pick([276, 276, 276, 1, 113, 101, 0]);
  const big = r() < 0.2;
  const nano = r() < 0.2;
  const le = (n: number) => (big ? [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff] : [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]);
  const magic = nano ? 0xa1b23c4d : 0xa1b2c3d4;
  const snap = pick([262144, 0, 4200, 300]);
  const parts: number[][] = [[...le(magic), ...(big ? [0, 2, 0, 4] : [2, 0, 4, 0]), ...le(0), ...le(0), ...le(snap), ...le(linkType)]];
  let t = 1_764_600_000 + Math.floor(r() * 1000);
  let frac = 0;
  // Whole exchanges (client query, maybe an upstream exchange, the answer) and lone packets,
  // then neighbours swapped now and then, so pairs, retries, collisions and strays all occur.
  const specs: { spec: FrameSpec; dt: number }[] = [];
  const n = Math.floor(r() * 30);
  const msg = (response: boolean, id: number, name: string, type: 'A' | 'AAAA' | 'PTR' | 'TXT'): Packet =>
    response
      ? { type: 'response', id, flags: 0x8180 | pick([0, 0, 0, 2, 3, 5, 9, 15]), questions: [{ name, type }], answers: Array.from({ length: Math.floor(r() * 3) }, () => answerOf(r, name)) }
      : { type: 'query', id, flags: 0x100, questions: [{ name, type }] };
  for (let i = 0; i < n; i++) {
    const v6 = r() < 0.3;
    const proto: 'udp' | 'tcp' = r() < 0.2 ? 'tcp' : 'udp';
    const name = r() < 0.3 ? pick(NAMES).toUpperCase() : pick(NAMES);
    const id = Math.floor(r() * 4);
    const type = pick(['A', 'A', 'AAAA', 'PTR', 'TXT'] as const);
    const client = { addr: pick(CLIENTS.filter((c) => c.includes(':') === v6)), port: 50000 + Math.floor(r() * 3) };
    const listener = { addr: pick(LISTENERS.filter((l) => l.includes(':') === v6)), port: pick([53, 53, 5353]) };
    const proxy = { addr: v6 ? '2001:db8::1' : '172.19.1.1', port: 40000 + Math.floor(r() * 3) };
    const up = { addr: v6 ? UPSTREAMS[2]! : pick(UPSTREAMS.slice(0, 2)), port: 53 };
    const upId = r() < 0.5 ? id : Math.floor(r() * 4);
    const dt = () => Math.floor(r() * (r() < 0.03 ? 40_000_000 : 3000));
    const one = (from: typeof client, to: typeof client, dns: Packet, p = proto) => specs.push({ spec: { proto: p, src: from.addr, srcPort: from.port, dst: to.addr, dstPort: to.port, tsUs: 0, dns, flags: pick([0x18, 0x18, 0x18, 0x18, 0x02, 0x11, 0x04]) }, dt: dt() });
    const kind = r();
    if (kind < 0.6) {
      one(client, listener, msg(false, id, name, type));
      if (r() < 0.2) one(client, listener, msg(false, id, r() < 0.5 ? name : name.toLowerCase(), type));
      if (r() < 0.7) {
        one(proxy, up, msg(false, upId, name.toLowerCase(), type), 'udp');
        if (r() < 0.9) one(up, proxy, msg(true, upId, r() < 0.8 ? name.toLowerCase() : 'other.example', type), 'udp');
      }
      if (r() < 0.9) one(listener, client, msg(true, id, r() < 0.9 ? name : name.toUpperCase(), r() < 0.95 ? type : 'A'));
    } else if (kind < 0.8) one(client, listener, msg(r() < 0.5, id, name, type));
    else one(r() < 0.5 ? proxy : up, r() < 0.5 ? up : proxy, msg(r() < 0.5, upId, name, type));
  }
  for (let i = 1; i < specs.length; i++) {
    if (r() < 0.15) [specs[i - 1], specs[i]] = [specs[i]!, specs[i - 1]!];
  }
  const seqs = new Map<string, number>();
  for (const { spec, dt } of specs) {
    frac += dt;
    t += Math.floor(frac / 1e6);
    frac %= 1e6;
    const key = `${spec.src}|${spec.srcPort}|${spec.dst}|${spec.dstPort}`;
    const seq = r() < 0.9 ? (seqs.get(key) ?? Math.floor(r() * 2 ** 32)) : Math.floor(r() * 2 ** 32);
    let bytes = relink(frame({ ...spec, seq }), linkType, r() < 0.3);
    if (spec.proto === 'tcp') seqs.set(key, (seq + dnsLength(spec)) >>> 0);
    const m = r();
    if (m < 0.06) {
      bytes = Uint8Array.from(bytes);
      bytes[Math.floor(r() * bytes.length)] = Math.floor(r() * 256);
    } else if (m < 0.09) bytes = bytes.slice(0, Math.floor(r() * bytes.length));
    else if (m < 0.1) bytes = Uint8Array.from({ length: Math.floor(r() * 120) }, () => Math.floor(r() * 256));
    const us = nano ? frac * 1000 + Math.floor(r() * 1000) : frac;
    parts.push([...le(t), ...le(us), ...le(bytes.length), ...le(bytes.length), ...bytes]);
  }
  // Rarely: a record header longer than the snap length, or a stream that is no pcap at all.
  if (r() < 0.03) parts.push([...le(t), ...le(0), ...le(300_000), ...le(300_000), 1, 2, 3]);
  if (r() < 0.02) parts[0] = [1, 2, 3, 4, ...parts[0]!.slice(4)];
  const all = Uint8Array.from(parts.flat());
  const chunks: Uint8Array[] = [];
  const size = pick([1, 7, 64, 300, 4096, all.length || 1]);
  for (let at = 0; at < all.length; ) {
    const len = Math.max(1, Math.floor(size * (0.5 + r())));
    chunks.push(all.subarray(at, at + len));
    at += len;
  }
  const listeners = r() < 0.9 ? ['127.0.0.1:53', '[::1]:53', '172.19.1.1:5353'] : ['127.0.0.01:53', '[0::1]:53'];
  return { listeners, chunks };
}
