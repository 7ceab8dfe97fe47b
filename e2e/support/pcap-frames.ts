/**
 * Test support: pcap bytes as `tcpdump -i any -w -` writes them (pcap-savefile(5), Linux cooked
 * SLL2 link headers, IPv4/IPv6, UDP or TCP with DNS's 2-byte length prefix), built from
 * dns-packet messages, for the capture parser's tests.
 */
import { encode, type Packet } from 'dns-packet';

/** One packet to write: endpoints, transport, time stamp in µs and the DNS message. */
export interface FrameSpec {
  proto?: 'udp' | 'tcp';
  src: string;
  srcPort: number;
  dst: string;
  dstPort: number;
  tsUs: number;
  dns: Packet;
  /** TCP: sequence number and flags (default ACK|PSH). */
  seq?: number;
  flags?: number;
}

const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

/** Address bytes (IPv4 dotted or IPv6 with `::`). */
function addrBytes(a: string): number[] {
  if (!a.includes(':')) return a.split('.').map(Number);
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => be16(parseInt(g, 16)));
}

/** The pcap file header (µs, little-endian as x86 tcpdump writes it) for `linkType` (276: SLL2). */
export function pcapHeader(linkType = 276): Uint8Array {
  return Uint8Array.from([...le32(0xa1b2c3d4), 2, 0, 4, 0, ...le32(0), ...le32(0), ...le32(262144), ...le32(linkType)]);
}

/** The transport payload of a frame: the DNS message (TCP: with its length prefix). */
export function dnsPayload(f: FrameSpec): number[] {
  const msg = [...encode(f.dns)];
  return f.proto === 'tcp' ? [...be16(msg.length), ...msg] : msg;
}

/** A whole SLL2 frame (link + IP + UDP/TCP + payload); `payload` overrides the DNS message. */
export function frame(f: FrameSpec, payload = dnsPayload(f)): Uint8Array {
  const v6 = f.src.includes(':');
  const tcp = f.proto === 'tcp';
  const l4 = tcp
    ? [...be16(f.srcPort), ...be16(f.dstPort), ...be32(f.seq ?? 1), ...be32(0), 0x50, f.flags ?? 0x18, ...be16(65535), 0, 0, 0, 0, ...payload]
    : [...be16(f.srcPort), ...be16(f.dstPort), ...be16(8 + payload.length), 0, 0, ...payload];
  const ip = v6
    ? [0x60, 0, 0, 0, ...be16(l4.length), tcp ? 6 : 17, 64, ...addrBytes(f.src), ...addrBytes(f.dst)]
    : [0x45, 0, ...be16(20 + l4.length), 0, 0, 0x40, 0, 64, tcp ? 6 : 17, 0, 0, ...addrBytes(f.src), ...addrBytes(f.dst)];
  // SLL2: protocol, reserved, interface index, ARPHRD (772 loopback), packet type, address length, address (8).
  const sll2 = [...be16(v6 ? 0x86dd : 0x0800), 0, 0, ...be32(1), ...be16(772), 0, 6, 0, 0, 0, 0, 0, 0, 0, 0];
  return Uint8Array.from([...sll2, ...ip, ...l4]);
}

/** A pcap record (header + bytes) of a frame at `tsUs`. */
export function record(tsUs: number, data: Uint8Array): Uint8Array {
  const sec = Math.floor(tsUs / 1e6);
  return Uint8Array.from([...le32(sec), ...le32(tsUs - sec * 1e6), ...le32(data.length), ...le32(data.length), ...data]);
}

/** A whole pcap stream of `frames` (SLL2). */
export function pcapOf(frames: FrameSpec[]): Uint8Array {
  const parts = [pcapHeader(), ...frames.map((f) => record(f.tsUs, frame(f)))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
