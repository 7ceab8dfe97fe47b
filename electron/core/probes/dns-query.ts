import { isHealthProbeName } from '../../../shared/health-probe';
import { monotonicMs } from './monotonic';
import dgram from 'node:dgram';
import net from 'node:net';
import { randomInt } from 'node:crypto';
import * as dnsPacket from 'dns-packet';
import type { DecodedPacket, Packet } from 'dns-packet';
import { isIpLiteral, ptrName } from '../../../shared/ptr-name';
import type { QueryResult, QueryType } from '../../../shared/types';
import { formatServer, parseServer, type ServerEndpoint } from '../host/parse-server';
import { renderAnswer } from './render-answer';
import { malformedReason } from './dns-wire-check';
import { portUnreachableError } from '../../../shared/probe-failure';

/** One DNS query to one server. */
export interface DnsQueryOptions {
  /** Domain name; for PTR an IP literal is turned into its in-addr.arpa / ip6.arpa name. */
  name: string;
  type: QueryType;
  /** `IP`, `IP:PORT`, `[v6]:PORT` or `v6%zone` (see parseServer); port defaults to 53. */
  server: string;
  /** Default `udp`. A truncated UDP answer (TC bit) is retried over TCP, as dig does. */
  transport?: 'udp' | 'tcp';
  /** Total time budget in ms (default 2000); past it the result is TIMEOUT. */
  timeoutMs?: number;
  /** RD bit (RFC 1035 §4.1.1); default true. */
  recursionDesired?: boolean;
  /**
   * Ask once more, with the CD bit, after a bare NOERROR (no record, no SOA: isBareNoerror);
   * default true. See queryDns.
   */
  recheckBare?: boolean;
}

/**
 * True for a NOERROR reply with no answer record and no SOA in the authority section: not a
 * negative answer a resolver caches (RFC 2308 §5 needs the SOA), and what AdGuard dnsproxy
 * v0.83.1 sends a question that arrived while an identical one (same name in any case, type,
 * class and DO bit) was in flight and failed: proxy/pending.go hands it a copy of the first
 * one's SERVFAIL made with miekg/dns SetReply, which resets the rcode to NOERROR (measured on the
 * e2e bed with CoreDNS down: two identical A questions at once got SERVFAIL and NOERROR).
 */
export function isBareNoerror(packet: Pick<DecodedPacket, 'answers' | 'authorities'> & { rcode?: string }): boolean {
  const records = (packet.answers ?? []).filter((a) => a.type !== 'OPT');
  return (packet.rcode ?? 'NOERROR') === 'NOERROR' && records.length === 0 && !(packet.authorities ?? []).some((a) => a.type === 'SOA');
}

/** What one exchange produced before rendering. */
type Exchange = { ok: true; packet: DecodedPacket } | { ok: false; rcode: 'TIMEOUT' | 'ERROR' | 'MALFORMED_ANSWER'; error: string };

/**
 * Sends one query with dns-packet over UDP or TCP (2-byte length prefix, RFC 1035 §4.2.2) and
 * renders the answer section (renderAnswer). Never throws for network or server problems:
 * those come back as rcode `TIMEOUT` or `ERROR` with `error` set. Responses whose ID or
 * question does not match are ignored on UDP (RFC 5452 §9.1) and an ERROR on TCP. A response
 * with our ID that cannot be decoded (compression loop, truncated, label > 63: dns-wire-check.ts)
 * is rcode `MALFORMED_ANSWER` with the reason in `error`, not a TIMEOUT.
 * `result.name` is the name actually asked (the arpa name for a PTR of an IP).
 * A bare NOERROR (isBareNoerror: no record, no SOA) is asked once more with the CD bit, which
 * dnsproxy never merges with another client's question nor answers from its cache (proxy.go
 * cacheWorks), with a fresh `timeoutMs`: the result is that second reply, with `recheck` naming
 * the first when its rcode or records differ (unless `recheckBare` is false).
 * Throws only for invalid input (a server that is not an IP endpoint).
 */
export async function queryDns(opts: DnsQueryOptions): Promise<QueryResult> {
  const endpoint = parseServer(opts.server);
  // k2s-dns's health probes keep their capitals on the wire, so the proxy's log shows them as
  // probes (shared/health-probe.ts); names compare case-insensitively anyway (RFC 4343).
  const name = isHealthProbeName(opts.name.trim()) ? opts.name.trim().replace(/\.$/, '') : normalizeName(opts.type === 'PTR' && isIpLiteral(opts.name) ? ptrName(opts.name) : opts.name);
  const timeoutMs = opts.timeoutMs ?? 2000;
  const id = randomInt(0, 0x10000);
  const query: Packet = {
    type: 'query',
    id,
    flags: opts.recursionDesired === false ? 0 : dnsPacket.RECURSION_DESIRED,
    questions: [{ type: opts.type, name, class: 'IN' }],
  };
  const first = await askOnce(endpoint, query, name, opts.type, opts.transport ?? 'udp', timeoutMs);
  if (opts.recheckBare === false || !first.bare) return first.result;
  // A bare NOERROR may be a copy of another client's failed question (isBareNoerror): asked
  // again with CD, which dnsproxy neither merges nor answers from cache, so the reply is this
  // question's own. Another ID, so a late copy of the first reply is not taken for it.
  const again = await askOnce(endpoint, { ...query, id: (id + 1) & 0xffff, flags: (query.flags ?? 0) | dnsPacket.CHECKING_DISABLED }, name, opts.type, opts.transport ?? 'udp', timeoutMs);
  const same = again.result.rcode === first.result.rcode && again.result.answers.length === 0;
  return same ? first.result : { ...again.result, recheck: { rcode: first.result.rcode, latencyMs: first.result.latencyMs } };
}

/** One question (UDP, then TCP when truncated) within `timeoutMs`: the result, and whether the reply was a bare NOERROR. */
async function askOnce(endpoint: ServerEndpoint, query: Packet, name: string, type: QueryType, transport0: 'udp' | 'tcp', timeoutMs: number): Promise<{ result: QueryResult; bare: boolean }> {
  const started = monotonicMs();
  const deadline = started + timeoutMs;
  let transport = transport0;
  let ex =
    transport === 'udp' ? await exchangeUdp(endpoint, query, deadline) : await exchangeTcp(endpoint, query, deadline);
  if (ex.ok && transport === 'udp' && ex.packet.flag_tc) {
    // Truncated: the full answer only fits over TCP (RFC 7766 §5).
    transport = 'tcp';
    ex = await exchangeTcp(endpoint, query, deadline);
  }
  const base = {
    name,
    type,
    server: formatServer(endpoint),
    transport,
    latencyMs: Math.round((monotonicMs() - started) * 1000) / 1000,
  };
  if (!ex.ok) return { result: { ...base, rcode: ex.rcode, answers: [], error: ex.error }, bare: false };
  const packet = ex.packet as DecodedPacket & { rcode?: string };
  return {
    result: { ...base, rcode: packet.rcode ?? 'NOERROR', answers: (packet.answers ?? []).filter((a) => a.type !== 'OPT').map(renderAnswer) },
    bare: isBareNoerror(packet),
  };
}

/**
 * ASCII lower-case without trailing dot (the root stays `.`). Only A–Z fold: DNS compares
 * names case-insensitively for ASCII only (RFC 4343 §3), and glibc sends non-ASCII octets as
 * they are (no IDNA in the resolver), so `BÉ.example` goes out as the UTF-8 bytes of `bÉ`.
 */
function normalizeName(name: string): string {
  const n = name.trim().replace(/[A-Z]+/g, (m) => m.toLowerCase());
  return n.length > 1 && n.endsWith('.') ? n.slice(0, -1) : n;
}

/** True when `packet` answers `query`: same ID, QR set, same question name/type (case-insensitive, RFC 4343). */
function matches(packet: DecodedPacket, query: Packet): boolean {
  const q = query.questions?.[0];
  const r = packet.questions?.[0];
  return (
    packet.id === query.id &&
    packet.type === 'response' &&
    !!q &&
    !!r &&
    r.type === q.type &&
    normalizeName(r.name) === normalizeName(q.name)
  );
}

/**
 * UDP exchange on a connected socket (connect(2) on a datagram socket, udp(7)): the kernel then
 * hands the socket only datagrams from the server asked, and reports an ICMP port unreachable
 * for it as ECONNREFUSED on the next receive — so a closed port is rcode `ERROR` with
 * portUnreachableError's words within milliseconds, as glibc's resolver (also a connected
 * socket) sees it, not a TIMEOUT after the whole deadline (walk 6 L3: the listener probes said
 * "TIMEOUT in 1500 ms" where getaddrinfo said "refused in 5 ms").
 */
function exchangeUdp(endpoint: ServerEndpoint, query: Packet, deadline: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket(endpoint.family === 6 ? 'udp6' : 'udp4');
    let done = false;
    const finish = (ex: Exchange): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      resolve(ex);
    };
    const timer = setTimeout(
      () => finish({ ok: false, rcode: 'TIMEOUT', error: `no answer from ${formatServer(endpoint)} over UDP` }),
      Math.max(0, deadline - monotonicMs()),
    );
    const failed = (err: NodeJS.ErrnoException): void =>
      finish({ ok: false, rcode: 'ERROR', error: err.code === 'ECONNREFUSED' ? portUnreachableError(formatServer(endpoint)) : socketErrorText(err, endpoint) });
    socket.on('error', failed);
    socket.on('message', (msg, rinfo) => {
      // Only the server we asked may answer (anti-spoofing, RFC 5452 §9.1; the connected socket filters too).
      if (rinfo.port !== endpoint.port || stripZone(rinfo.address) !== stripZone(endpoint.address)) return;
      // Not our ID (or not even an ID): someone else's packet, keep waiting (RFC 5452 §9.1).
      if (msg.length < 2 || msg.readUInt16BE(0) !== query.id) return;
      const bad = decodeOrReason(msg);
      if (typeof bad === 'string') finish({ ok: false, rcode: 'MALFORMED_ANSWER', error: `malformed answer from ${formatServer(endpoint)}: ${bad}` });
      else if (matches(bad, query)) finish({ ok: true, packet: bad });
    });
    socket.connect(endpoint.port, endpoint.address, (err?: Error) => {
      if (err) return failed(err as NodeJS.ErrnoException);
      socket.send(dnsPacket.encode(query), (e) => {
        if (e) failed(e as NodeJS.ErrnoException);
      });
    });
  });
}

/**
 * A socket error as `connect EADDRNOTAVAIL [fd00::53]:53`: the system call and errno Node
 * reports, and the server as formatServer writes it (Node's own message joins an IPv6 address
 * and its port as `fd00::53:53`, where neither can be read off). An error without a code or
 * system call keeps Node's message.
 */
export function socketErrorText(err: NodeJS.ErrnoException, endpoint: { address: string; port: number }): string {
  return err.code && err.syscall ? `${err.syscall} ${err.code} ${formatServer(endpoint)}` : err.message;
}

/** TCP exchange: one query on a fresh connection, length-prefixed both ways (RFC 1035 §4.2.2). */
function exchangeTcp(endpoint: ServerEndpoint, query: Packet, deadline: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: endpoint.address, port: endpoint.port });
    let done = false;
    let buf = Buffer.alloc(0);
    const finish = (ex: Exchange): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ex);
    };
    const timer = setTimeout(
      () => finish({ ok: false, rcode: 'TIMEOUT', error: `no answer from ${formatServer(endpoint)} over TCP` }),
      Math.max(0, deadline - monotonicMs()),
    );
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(query)));
    socket.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, rcode: 'ERROR', error: socketErrorText(err, endpoint) }));
    socket.on('close', () =>
      finish({ ok: false, rcode: 'ERROR', error: `${formatServer(endpoint)} closed the TCP connection before answering` }),
    );
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2) return;
      const len = buf.readUInt16BE(0);
      if (buf.length < 2 + len) return;
      const packet = decodeOrReason(buf.subarray(2, 2 + len));
      if (typeof packet === 'string') {
        finish({ ok: false, rcode: 'MALFORMED_ANSWER', error: `malformed answer from ${formatServer(endpoint)}: ${packet}` });
        return;
      }
      if (matches(packet, query)) finish({ ok: true, packet });
      else finish({ ok: false, rcode: 'ERROR', error: 'the response ID or question does not match the query' });
    });
  });
}

/** The decoded message, or why it cannot be (the structural check first, then the decoder's own error). */
function decodeOrReason(msg: Buffer): DecodedPacket | string {
  const reason = malformedReason(msg);
  if (reason !== null) return reason;
  try {
    return dnsPacket.decode(msg);
  } catch (err) {
    return (err as Error).message;
  }
}

/** The address without its IPv6 `%zone` suffix. */
function stripZone(address: string): string {
  const pct = address.indexOf('%');
  return pct >= 0 ? address.slice(0, pct) : address;
}
