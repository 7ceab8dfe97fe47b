/**
 * Parser for /proc/net/{tcp,tcp6,udp,udp6} (proc(5), "/proc/net/tcp"): which local address and
 * port each socket is bound to, its state and its inode. Pure; addresses are printed in host
 * byte order per 32-bit word, so the caller says whether the host is little-endian.
 */

/** One socket row. `localAddress` is canonical text (IPv4 dotted, IPv6 compressed lower-case). */
export interface ProcNetSocket {
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
  /** Kernel TCP state number (0x0A = LISTEN; unconnected UDP shows 0x07 = CLOSE). */
  state: number;
  uid: number;
  inode: number;
}

/** TCP_LISTEN in include/net/tcp_states.h. */
export const TCP_LISTEN = 0x0a;

function word(hex: string, littleEndian: boolean): number[] {
  const bytes = [0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return littleEndian ? bytes.reverse() : bytes;
}

/** Canonical IPv6 text (RFC 5952): lower-case, no leading zeros, longest zero run as `::`, mapped IPv4 dotted. */
export function formatIpv6(bytes: number[]): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${bytes.slice(12).join('.')}`;
  }
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** Decodes `0100007F` (IPv4) or a 32-digit IPv6 from /proc/net into canonical text. */
export function decodeProcNetAddress(hex: string, littleEndian = true): string {
  if (hex.length === 8) return word(hex, littleEndian).join('.');
  if (hex.length === 32) {
    const bytes = [0, 8, 16, 24].flatMap((i) => word(hex.slice(i, i + 8), littleEndian));
    return formatIpv6(bytes);
  }
  throw new Error(`"${hex}" is not a /proc/net address (8 or 32 hex digits).`);
}

/** Parses one data line (`  0: 0100007F:0035 00000000:0000 07 … uid timeout inode …`); null for the header or junk. */
export function parseProcNetLine(line: string, littleEndian = true): ProcNetSocket | null {
  const f = line.trim().split(/\s+/);
  if (f.length < 10 || !/^\d+:$/.test(f[0] ?? '')) return null;
  const [local, remote] = [f[1] ?? '', f[2] ?? ''].map((s) => s.split(':'));
  if (!local || !remote || local.length !== 2 || remote.length !== 2) return null;
  return {
    localAddress: decodeProcNetAddress(local[0] ?? '', littleEndian),
    localPort: parseInt(local[1] ?? '', 16),
    remoteAddress: decodeProcNetAddress(remote[0] ?? '', littleEndian),
    remotePort: parseInt(remote[1] ?? '', 16),
    state: parseInt(f[3] ?? '', 16),
    uid: Number(f[7]),
    inode: Number(f[9]),
  };
}

/** Parses a whole /proc/net/{tcp,udp}[6] file; skips the header. */
export function parseProcNet(text: string, littleEndian = true): ProcNetSocket[] {
  return text
    .split('\n')
    .map((l) => parseProcNetLine(l, littleEndian))
    .filter((s): s is ProcNetSocket => s !== null);
}

/** Expands IPv4 or IPv6 text to 16 bytes (IPv4 as ::ffff:a.b.c.d); null when not an address. */
function toBytes(addr: string): number[] | null {
  const a = addr.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (v4) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4.slice(1).map(Number)];
  if (!a.includes(':')) return null;
  let text = a;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const tailBytes: number[] = [];
  if (tail?.[1]) {
    tailBytes.push(...tail[1].split('.').map(Number));
    text = text.slice(0, -tail[1].length) + '0:0';
  }
  const [head, rest] = text.split('::');
  const hs = head ? head.split(':') : [];
  const rs = rest ? rest.split(':') : [];
  const fill = text.includes('::') ? 8 - hs.length - rs.length : 0;
  const groups = [...hs, ...Array(fill).fill('0'), ...rs].map((g) => parseInt(g, 16));
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tailBytes.length) bytes.splice(12, 4, ...tailBytes);
  return bytes;
}

/**
 * True when a socket bound to `bound` receives traffic for `target`: same address, the IPv4
 * wildcard 0.0.0.0 for any IPv4 target, or the IPv6 wildcard `::` (dual-stack) for any target.
 */
export function boundAddressCovers(bound: string, target: string): boolean {
  const b = toBytes(bound);
  const t = toBytes(target);
  if (!b || !t) return false;
  const same = b.every((x, i) => x === t[i]);
  const targetIsV4 = t.slice(0, 12).join() === '0,0,0,0,0,0,0,0,0,0,255,255';
  const bIsV4Any = bound === '0.0.0.0';
  const bIsV6Any = b.every((x) => x === 0);
  return same || (bIsV4Any && targetIsV4) || bIsV6Any;
}
