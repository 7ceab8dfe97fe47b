/**
 * A DNS message in a captured payload → the fields the query log pairs and shows (RFC 1035
 * §4.1): id, QR, rcode, the first question, and (answers) the answer records as text, decoded
 * with dns-packet when asked for. TCP payloads carry messages with a 2-byte length prefix (RFC 1035 §4.2.2,
 * RFC 7766); TcpFlows rebuilds them per connection. Malformed input gives null, never a throw.
 */
import { decode, type Answer } from 'dns-packet';
import type { Segment } from './frame';

/** The parts of a DNS message the query log uses. */
export interface DnsMessage {
  id: number;
  /** True for a response (QR bit set). */
  response: boolean;
  /** RCODE text (`NOERROR`, `NXDOMAIN`, `SERVFAIL` …; RFC 1035 §4.1.1, RFC 6895). */
  rcode: string;
  /** First question's name, as asked (case kept: the health probes' marker), without the trailing dot; label bytes as Latin-1. */
  name: string;
  /** First question's type (`A`, `PTR` …). */
  type: string;
  /** Responses: the answer section's data as text (`172.21.0.1`, `kube-dns.kube-system.svc.cluster.local`); [] when it does not decode. */
  readonly answers: string[];
}

/** Text of one answer record's data. */
function answerText(a: Answer): string {
  const data = (a as { data?: unknown }).data;
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object' && !(data instanceof Uint8Array) && !Array.isArray(data)) {
    const o = data as Record<string, unknown>;
    if (typeof o.target === 'string') return `${o.priority ?? ''} ${o.weight ?? ''} ${o.port ?? ''} ${o.target}`.trim();
    if (typeof o.exchange === 'string') return `${o.preference ?? ''} ${o.exchange}`.trim();
    if (typeof o.mname === 'string') return `${o.mname} ${o.rname ?? ''}`;
  }
  if (Array.isArray(data)) return data.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString('utf8') : String(x))).join(' ');
  return '';
}

/** RR type mnemonics (RFC 1035 §3.2.2, RFC 3596, RFC 2782, RFC 9460 …); others as `TYPEn` (RFC 3597 §5). */
const TYPES: Record<number, string> = { 1: 'A', 2: 'NS', 5: 'CNAME', 6: 'SOA', 12: 'PTR', 13: 'HINFO', 15: 'MX', 16: 'TXT', 28: 'AAAA', 33: 'SRV', 35: 'NAPTR', 39: 'DNAME', 43: 'DS', 46: 'RRSIG', 47: 'NSEC', 48: 'DNSKEY', 64: 'SVCB', 65: 'HTTPS', 255: 'ANY', 257: 'CAA' };
/** RCODE mnemonics (RFC 1035 §4.1.1, RFC 2136 §2.2); others as `RCODEn`. */
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

/** The name being read (readName), as Latin-1 bytes with dots between labels; 255 bytes bound every name read. */
const NAME = Buffer.allocUnsafe(256) as Buffer & { latin1Slice(start: number, end: number): string };
/** Where readName's name ended in the message (the offset after it), or -1. */
let nameEnd = -1;

/**
 * The name at `at` in the message d[base, stop) (RFC 1035 §4.1.4: labels, or a pointer to an
 * earlier offset, counted from `base`), without the trailing dot, label bytes as Latin-1; sets
 * nameEnd to the offset after it (from `base`). Null when it runs out of bytes, points forward,
 * exceeds 255 bytes or 128 labels and pointers. One string per name: the labels are gathered in
 * NAME first.
 */
function readName(d: Uint8Array, base: number, stop: number, at: number): string | null {
  const size = stop - base;
  let end = -1;
  let len = 0;
  let out = 0;
  for (let hops = 0; hops < 128; hops++) {
    if (at >= size) return null;
    const n = d[base + at]!;
    if (n === 0) {
      nameEnd = end < 0 ? at + 1 : end;
      return out === 0 ? '' : NAME.latin1Slice(0, out - 1);
    }
    if ((n & 0xc0) === 0xc0) {
      if (at + 1 >= size) return null;
      const to = ((n & 0x3f) << 8) | d[base + at + 1]!;
      if (to >= at) return null;
      if (end < 0) end = at + 2;
      at = to;
      continue;
    }
    if (n & 0xc0 || at + 1 + n > size) return null;
    len += n + 1;
    if (len > 255) return null;
    const from = base + at + 1;
    for (let i = 0; i < n; i++) NAME[out++] = d[from + i]!;
    NAME[out++] = 0x2e;
    at += 1 + n;
  }
  return null;
}

/**
 * The parts of a message the parser's hot path reads (readMessage), in one object filled again
 * for each message; the message itself stays bytes, d[at, end) (valid only while it is handled).
 */
export interface MessageView {
  id: number;
  response: boolean;
  rcode: string;
  name: string;
  type: string;
  d: Uint8Array;
  at: number;
  end: number;
}

/** An empty MessageView to fill with readMessage. */
export function messageView(): MessageView {
  return { id: 0, response: false, rcode: '', name: '', type: '', d: new Uint8Array(0), at: 0, end: 0 };
}

/**
 * Fills `m` with the DNS message d[at, end) (one whole message); false when it is not one. The
 * header and the first question are read here (every packet needs them, so the hot path has no
 * general decoder); answersOf decodes a response's answers when a row needs them.
 */
export function readMessage(d: Uint8Array, at: number, end: number, m: MessageView): boolean {
  if (end - at < 12) return false;
  const qd = (d[at + 4]! << 8) | d[at + 5]!;
  if (qd === 0) return false;
  const name = readName(d, at, end, 12);
  if (name === null || nameEnd + 4 > end - at) return false;
  const q = at + nameEnd;
  const rc = d[at + 3]! & 0x0f;
  const t = (d[q]! << 8) | d[q + 1]!;
  m.id = (d[at]! << 8) | d[at + 1]!;
  m.response = (d[at + 2]! & 0x80) !== 0;
  m.rcode = RCODES[rc] ?? `RCODE${rc}`;
  m.name = name;
  m.type = TYPES[t] ?? `TYPE${t}`;
  m.d = d;
  m.at = at;
  m.end = end;
  return true;
}

/**
 * The offset after the name at `offset` in the message d[at, at + len), read as dns-packet's
 * name.decode reads it (it throws where this gives -1: out of bytes, over 254 bytes, a pointer
 * not before the start of the labels it continues, a 0x40/0x80 label type).
 */
function packetNameEnd(d: Uint8Array, at: number, len: number, offset: number): number {
  let p = offset;
  let from = offset;
  let total = 0;
  let consumed = 0;
  let jumped = false;
  for (;;) {
    if (p >= len) return -1;
    const l = d[at + p++]!;
    if (!jumped) consumed++;
    if (l === 0) return offset + consumed;
    if ((l & 0xc0) === 0) {
      if (p + l > len) return -1;
      total += l + 1;
      if (total > 254) return -1;
      p += l;
      if (!jumped) consumed += l;
    } else if ((l & 0xc0) === 0xc0) {
      if (p + 1 > len) return -1;
      const to = ((l & 0x3f) << 8) | d[at + p]!;
      if (to >= from) return -1;
      p = to;
      from = to;
      if (!jumped) consumed++;
      jumped = true;
    } else return -1;
  }
}

/** Big-endian 16 bits at `i`. */
function be16(d: Uint8Array, i: number): number {
  return (d[i]! << 8) | d[i + 1]!;
}

/** Byte `i` of the message d[at, at + len), or undefined past its end (as a Buffer index reads). */
function byteOrUndefined(d: Uint8Array, at: number, len: number, i: number): number | undefined {
  return i < len ? d[at + i] : undefined;
}

/** Marks a message that answersOf reads with dns-packet itself. */
const NOT_FAST = null;

/**
 * The answers of d[at, at + len) when every record of the message (answers, authorities,
 * additionals) is of type A — the common answer — or an OPT without options (EDNS), read with dns-packet's own offsets and
 * checks (header; each question's name, type and class; each record's name, type, class and TTL,
 * then 4 address bytes after the 2-byte length, which dns-packet does not check: it always steps
 * 6), so the text and any failure ([]) are what decode() gives; NOT_FAST for any other record
 * type, which dns-packet then reads.
 */
function answersA(d: Uint8Array, at: number, len: number): string[] | null {
  if (len < 12) return [];
  const qd = be16(d, at + 4);
  const an = be16(d, at + 6);
  const records = an + be16(d, at + 8) + be16(d, at + 10);
  let o = 12;
  for (let i = 0; i < qd; i++) {
    o = packetNameEnd(d, at, len, o);
    // Type and class: Buffer.readUInt16BE throws past the end.
    if (o < 0 || o + 4 > len) return [];
    o += 4;
  }
  const out: string[] = [];
  for (let i = 0; i < records; i++) {
    o = packetNameEnd(d, at, len, o);
    if (o < 0 || o + 2 > len) return [];
    const type = be16(d, at + o);
    if (type === 41) {
      // OPT (RFC 6891; EDNS answers carry one): dns-packet reads payload size, extended rcode,
      // version and flags, then the options' length; only an OPT without options is read here.
      if (o + 10 > len) return [];
      if (be16(d, at + o + 8) !== 0) return NOT_FAST;
      if (i < an) out.push('');
      o += 10;
      continue;
    }
    if (type !== 1) return NOT_FAST;
    // Class (16 bits) and TTL (32 bits) are read: past the end they throw.
    if (o + 8 > len) return [];
    // A byte past the end reads as undefined in dns-packet's address text (ip-codec v4.decode).
    if (i < an) out.push(o + 14 <= len ? `${d[at + o + 10]}.${d[at + o + 11]}.${d[at + o + 12]}.${d[at + o + 13]}` : `${byteOrUndefined(d, at, len, o + 10)}.${byteOrUndefined(d, at, len, o + 11)}.${byteOrUndefined(d, at, len, o + 12)}.${byteOrUndefined(d, at, len, o + 13)}`);
    o += 14;
  }
  return out;
}

/** The answer section's data of the message d[at, end) as text (dns-packet's decoding, answersA for A records); [] when the message does not decode. */
export function answersOf(d: Uint8Array, at: number, end: number): string[] {
  const fast = answersA(d, at, end - at);
  if (fast !== NOT_FAST) return fast;
  try {
    return (decode(Buffer.from(d.buffer, d.byteOffset + at, end - at)).answers ?? []).map(answerText);
  } catch {
    return [];
  }
}

/**
 * The DNS message in `payload` (one whole message), or null when it is not one (readMessage);
 * a response's answers are decoded by dns-packet only when read.
 */
export function dnsMessageOf(payload: Uint8Array): DnsMessage | null {
  const m = messageView();
  if (!readMessage(payload, 0, payload.length, m)) return null;
  let answers: string[] | null = m.response ? null : [];
  return {
    id: m.id,
    response: m.response,
    rcode: m.rcode,
    name: m.name,
    type: m.type,
    get answers() {
      answers ??= answersOf(payload, 0, payload.length);
      return answers;
    },
  };
}

/** A TCP connection's bytes waiting to make whole length-prefixed messages: buf[0, len) (buf may be longer: room to append). */
interface Flow {
  next: number;
  buf: Uint8Array;
  len: number;
}

const NO_BYTES = new Uint8Array(0);
/** Bytes of one flow held at most (two largest messages): past it the flow resynchronises. */
const FLOW_MAX = 2 * 65_537;
/** Flows followed at most (the oldest is forgotten first). */
const FLOWS_MAX = 4096;
/**
 * Bytes of flow buffers held at most over all flows (the oldest flows are forgotten first past
 * it): FLOWS_MAX flows each holding most of a 64 KiB message would hold 256 MiB in the parser.
 */
const HELD_MAX = 16 * 1024 * 1024;
/** A flow buffer's room grows by doubling up to this (one whole message with its prefix), then to what is needed. */
const GROW_MAX = 65_537;

/**
 * Rebuilds DNS messages from TCP segments, per connection (src:port → dst:port), in sequence
 * order as a loopback or veth capture delivers them. A gap, a retransmission or an overlong
 * buffer drops what the flow held and resynchronises at the next segment (its messages until
 * then are lost, never mis-framed into another message's bytes). A segment's bytes are appended
 * to room kept in the flow's buffer (grown by doubling), so a message split into n segments
 * costs its length in copies, not n times its length; a flow holding nothing keeps no buffer.
 */
export class TcpFlows {
  private flows = new Map<string, Flow>();
  /** Bytes copied into flow buffers since the start (appends and growth; tests and the bench). */
  copied = 0;
  /** Bytes of the buffers of the flows followed (at most HELD_MAX once a segment is taken). */
  held = 0;

  /** The whole DNS message payloads this segment completes. */
  push(s: Segment): Uint8Array[] {
    const key = `${s.src}|${s.srcPort}|${s.dst}|${s.dstPort}`;
    if (s.flags & 0x05) {
      // FIN or RST: the connection ends (its last messages are in this segment too).
      const out = this.take(key, s);
      this.forget(key);
      return out;
    }
    if (s.flags & 0x02) {
      // SYN: the first data byte is seq + 1.
      this.forget(key);
      this.remember(key, { next: (s.seq + 1) >>> 0, buf: NO_BYTES, len: 0 });
      return [];
    }
    return this.take(key, s);
  }

  /** Follows `f` under `key` (a flow already there keeps its place in the age order); forgets the oldest past FLOWS_MAX or HELD_MAX. */
  private remember(key: string, f: Flow): void {
    this.flows.set(key, f);
    while (this.flows.size > FLOWS_MAX || (this.held > HELD_MAX && this.flows.size > 1)) this.forget(this.flows.keys().next().value!);
  }

  /** Stops following the flow under `key`. */
  private forget(key: string): void {
    const f = this.flows.get(key);
    if (!f) return;
    this.held -= f.buf.length;
    this.flows.delete(key);
  }

  private take(key: string, s: Segment): Uint8Array[] {
    const n = s.payload.length;
    if (n === 0) return [];
    let f = this.flows.get(key);
    // A flow seen mid-way (capture started after its SYN) or out of step: start at this segment
    // (a flow followed is replaced under its key, so its buffer is no longer held).
    if (!f || f.next !== s.seq) {
      if (f) this.held -= f.buf.length;
      f = { next: s.seq, buf: NO_BYTES, len: 0 };
    }
    const need = f.len + n;
    if (need > f.buf.length) {
      const grown = new Uint8Array(Math.max(need, Math.min(2 * f.buf.length, GROW_MAX)));
      grown.set(f.buf.subarray(0, f.len), 0);
      this.copied += f.len;
      this.held += grown.length - f.buf.length;
      f.buf = grown;
    }
    const buf = f.buf;
    buf.set(s.payload, f.len);
    this.copied += n;
    f.len = need;
    const out: Uint8Array[] = [];
    let at = 0;
    while (need - at >= 2) {
      const len = (buf[at]! << 8) | buf[at + 1]!;
      if (need - at - 2 < len) break;
      out.push(buf.slice(at + 2, at + 2 + len));
      at += 2 + len;
    }
    f.next = (s.seq + n) >>> 0;
    if (at === need) {
      this.held -= f.buf.length;
      f.buf = NO_BYTES;
      f.len = 0;
    } else if (at > 0) {
      buf.copyWithin(0, at, need);
      this.copied += need - at;
      f.len = need - at;
    }
    if (f.len > FLOW_MAX) {
      this.held -= f.buf.length;
      this.flows.delete(key);
    } else this.remember(key, f);
    return out;
  }
}
