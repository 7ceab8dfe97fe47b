/**
 * A DNS message in a captured payload → the fields the query log pairs and shows (RFC 1035
 * §4.1): id, QR, rcode, the first question, and (answers) the answer records as text, decoded
 * with dns-packet. TCP payloads carry messages with a 2-byte length prefix (RFC 1035 §4.2.2,
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
  /** First question's name, as asked (case kept: the health probes' marker), without the trailing dot. */
  name: string;
  /** First question's type (`A`, `PTR` …). */
  type: string;
  /** Responses: the answer section's data as text (`172.21.0.1`, `kube-dns.kube-system.svc.cluster.local`). */
  answers: string[];
}

/** Text of one answer record's data. */
function answerText(a: Answer): string {
  const data = (a as { data?: unknown }).data;
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object' && !(data instanceof Uint8Array)) {
    const o = data as Record<string, unknown>;
    if (typeof o.target === 'string') return `${o.priority ?? ''} ${o.weight ?? ''} ${o.port ?? ''} ${o.target}`.trim();
    if (typeof o.exchange === 'string') return `${o.preference ?? ''} ${o.exchange}`.trim();
    if (typeof o.mname === 'string') return `${o.mname} ${o.rname ?? ''}`;
  }
  if (Array.isArray(data)) return data.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString('utf8') : String(x))).join(' ');
  return '';
}

/** The DNS message in `payload` (one whole message), or null when it is not one. */
export function dnsMessageOf(payload: Uint8Array): DnsMessage | null {
  if (payload.length < 12) return null;
  let p;
  try {
    p = decode(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
  } catch {
    return null;
  }
  const q = p.questions?.[0];
  if (!q || typeof q.name !== 'string' || typeof p.id !== 'number') return null;
  const response = p.type === 'response';
  // dns-packet 5.6 decodes the header's RCODE as text (`rcode`), missing from its types.
  const rc = (p as unknown as { rcode?: unknown }).rcode;
  const rcode = typeof rc === 'string' ? rc : 'NOERROR';
  let answers: string[] = [];
  if (response) {
    try {
      answers = (p.answers ?? []).map(answerText);
    } catch {
      answers = [];
    }
  }
  return { id: p.id, response, rcode, name: q.name.replace(/\.$/, ''), type: String(q.type), answers };
}

/** A TCP connection's bytes waiting to make whole length-prefixed messages. */
interface Flow {
  next: number;
  buf: Uint8Array;
}

/** Bytes of one flow held at most (two largest messages): past it the flow resynchronises. */
const FLOW_MAX = 2 * 65_537;
/** Flows followed at most (the oldest is forgotten first). */
const FLOWS_MAX = 4096;

/**
 * Rebuilds DNS messages from TCP segments, per connection (src:port → dst:port), in sequence
 * order as a loopback or veth capture delivers them. A gap, a retransmission or an overlong
 * buffer drops what the flow held and resynchronises at the next segment (its messages until
 * then are lost, never mis-framed into another message's bytes).
 */
export class TcpFlows {
  private flows = new Map<string, Flow>();

  /** The whole DNS message payloads this segment completes. */
  push(s: Segment): Uint8Array[] {
    const key = `${s.src}|${s.srcPort}|${s.dst}|${s.dstPort}`;
    if (s.flags & 0x05) {
      // FIN or RST: the connection ends (its last messages are in this segment too).
      const out = this.take(key, s);
      this.flows.delete(key);
      return out;
    }
    if (s.flags & 0x02) {
      // SYN: the first data byte is seq + 1.
      this.flows.delete(key);
      this.remember(key, { next: (s.seq + 1) >>> 0, buf: new Uint8Array(0) });
      return [];
    }
    return this.take(key, s);
  }

  private remember(key: string, f: Flow): void {
    this.flows.set(key, f);
    if (this.flows.size > FLOWS_MAX) this.flows.delete(this.flows.keys().next().value!);
  }

  private take(key: string, s: Segment): Uint8Array[] {
    if (s.payload.length === 0) return [];
    let f = this.flows.get(key);
    // A flow seen mid-way (capture started after its SYN) or out of step: start at this segment.
    if (!f || f.next !== s.seq) f = { next: s.seq, buf: new Uint8Array(0) };
    const buf = new Uint8Array(f.buf.length + s.payload.length);
    buf.set(f.buf, 0);
    buf.set(s.payload, f.buf.length);
    const out: Uint8Array[] = [];
    let at = 0;
    while (buf.length - at >= 2) {
      const len = (buf[at]! << 8) | buf[at + 1]!;
      if (buf.length - at - 2 < len) break;
      out.push(buf.slice(at + 2, at + 2 + len));
      at += 2 + len;
    }
    const rest = buf.slice(at);
    if (rest.length > FLOW_MAX) this.flows.delete(key);
    else this.remember(key, { next: (s.seq + s.payload.length) >>> 0, buf: rest });
    return out;
  }
}
