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

const ETH_IPV4 = 0x0800;
const ETH_IPV6 = 0x86dd;
const ETH_VLAN = [0x8100, 0x88a8];

/** Offset and ethertype of the network header inside a frame of `linkType`, or null. */
function network(linkType: number, d: Uint8Array): { at: number; type: number } | null {
  const u16 = (i: number) => (d[i]! << 8) | d[i + 1]!;
  switch (linkType) {
    case 1: {
      if (d.length < 14) return null;
      let at = 12;
      let type = u16(at);
      while (ETH_VLAN.includes(type) && d.length >= at + 6) {
        at += 4;
        type = u16(at);
      }
      return { at: at + 2, type };
    }
    case 113:
      return d.length < 16 ? null : { at: 16, type: u16(14) };
    case 276:
      return d.length < 20 ? null : { at: 20, type: u16(0) };
    case 101:
    case 12:
      return d.length < 1 ? null : { at: 0, type: d[0]! >> 4 === 6 ? ETH_IPV6 : ETH_IPV4 };
    case 0: {
      if (d.length < 4) return null;
      // BSD loopback: the address family in host byte order (2 = IPv4; 24, 28, 30 = IPv6).
      const af = d[0] === 0 ? d[3]! : d[0]!;
      return { at: 4, type: af === 2 ? ETH_IPV4 : ETH_IPV6 };
    }
    default:
      return null;
  }
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

/** The UDP or TCP segment of a captured frame, or null (another protocol, a fragment, cut short). */
export function segmentOf(linkType: number, d: Uint8Array): Segment | null {
  const net = network(linkType, d);
  if (!net) return null;
  let at = net.at;
  let proto: number;
  let src: string;
  let dst: string;
  let end: number;
  if (net.type === ETH_IPV4) {
    if (d.length < at + 20 || d[at]! >> 4 !== 4) return null;
    const ihl = (d[at]! & 0x0f) * 4;
    const total = (d[at + 2]! << 8) | d[at + 3]!;
    const frag = ((d[at + 6]! << 8) | d[at + 7]!) & 0x3fff; // MF flag + fragment offset
    if (ihl < 20 || frag !== 0 || total < ihl) return null;
    proto = d[at + 9]!;
    src = ipv4(d, at + 12);
    dst = ipv4(d, at + 16);
    end = Math.min(d.length, at + total);
    at += ihl;
  } else if (net.type === ETH_IPV6) {
    if (d.length < at + 40 || d[at]! >> 4 !== 6) return null;
    const payload = (d[at + 4]! << 8) | d[at + 5]!;
    proto = d[at + 6]!;
    src = ipv6(d, at + 8);
    dst = ipv6(d, at + 24);
    end = Math.min(d.length, at + 40 + payload);
    at += 40;
  } else return null;
  if (at > end) return null;
  const u16 = (i: number) => (d[i]! << 8) | d[i + 1]!;
  if (proto === 17) {
    if (end - at < 8) return null;
    const len = u16(at + 4);
    if (len < 8) return null;
    return { proto: 'udp', src, srcPort: u16(at), dst, dstPort: u16(at + 2), seq: 0, flags: 0, payload: d.subarray(at + 8, Math.min(end, at + len)) };
  }
  if (proto === 6) {
    if (end - at < 20) return null;
    const off = (d[at + 12]! >> 4) * 4;
    if (off < 20 || at + off > end) return null;
    const seq = ((d[at + 4]! << 24) | (d[at + 5]! << 16) | (d[at + 6]! << 8) | d[at + 7]!) >>> 0;
    return { proto: 'tcp', src, srcPort: u16(at), dst, dstPort: u16(at + 2), seq, flags: d[at + 13]!, payload: d.subarray(at + off, end) };
  }
  return null;
}
