/**
 * Pairs the DNS packets seen on the proxy's listeners and upstream sockets into query log rows,
 * by what the packets themselves carry: a client's query and the proxy's answer to it share
 * transport, client address and port, listener address and port, and DNS id (RFC 5452 §4.3:
 * a resolver accepts only an answer matching all of them); an upstream exchange is paired the
 * same way on the proxy's own socket. A row names the upstream exchange for its question that
 * the proxy sent while the client waited and that was answered before the proxy answered the
 * client (dnsproxy keeps the client's DNS id upstream: that exchange is preferred; dnsmasq
 * picks a new id and merges identical questions, and then the one exchange serves them all).
 * No exchange in that window: answered from the cache or locally (route null, upstream null).
 */
import { answersOf, type MessageView } from './dns-message';
import { endpointText, type SegmentView } from './frame';

/** One query as the packets show it. */
export interface CapturedQuery {
  /** `udp` or `tcp`. */
  proto: 'udp' | 'tcp';
  /** Client `address:port` (`[v6]:port` for IPv6). */
  client: string;
  /** The listener it asked (`127.0.0.1:53`). */
  listener: string;
  /** DNS id of the query and its answer. */
  id: number;
  /** Name as asked (case kept), without the trailing dot. */
  name: string;
  type: string;
  /** µs since the epoch when the query was seen. */
  queryUs: number;
  /** rcode of the proxy's answer; null while none was seen. */
  rcode: string | null;
  answers: string[];
  /** Query to answer in ms (capture time stamps, µs resolution); null while unanswered. */
  latencyMs: number | null;
  /** The upstream (`172.21.0.10:53`) whose answer came in while the client waited; null: cache or local. */
  upstream: string | null;
  /** That upstream exchange's rcode and round trip in ms. */
  upstreamRcode: string | null;
  upstreamLatencyMs: number | null;
  /** Same query (same key) seen again before the answer: a client retry. */
  retries: number;
  /**
   * The search domains of the host's /etc/resolv.conf when the row was written (added to the
   * row's line by the parser process, row-line.ts; pairing never sets it); absent in rows
   * written before it recorded them.
   */
  search?: string[];
}

/** An upstream exchange: the proxy's query and the upstream's answer on the proxy's socket. */
interface Exchange {
  /** The upstream's `address:port`, made when a row first names it (null until then). */
  upstream: string | null;
  /** The upstream's IPv4 address as a number and port (upstream4 -1: IPv6, the text is made at once). */
  upstream4: number;
  upstreamPort: number;
  id: number;
  name: string;
  type: string;
  sentUs: number;
  answeredUs: number | null;
  rcode: string | null;
}

/** Options of a Pairing. */
export interface PairingOptions {
  /** The proxy's listeners (`127.0.0.1:53`, `172.19.1.1:53`): packets to them are client queries. */
  listeners: readonly string[];
  /** Called once per row when its answer is seen (and, for queries never answered, when they expire). */
  onRow(row: CapturedQuery): void;
  /** µs an unanswered query or exchange is kept (default 30 s: longer than any upstream timeout). */
  expireUs?: number;
  /** Most unanswered queries kept, and most unanswered upstream exchanges (default OPEN_MAX). */
  openMax?: number;
}

/** `address:port` text (`[v6]:port` for IPv6). */
export function endpoint(addr: string, port: number): string {
  return addr.includes(':') ? `[${addr}]:${port}` : `${addr}:${port}`;
}

/** Exchanges kept for the window search at least (the newest; up to twice as many between trims). */
const EXCHANGES_MAX = 4096;

/**
 * Most unanswered client queries kept waiting for their answer (and, apart, most unanswered
 * upstream exchanges). A flood of queries no one answers (600k in 30 s held 364 MB before this
 * cap) costs at most this many entries, a few hundred bytes each: past it the oldest open query
 * is emitted as unanswered (rcode null) and counted in `evicted`; the oldest upstream exchange is
 * forgotten and counted in `evictedExchanges` (its answer, if it comes, then names no upstream).
 */
export const OPEN_MAX = 65_536;

/** IPv4 `a.b.c.d:port` text of an address number and port. */
function endpoint4(a: number, port: number): string {
  return `${a >>> 24}.${(a >>> 16) & 0xff}.${(a >>> 8) & 0xff}.${a & 0xff}:${port}`;
}

/** An IPv4 listener's address and port as one number (address × 65536 + port), or null when `text` is not IPv4 `a.b.c.d:port` as endpoint() writes it. */
function listener4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/.exec(text);
  if (!m) return null;
  const [a, b, c, d, port] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (a > 255 || b > 255 || c > 255 || d > 255 || port > 65535 || `${a}.${b}.${c}.${d}:${port}` !== text) return null;
  return (((a << 24) | (b << 16) | (c << 8) | d) >>> 0) * 65536 + port;
}

/**
 * Map key of one side's address and port and the other's, the DNS id and `tag` (protocol,
 * family): 16-bit units in one short string, so no text is made per packet. IPv6
 * keys hold the 16 address bytes as 8 units, IPv4 ones the address as 2.
 */
function keyOf(tag: number, s: SegmentView, aAt: number, aPort: number, bAt: number, bPort: number, id: number): string {
  const d = s.d;
  if (!s.v6) return String.fromCharCode(tag, (d[aAt]! << 8) | d[aAt + 1]!, (d[aAt + 2]! << 8) | d[aAt + 3]!, aPort, (d[bAt]! << 8) | d[bAt + 1]!, (d[bAt + 2]! << 8) | d[bAt + 3]!, bPort, id);
  const u = (i: number) => (d[i]! << 8) | d[i + 1]!;
  return String.fromCharCode(tag, u(aAt), u(aAt + 2), u(aAt + 4), u(aAt + 6), u(aAt + 8), u(aAt + 10), u(aAt + 12), u(aAt + 14), aPort, u(bAt), u(bAt + 2), u(bAt + 4), u(bAt + 6), u(bAt + 8), u(bAt + 10), u(bAt + 12), u(bAt + 14), bPort, id);
}

/** Pairs packets into rows (see the file comment). */
export class Pairing {
  /** The listeners, in order without repeats. */
  private readonly listeners: string[];
  /** IPv4 listeners by address × 65536 + port → their index in `listeners`. */
  private readonly listeners4 = new Map<number, number>();
  /** Listeners by text → index (IPv6 packets are matched by their endpoint's text). */
  private readonly listenerIndex = new Map<string, number>();
  private readonly open = new Map<string, CapturedQuery>();
  private readonly pendingUp = new Map<string, Exchange>();
  /** Answered exchanges, oldest first. */
  private answered: Exchange[] = [];
  /** µs an unanswered query or exchange is kept (PairingOptions.expireUs). */
  readonly expireUs: number;
  private readonly openMax: number;
  private lastExpire = 0;
  /** Open queries emitted unanswered because the table was full (OPEN_MAX), since the start. */
  evicted = 0;
  /** Unanswered upstream exchanges forgotten because their table was full, since the start. */
  evictedExchanges = 0;

  constructor(private readonly opts: PairingOptions) {
    this.listeners = [...new Set(opts.listeners)];
    for (const [i, l] of this.listeners.entries()) {
      this.listenerIndex.set(l, i);
      const n = listener4(l);
      if (n !== null) this.listeners4.set(n, i);
    }
    this.expireUs = opts.expireUs ?? 30_000_000;
    this.openMax = opts.openMax ?? OPEN_MAX;
  }

  /** Index of the listener at address `at` in `s.d` (IPv4: the number `a4`) and `port`, or -1. */
  private listenerAt(s: SegmentView, at: number, a4: number, port: number): number {
    if (!s.v6) return this.listeners4.get(a4 * 65536 + port) ?? -1;
    return this.listenerIndex.get(endpointText(s.d, at, true, port)) ?? -1;
  }

  /** Takes one DNS message seen in segment `s` at `tsUs` (both only read during the call). */
  packet(s: SegmentView, m: MessageView, tsUs: number): void {
    // tag: protocol and family (the listener is the key's address and port).
    const tag = (s.proto === 'tcp' ? 1 : 0) | (s.v6 ? 2 : 0);
    if (!m.response) {
      const li = this.listenerAt(s, s.dstAt, s.dst4, s.dstPort);
      if (li >= 0) this.clientQuery(s, m, keyOf(tag, s, s.srcAt, s.srcPort, s.dstAt, s.dstPort, m.id), li, tsUs);
      else this.upstreamQuery(keyOf(tag, s, s.srcAt, s.srcPort, s.dstAt, s.dstPort, m.id), { upstream: s.v6 ? endpointText(s.d, s.dstAt, true, s.dstPort) : null, upstream4: s.v6 ? -1 : s.dst4, upstreamPort: s.dstPort, id: m.id, name: m.name.toLowerCase(), type: m.type, sentUs: tsUs, answeredUs: null, rcode: null });
    } else {
      const li = this.listenerAt(s, s.srcAt, s.src4, s.srcPort);
      if (li >= 0) this.clientAnswer(keyOf(tag, s, s.dstAt, s.dstPort, s.srcAt, s.srcPort, m.id), m, tsUs);
      else this.upstreamAnswer(keyOf(tag, s, s.dstAt, s.dstPort, s.srcAt, s.srcPort, m.id), m, tsUs);
    }
    if (tsUs - this.lastExpire > 1_000_000) this.expire(tsUs);
  }

  /**
   * µs time stamp of the oldest query still waiting for its answer, or null when none waits. The
   * table keeps arrival order, so this is its first entry (a new question under a known key moves
   * to the end): O(1), for a timer that fires once for the oldest (idle-release.ts).
   */
  oldestOpenUs(): number | null {
    for (const r of this.open.values()) return r.queryUs;
    return null;
  }

  /** Emits the rows still open and forgets all state (the capture ended). */
  flush(): void {
    for (const r of this.open.values()) this.opts.onRow(r);
    this.open.clear();
    this.pendingUp.clear();
    this.answered = [];
  }

  private clientQuery(s: SegmentView, m: MessageView, key: string, li: number, tsUs: number): void {
    const known = this.open.get(key);
    if (known && known.name.toLowerCase() === m.name.toLowerCase() && known.type === m.type) {
      known.retries++;
      return;
    }
    if (known) {
      // Another question under the same key: the old one ends unanswered; the new one is the newest.
      this.open.delete(key);
      this.opts.onRow(known);
    } else if (this.open.size >= this.openMax) {
      // Full: the oldest open query (a Map keeps insertion order) ends unanswered.
      const [oldestKey, oldest] = this.open.entries().next().value!;
      this.open.delete(oldestKey);
      this.evicted++;
      this.opts.onRow(oldest);
    }
    const client = endpointText(s.d, s.srcAt, s.v6, s.srcPort);
    this.open.set(key, { proto: s.proto, client, listener: this.listeners[li]!, id: m.id, name: m.name, type: m.type, queryUs: tsUs, rcode: null, answers: [], latencyMs: null, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 });
  }

  private clientAnswer(key: string, m: MessageView, tsUs: number): void {
    const row = this.open.get(key);
    // No query seen (capture started after it), or an answer for another question: not this row's.
    if (!row || row.name.toLowerCase() !== m.name.toLowerCase() || row.type !== m.type) return;
    this.open.delete(key);
    row.rcode = m.rcode;
    row.answers = answersOf(m.d, m.at, m.end);
    row.latencyMs = Math.round(tsUs - row.queryUs) / 1000;
    const ex = this.exchangeFor(row, tsUs);
    if (ex) {
      row.upstream = ex.upstream ??= endpoint4(ex.upstream4, ex.upstreamPort);
      row.upstreamRcode = ex.rcode;
      row.upstreamLatencyMs = Math.round(ex.answeredUs! - ex.sentUs) / 1000;
    }
    this.opts.onRow(row);
  }

  private upstreamQuery(key: string, ex: Exchange): void {
    // A resent query under the same key replaces the old one and becomes the newest.
    if (!this.pendingUp.delete(key) && this.pendingUp.size >= this.openMax) {
      this.pendingUp.delete(this.pendingUp.keys().next().value!);
      this.evictedExchanges++;
    }
    this.pendingUp.set(key, ex);
  }

  private upstreamAnswer(key: string, m: MessageView, tsUs: number): void {
    const ex = this.pendingUp.get(key);
    if (!ex || ex.name !== m.name.toLowerCase() || ex.type !== m.type) return;
    this.pendingUp.delete(key);
    ex.answeredUs = tsUs;
    ex.rcode = m.rcode;
    this.answered.push(ex);
    // Trimmed in halves, not one shift per exchange (a shift moves the whole array).
    if (this.answered.length > 2 * EXCHANGES_MAX) this.answered.splice(0, EXCHANGES_MAX);
  }

  /**
   * The exchange for the row's question answered while the client waited (between its query
   * and `answerUs`): the one with the client's DNS id first (dnsproxy), then one sent after the
   * query, then one already in flight (dnsmasq merges a repeated question into it); the latest.
   */
  private exchangeFor(row: CapturedQuery, answerUs: number): Exchange | null {
    const name = row.name.toLowerCase();
    let after: Exchange | null = null;
    let inFlight: Exchange | null = null;
    for (let i = this.answered.length - 1; i >= 0; i--) {
      const ex = this.answered[i]!;
      if (ex.answeredUs! < row.queryUs) break;
      if (ex.answeredUs! > answerUs || ex.name !== name || ex.type !== row.type) continue;
      if (ex.id === row.id && ex.sentUs >= row.queryUs) return ex;
      if (ex.sentUs >= row.queryUs) after ??= ex;
      else inFlight ??= ex;
    }
    return after ?? inFlight;
  }

  /**
   * Ends what is older than expireUs at `nowUs` (µs, the capture's clock): open queries are
   * emitted as unanswered rows (rcode null), unanswered exchanges and old answered ones are
   * forgotten. Packets call it once a second of capture time; idle-release.ts calls it on a timer
   * when no packet comes.
   */
  expire(nowUs: number): void {
    this.lastExpire = nowUs;
    for (const [k, r] of this.open) if (nowUs - r.queryUs > this.expireUs) {
      this.open.delete(k);
      this.opts.onRow(r);
    }
    for (const [k, ex] of this.pendingUp) if (nowUs - ex.sentUs > this.expireUs) this.pendingUp.delete(k);
    const old = this.answered.findIndex((ex) => nowUs - ex.answeredUs! <= this.expireUs);
    this.answered.splice(0, old < 0 ? this.answered.length : old);
  }
}
