/**
 * The query log's AdGuard dnsproxy assembler. dnsproxy v0.83.1 with `-v` logs each query as a
 * sequence of DEBUG records: `handling new packet raddr=<client> proto=udp` (TCP: `handling new
 * request proto=tcp raddr=…`), the request as dig-style text, one record per text line (`in
 * line_num=N line="…"`, proxy/server.go logDNSMessage), `handling request req=";name.\tIN\t A"`,
 * then `sending request addr=<upstream> … id=<DNS id>` + `exchange successfully finished
 * upstream=… question=… duration=…` or `replying from cache`, and the response as `out
 * line_num=N line="…"`. Records carry no query id except the DNS id inside the message text and
 * `sending request`, so `in`, `sending request` and `out` are paired by DNS id + question (name
 * and type), and the id-less records go to the query whose question they name, or to the query
 * whose `handling request` came last.
 *
 * The client record carries no id either: one goroutine writes `handling new packet` and, µs
 * later, the request's `in` records, so a request takes the oldest client record of the last
 * CLIENT_PAIR_MS still unclaimed. Client records that never get a request are dropped: the
 * app's readiness check (a TCP connect, no query) logs `handling new request proto=tcp` and
 * `connection is closed proto=tcp details="reading msg"`; a malformed packet logs `unpacking
 * raddr=…`; anything else ages out of the window (exact for queries handled one after another;
 * concurrent queries may interleave and then only the id-matched fields are certain). Without
 * `-v` only failures are logged (`ERROR exchange failed upstream=… question=… err=…`): each
 * becomes a row.
 */
import type { LogLine } from '../types';
import type { AssemblerContext, EngineAssembler, LineOwner, QueryRow } from './row';
import { goDurationMs, msOfDay, parseQuestion, shortError, timeMs } from './text';

/** A dnsproxy client record (`handling new packet` / `handling new request`) until a request takes it. */
interface ClientRecord {
  client: string;
  protocol: string;
  time: string | null;
  row: QueryRow | null;
  /** Another client's record was waiting too when a request took this one. */
  guessed?: boolean;
}

/** An `in`/`out` message being reassembled from its per-line records. */
interface DigMessage {
  row: QueryRow | null;
  lines: string[];
  section: string;
  /** Time of its first record. */
  time: string | null;
  /** DNS id from its header line. */
  id: string | null;
  /** `in`: the client record taken at its first line. */
  client: ClientRecord | null;
  /** `out`: rcode from its header line. */
  rcode: string | null;
  /** A line of it could as well have belonged to another message open at the same line. */
  mixed: boolean;
  /** Time of its latest record as logged (parsed only when another message rivals it). */
  lastTime: string | null;
}

/**
 * dnsproxy writes one message's records in a tight loop (µs apart): another message at the same
 * line count whose latest record is older than this many ms is finished, not a rival.
 */
const INTERLEAVE_MS = 10;

/**
 * dnsproxy writes a request's `in` records µs after its `handling new packet` (same goroutine):
 * a client record older than this many ms when a request starts belongs to no request (a
 * connect-only TCP check, a dropped packet) and is discarded.
 */
const CLIENT_PAIR_MS = 200;

/** Open rows searched for a question or id (the newest this many). */
const OPEN_WINDOW = 200;

/** Messages and client records kept open at most. */
const OPEN_MAX = 64;

/** True when record time `b` is at most INTERLEAVE_MS after `a` (same day), or either is unreadable. */
function withinInterleave(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true;
  if (a.slice(0, 10) !== b.slice(0, 10)) return false;
  const d = msOfDay(b) - msOfDay(a);
  return Number.isNaN(d) || d <= INTERLEAVE_MS;
}

/** True when record time `b` is more than CLIENT_PAIR_MS after `a` (or on another day); false when either is unreadable. */
function staleClient(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  if (a.slice(0, 10) !== b.slice(0, 10)) return true;
  const d = msOfDay(b) - msOfDay(a);
  return !Number.isNaN(d) && d > CLIENT_PAIR_MS;
}

/** Question of a row or a log field: lower-case name without the trailing dot, and type. */
interface Question { name: string; type: string }

/** A dnsproxy assembler for one run. */
export function dnsproxyAssembler(ctx: AssemblerContext): EngineAssembler {
  /** The rows this run made, oldest first. */
  const rows: QueryRow[] = [];
  const dnsIds = new WeakMap<QueryRow, string>();
  // Client records not yet taken by a request, oldest first; TCP connections open (no close logged).
  const clients: ClientRecord[] = [];
  let tcpOpen = 0;
  const open = { in: [] as DigMessage[], out: [] as DigMessage[] };
  let lastRequest: QueryRow | null = null;

  const newRow = (time: string | null, q: { name: string; type: string; asked: string }): QueryRow => {
    const row = ctx.newRow('adguard', time, q.name, q.type, q.asked);
    rows.push(row);
    return row;
  };
  /** Latest open (rcode null) row for the question, searching backwards. */
  const openByQuestion = (q: Question): QueryRow | null => {
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - OPEN_WINDOW; i--) {
      const r = rows[i]!;
      if (r.rcode === null && r.name === q.name && r.type === q.type) return r;
    }
    return null;
  };
  /** Open (rcode null) rows with DNS id `id` and the question, oldest first. */
  const openById = (id: string, q: Question): QueryRow[] => {
    const found: QueryRow[] = [];
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - OPEN_WINDOW; i--) {
      const r = rows[i]!;
      if (r.rcode === null && dnsIds.get(r) === id && r.name === q.name && r.type === q.type) found.unshift(r);
    }
    return found;
  };
  /** The client record for a request starting at `time`: stale ones dropped, then the oldest waiting. */
  const takeClient = (time: string | null): ClientRecord | null => {
    while (clients.length > 0 && staleClient(clients[0]!.time, time)) clients.shift();
    const c = clients.shift() ?? null;
    // Another client's packet waiting too: which request took which is a guess (glibc sends
    // A and AAAA from one socket, so the same client twice is no guess).
    if (c && clients.some((w) => w.client !== c.client)) c.guessed = true;
    return c;
  };

  /** The message a record of line `num` continues: the latest live one at num-1 lines (rivals marked mixed). */
  const continued = (list: DigMessage[], num: number, time: string | null): DigMessage | undefined => {
    const all = list.filter((m) => m.lines.length === num - 1);
    // Times are parsed only when two messages could take this record (the hot path has one).
    const candidates = all.length > 1 ? all.filter((m) => withinInterleave(m.lastTime, time)) : all;
    // Two messages at the same line: this one may continue either (concurrent queries).
    if (candidates.length > 1) {
      for (const m of candidates) {
        m.mixed = true;
        if (m.row) m.row.mixed = true;
      }
    }
    // The latest live one; a record after a long pause (preempted writer) still finds its message.
    return candidates[candidates.length - 1] ?? all[all.length - 1];
  };

  /** A request's question line: its row, with the client record taken at its first line. */
  const requestQuestion = (msg: DigMessage, text: string): void => {
    const q = parseQuestion(text);
    if (!q) return;
    const row = newRow(msg.time, q);
    row.mixed = msg.mixed;
    const c = msg.client;
    if (c) {
      row.client = c.client;
      row.protocol = c.protocol;
      if (c.guessed) row.mixed = true;
      c.row = row;
    }
    dnsIds.set(row, msg.id ?? '');
    msg.row = row;
  };

  /** A response's question line: the reply is matched to its request by DNS id + question (dnsproxy keeps the client's id). */
  const responseQuestion = (msg: DigMessage, text: string): void => {
    const q = parseQuestion(text);
    const found = q && msg.id !== null ? openById(msg.id, q) : [];
    const row = found[0];
    if (!row) return;
    msg.row = row;
    row.rcode = msg.rcode;
    // Same id and question in flight twice: which reply is whose is a guess (for each of them).
    if (msg.mixed) row.mixed = true;
    if (found.length > 1) for (const r of found) r.mixed = true;
    const a = timeMs(row.time);
    const b = timeMs(msg.time);
    if (a !== null && b !== null) row.latencyMs = Math.round((b - a) * 1000) / 1000;
  };

  /** One `in`/`out` record: extends the message it continues, or starts one at line_num=1. */
  const digLine = (line: LogLine, dir: 'in' | 'out'): DigMessage | null => {
    const num = Number(line.fields.line_num);
    const text = line.fields.line ?? '';
    const list = open[dir];
    let msg: DigMessage | undefined;
    if (num === 1) {
      msg = { row: null, lines: [], section: '', time: line.time, id: null, client: dir === 'in' ? takeClient(line.time) : null, rcode: null, mixed: false, lastTime: line.time };
      list.push(msg);
      if (list.length > OPEN_MAX) list.shift();
    } else msg = continued(list, num, line.time);
    if (!msg) return null;
    msg.lines.push(text);
    msg.lastTime = line.time;
    const head = /status: (\w+), id: (\d+)/.exec(text);
    if (head) {
      msg.id = head[2]!;
      if (dir === 'out') msg.rcode = head[1]!;
      return msg;
    }
    if (/^;; [A-Z ]+SECTION:$/.test(text)) {
      msg.section = text;
      return msg;
    }
    if (text === '' || text.startsWith(';; ')) return msg;
    const inQuestion = msg.section === ';; QUESTION SECTION:' && msg.row === null;
    if (dir === 'in' && inQuestion) requestQuestion(msg, text);
    else if (dir === 'out' && inQuestion && msg.rcode !== null) responseQuestion(msg, text);
    else if (dir === 'out' && msg.section === ';; ANSWER SECTION:' && msg.row) {
      // `name.\tTTL\tIN\tTYPE\tRDATA`: keep RDATA.
      const parts = text.split('\t');
      msg.row.answers.push(parts.slice(4).join(' ') || text);
    }
    return msg;
  };

  /** `exchange successfully finished` / `exchange failed`: the upstream (and the error) of the open query. */
  const exchange = (line: LogLine, question: string): LineOwner => {
    const f = line.fields;
    const q = parseQuestion(question);
    if (!q) return null;
    let row = openByQuestion(q);
    if (!row && line.message === 'exchange failed') {
      // Not verbose: the failure is the only trace of the query; dnsproxy answers it SERVFAIL.
      row = newRow(line.time, q);
      row.rcode = 'SERVFAIL';
      row.latencyMs = f.duration ? goDurationMs(f.duration) : null;
    }
    if (!row) return null;
    if (f.upstream && row.upstream === null) ctx.routeFor(row, f.upstream);
    if (line.message === 'exchange failed' && f.err) row.error = shortError(f.err);
    return row;
  };

  return {
    line(line: LogLine): LineOwner {
      const f = line.fields;
      const msg = line.message;
      if (msg === 'upstream is reserved' && f.addr) {
        ctx.book.reserved.add(f.addr);
        return null;
      }
      if ((msg === 'handling new packet' || msg === 'handling new request') && f.raddr) {
        const c: ClientRecord = { client: f.raddr, protocol: f.proto ?? (msg === 'handling new packet' ? 'udp' : 'tcp'), time: line.time, row: null };
        if (c.protocol === 'tcp') tcpOpen++;
        clients.push(c);
        if (clients.length > OPEN_MAX) clients.shift();
        return c;
      }
      if (msg === 'unpacking' && f.raddr) {
        // A malformed packet: its client record gets no request.
        const i = clients.findIndex((w) => w.client === f.raddr && w.protocol === 'udp');
        if (i >= 0) clients.splice(i, 1);
        return null;
      }
      if (f.proto === 'tcp' && (f.details === 'reading msg' || msg === 'reading msg')) {
        // A TCP connection closed (or timed out) waiting for its next message. The only one open
        // and never asked anything: a connect-only check (the app's readiness check), not a client.
        if (tcpOpen === 1) {
          const i = clients.findIndex((w) => w.protocol === 'tcp');
          if (i >= 0) clients.splice(i, 1);
        }
        tcpOpen = Math.max(0, tcpOpen - 1);
        return null;
      }
      if (msg === 'in' || msg === 'out') return digLine(line, msg);
      if (msg === 'handling request' && f.req) {
        const q = parseQuestion(f.req);
        lastRequest = q ? openByQuestion(q) : null;
        return lastRequest;
      }
      if (msg === 'replying from cache' && lastRequest) {
        lastRequest.route = 'cache';
        return lastRequest;
      }
      if (msg === 'sending request' && f.qname && f.qtype) {
        const q = { name: f.qname.toLowerCase().replace(/\.$/, ''), type: f.qtype };
        const row = (f.id !== undefined ? openById(f.id, q)[0] : undefined) ?? openByQuestion(q);
        if (row && f.addr) {
          ctx.routeFor(row, f.addr);
          if (row.protocol === null && f.proto) row.protocol = f.proto;
        }
        return row ?? null;
      }
      if ((msg === 'exchange successfully finished' || msg === 'exchange failed') && f.question) return exchange(line, f.question);
      return null;
    },
  };
}
