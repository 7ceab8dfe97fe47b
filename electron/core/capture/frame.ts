/**
 * A captured frame → its IP endpoints and UDP/TCP payload. Link types (https://www.tcpdump.org/linktypes.html):
 * 1 Ethernet (with 802.1Q tags), 113 Linux cooked v1 (SLL, 16 bytes, protocol at 14), 276 Linux
 * cooked v2 (SLL2, 20 bytes, protocol at 0; what `tcpdump -i any` writes since libpcap 1.10),
 * 101 raw IP, 0 BSD loopback. IPv4 (RFC 791; fragments are skipped: DNS over UDP that is
 * fragmented is rare and cannot be read from one frame) and IPv6 (RFC 8200; only UDP/TCP as the
 * first next header). Returns null for anything else or anything cut short; never throws.
 */

/** One transport segment of a frame. */
export interface Segment {
  proto: 'udp' | 'tcp';
  src: string;
  srcPort: number;
  dst: string;
  dstPort: number;
  /** TCP only: sequence number and flags (SYN 0x02, FIN 0x01, RST 0x04). */
  seq: number;
  flags: number;
  payload: Uint8Array;
}

/**
 * The same segment without text or copies, for the parser's hot path (pcap-rows.ts): one object
 * is filled again for every frame (readSegment), and its fields hold only while that frame is
 * handled. Addresses stay bytes in `d` (`srcAt`, `dstAt`); IPv4 ones are also numbers.
 */
export interface SegmentView {
  proto: 'udp' | 'tcp';
  /** IPv6 (16-byte addresses) or IPv4 (4 bytes). */
  v6: boolean;
  /** The frame's bytes (the addresses and payload are at offsets into it). */
  d: Uint8Array;
  srcAt: number;
  dstAt: number;
  /** IPv4 addresses as unsigned 32-bit numbers (0 for IPv6). */
  src4: number;
  dst4: number;
  srcPort: number;
  dstPort: number;
  /** TCP only: sequence number and flags (SYN 0x02, FIN 0x01, RST 0x04). */
  seq: number;
  flags: number;
  /** The payload is d[payloadAt, payloadEnd). */
  payloadAt: number;
  payloadEnd: number;
}

/** An empty SegmentView to fill with readSegment. */
export function segmentView(): SegmentView {
  return { proto: 'udp', v6: false, d: new Uint8Array(0), srcAt: 0, dstAt: 0, src4: 0, dst4: 0, srcPort: 0, dstPort: 0, seq: 0, flags: 0, payloadAt: 0, payloadEnd: 0 };
}

const ETH_IPV4 = 0x0800;
const ETH_IPV6 = 0x86dd;
const ETH_VLAN_1 = 0x8100;
const ETH_VLAN_2 = 0x88a8;

/** Big-endian 16 bits at `i`. */
function u16(d: Uint8Array, i: number): number {
  return (d[i]! << 8) | d[i + 1]!;
}

/** Dotted IPv4 text of 4 bytes at `at`. */
function ipv4(d: Uint8Array, at: number): string {
  return `${d[at]}.${d[at + 1]}.${d[at + 2]}.${d[at + 3]}`;
}

/** IPv6 text (RFC 5952: lower case, longest zero run as `::`) of 16 bytes at `at`. */
function ipv6(d: Uint8Array, at: number): string {
  const g: number[] = [];
  for (let i = 0; i < 8; i++) g.push((d[at + 2 * i]! << 8) | d[at + 2 * i + 1]!);
  let best = -1;
  let len = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > len && j - i > 1) {
      best = i;
      len = j - i;
    }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + len).join(':')}`;
}

/** Text of the address at `at` in `d` (16 bytes when `v6`, else 4). */
export function addressText(d: Uint8Array, at: number, v6: boolean): string {
  return v6 ? ipv6(d, at) : ipv4(d, at);
}

/** `address:port` text (`[v6]:port` for IPv6) of the address at `at` in `d`. */
export function endpointText(d: Uint8Array, at: number, v6: boolean, port: number): string {
  return v6 ? `[${ipv6(d, at)}]:${port}` : `${ipv4(d, at)}:${port}`;
}

/**
 * Fills `s` with the UDP or TCP segment of the frame d[at, end) of link type `linkType`; false
 * (and `s` undefined) for another protocol, a fragment, or a frame cut short. Never throws.
 */
export function readSegment(linkType: number, d: Uint8Array, at: number, end: number, s: SegmentView): boolean {
  const len = end - at;
  // The network header's offset and ethertype (the link types in the file comment).
  let type: number;
  switch (linkType) {
    case 1: {
      if (len < 14) return false;
      let o = at + 12;
      type = u16(d, o);
      while ((type === ETH_VLAN_1 || type === ETH_VLAN_2) && end >= o + 6) {
        o += 4;
        type = u16(d, o);
      }
      at = o + 2;
      break;
    }
    case 113:
      if (len < 16) return false;
      type = u16(d, at + 14);
      at += 16;
      break;
    case 276:
      if (len < 20) return false;
      type = u16(d, at);
      at += 20;
      break;
    case 101:
    case 12:
      if (len < 1) return false;
      type = d[at]! >> 4 === 6 ? ETH_IPV6 : ETH_IPV4;
      break;
    case 0: {
      if (len < 4) return false;
      // BSD loopback: the address family in host byte order (2 = IPv4; 24, 28, 30 = IPv6).
      const af = d[at] === 0 ? d[at + 3]! : d[at]!;
      type = af === 2 ? ETH_IPV4 : ETH_IPV6;
      at += 4;
      break;
    }
    default:
      return false;
  }
  let proto: number;
  let stop: number;
  if (type === ETH_IPV4) {
    if (end < at + 20 || d[at]! >> 4 !== 4) return false;
    const ihl = (d[at]! & 0x0f) * 4;
    const total = u16(d, at + 2);
    const frag = u16(d, at + 6) & 0x3fff; // MF flag + fragment offset
    if (ihl < 20 || frag !== 0 || total < ihl) return false;
    proto = d[at + 9]!;
    s.v6 = false;
    s.srcAt = at + 12;
    s.dstAt = at + 16;
    s.src4 = ((d[at + 12]! << 24) | (d[at + 13]! << 16) | (d[at + 14]! << 8) | d[at + 15]!) >>> 0;
    s.dst4 = ((d[at + 16]! << 24) | (d[at + 17]! << 16) | (d[at + 18]! << 8) | d[at + 19]!) >>> 0;
    stop = Math.min(end, at + total);
    at += ihl;
  } else if (type === ETH_IPV6) {
    if (end < at + 40 || d[at]! >> 4 !== 6) return false;
    const payload = u16(d, at + 4);
    proto = d[at + 6]!;
    s.v6 = true;
    s.srcAt = at + 8;
    s.dstAt = at + 24;
    s.src4 = 0;
    s.dst4 = 0;
    stop = Math.min(end, at + 40 + payload);
    at += 40;
  } else return false;
  if (at > stop) return false;
  s.d = d;
  if (proto === 17) {
    if (stop - at < 8) return false;
    const ulen = u16(d, at + 4);
    if (ulen < 8) return false;
    s.proto = 'udp';
    s.srcPort = u16(d, at);
    s.dstPort = u16(d, at + 2);
    s.seq = 0;
    s.flags = 0;
    s.payloadAt = at + 8;
    s.payloadEnd = Math.max(at + 8, Math.min(stop, at + ulen));
    return true;
  }
  if (proto === 6) {
    if (stop - at < 20) return false;
    const off = (d[at + 12]! >> 4) * 4;
    if (off < 20 || at + off > stop) return false;
    s.proto = 'tcp';
    s.srcPort = u16(d, at);
    s.dstPort = u16(d, at + 2);
    s.seq = ((d[at + 4]! << 24) | (d[at + 5]! << 16) | (d[at + 6]! << 8) | d[at + 7]!) >>> 0;
    s.flags = d[at + 13]!;
    s.payloadAt = at + off;
    s.payloadEnd = stop;
    return true;
  }
  return false;
}

/** The UDP or TCP segment of a captured frame, or null (another protocol, a fragment, cut short). */
export function segmentOf(linkType: number, d: Uint8Array): Segment | null {
  const s = segmentView();
  if (!readSegment(linkType, d, 0, d.length, s)) return null;
  return { proto: s.proto, src: addressText(d, s.srcAt, s.v6), srcPort: s.srcPort, dst: addressText(d, s.dstAt, s.v6), dstPort: s.dstPort, seq: s.seq, flags: s.flags, payload: d.subarray(s.payloadAt, s.payloadEnd) };
}
