/**
 * The query log: one row per DNS query, built from the proxy's parsed log lines (anchors: AdGuard
 * Home's and Pi-hole's query logs). Formats as printed by the real engines (fixtures/logs/):
 *
 * AdGuard dnsproxy v0.83.1 with `-v` logs each query as a sequence of DEBUG records: `handling new
 * packet raddr=<client> proto=udp` (TCP: `handling new request proto=tcp raddr=…`), the request
 * as dig-style text, one record per text line (`in line_num=N line="…"`, proxy/server.go
 * logDNSMessage), `handling request req=";name.\tIN\t A"`, then `sending request addr=<upstream>
 * … id=<DNS id>` + `exchange successfully finished upstream=… question=… duration=…` or
 * `replying from cache`, and the response as `out line_num=N line="…"`. Records carry no query
 * id except the DNS id inside the message text and `sending request`, so `in`, `sending request`
 * and `out` are paired by DNS id + question (name and type), and the id-less records go to the
 * query whose question they name, or to the query whose `handling request` came last.
 * The client record carries no id either: one goroutine writes `handling new packet` and, µs
 * later, the request's `in` records, so a request takes the oldest client record of the last
 * CLIENT_PAIR_MS still unclaimed. Client records that never get a request are dropped: the
 * app's readiness check (a TCP connect, no query) logs `handling new request proto=tcp` and
 * `connection is closed proto=tcp details="reading msg"`; a malformed packet logs `unpacking
 * raddr=…`; anything else ages out of the window (exact for queries handled one after another;
 * concurrent queries may interleave and then only the id-matched fields are certain). Without
 * `-v` only failures are logged (`ERROR exchange failed upstream=… question=… err=…`): each
 * becomes a row.
 *
 * dnsmasq 2.90 with `log-queries=extra` prefixes every line with the query's serial number and
 * the client address/port: `<serial> <addr>/<port> query[A] name from addr`, `forwarded name to
 * ip#port`, `reply name is answer` (one line per answer record), `cached …`, `config …`,
 * `reply error is SERVFAIL`. Rows are keyed by pid + serial (TCP queries are answered by forked
 * children with their own serials). Plain `log-queries` (no serial) is paired by name instead.
 * dnsmasq times have whole seconds only, so its rows have no latency; a forwarded query that
 * never got a reply line (upstream timeout) has rcode null.
 */
import { isRunStart, lineEngine } from './log-line';
import type { LogLine } from './types';
import { isHealthProbeName } from './health-probe';

/** How a query was answered. */
export type QueryRoute = 'cluster' | 'upstream' | 'cache' | 'local';

/** One query in the query log. */
export interface QueryRow {
  /** Stable key within one buildQueryLog result. */
  key: string;
  engine: 'adguard' | 'dnsmasq';
  /** ISO-8601 local time of the query (as the engine logged it), null when the line had none. */
  time: string | null;
  /** Client address (`127.0.0.1:53534` or `127.0.0.1`), null when not logged. */
  client: string | null;
  /** Queried name without the trailing dot (`kubernetes.default.svc.cluster.local`). */
  name: string;
  /** Record type (`A`, `PTR`, …). */
  type: string;
  /** cluster (a cluster zone → kube-dns), upstream (the default nameservers), cache, local (dnsmasq's own config). */
  route: QueryRoute | null;
  /** The cluster zone the name fell in, when route is cluster and the zone is known. */
  zone: string | null;
  /** Upstream the query was sent to (`172.21.0.10:53`), null for cache/local or when not logged. */
  upstream: string | null;
  /** Answer records as text (`172.21.0.1`, `kube-dns.kube-system.svc.cluster.local.`). */
  answers: string[];
  /** rcode (`NOERROR`, `NXDOMAIN`, `SERVFAIL`, `REFUSED`…), null while no reply was logged. */
  rcode: string | null;
  /** Upstream error text (`i/o timeout`, `connection refused`), null when none. */
  error: string | null;
  /** Query to response in ms (from the engine's µs timestamps), null when not measurable. */
  latencyMs: number | null;
  /** `udp` or `tcp` when logged. */
  protocol: string | null;
  /** Index of the proxy run (0 = first run in the lines given). */
  run: number;
  /** True for k2s-dns's own health probe (the name asked as `KUBERNETES.DEFAULT.svc.…`: shared/health-probe.ts). */
  probe: boolean;
  /**
   * True when dnsproxy logged this query's records interleaved with a concurrent query's so
   * that they could be told apart only by guessing (two messages open at the same line,
   * different clients' packets arriving within CLIENT_PAIR_MS of each other, or the same DNS id
   * and question in flight twice): its client, answers or rcode may belong to the other query.
   * dnsproxy v0.83.1 puts no request id on its client record. Always false for dnsmasq (serials).
   */
  mixed: boolean;
}

/** Options of buildQueryLog. */
export interface QueryLogOptions {
  /** Cluster zones (`cluster.local`, `21.172.in-addr.arpa`): a name inside one is routed `cluster`. */
  clusterZones?: readonly string[];
  /** When given, filled with one entry per input line: the row that line belongs to, null for lines of no query (startup, config). */
  lineRows?: (QueryRow | null)[];
}

/** What a line was attributed to while parsing; resolved to a row once the whole log is read. */
type LineOwner = QueryRow | { row: QueryRow | null } | null;

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
  /** `in`: the client record taken at its first line; `out`: rcode from its header line. */
  client: ClientRecord | null;
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

/** `;name.\tIN\t A` (miekg/dns Question.String()) → name and type. */
function parseQuestion(text: string): { name: string; type: string; asked: string } | null {
  const m = /^;?(\S+?)\.?\s+IN\s+(\S+)\s*$/.exec(text);
  return m ? { name: m[1]!.toLowerCase(), type: m[2]!.toUpperCase(), asked: m[1]! } : null;
}

/** ms into the day of `YYYY-MM-DDTHH:MM:SS(.ffffff)` read by position (no regex: the log parse's hot path), NaN otherwise. */
function msOfDay(t: string): number {
  if (t.length < 19 || t[10] !== 'T') return NaN;
  const n = (i: number) => t.charCodeAt(i) - 48;
  const frac = t.length > 20 && t[19] === '.' ? Number(`0${t.slice(19)}`) : 0;
  return ((n(11) * 10 + n(12)) * 3600 + (n(14) * 10 + n(15)) * 60 + n(17) * 10 + n(18) + frac) * 1000;
}

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

/** ms since an arbitrary epoch for `YYYY-MM-DDTHH:MM:SS(.ffffff)`, null for other shapes. */
function timeMs(time: string | null): number | null {
  const m = time ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?$/.exec(time) : null;
  if (!m) return null;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) + (m[7] ? Number(m[7]) * 1000 : 0);
}

/** Go time.Duration text (`4.00148s`, `234.63µs`, `1.2ms`, `1m0.5s`) → ms, null when unreadable. */
export function goDurationMs(text: string): number | null {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, 'µs': 0.001, 'us': 0.001, ns: 0.000001 };
  let total = 0;
  let rest = text;
  while (rest !== '') {
    const m = /^(\d+(?:\.\d+)?)(h|ms|m|s|µs|us|ns)/.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return text === '' ? null : Math.round(total * 1000) / 1000;
}

/** Short form of a Go network error: the text after the last `: ` (`i/o timeout`, `connection refused`). */
export function shortError(err: string): string {
  const parts = err.split(': ');
  return parts[parts.length - 1]!.replace(/^read: /, '');
}

/** The most specific zone of `zones` containing `name`, or null. */
function zoneOf(name: string, zones: readonly string[]): string | null {
  let best: string | null = null;
  for (const z of zones) {
    const zone = z.replace(/\.$/, '').toLowerCase();
    if ((name === zone || name.endsWith(`.${zone}`)) && (best === null || zone.length > best.length)) best = zone;
  }
  return best;
}

/** `172.21.0.10` → `10.0.21.172.in-addr.arpa` (dnsmasq logs PTR replies by address); other names unchanged. */
function arpaOf(name: string): string {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) ? `${name.split('.').reverse().join('.')}.in-addr.arpa` : name;
}

/** dnsmasq `ip#port` → `ip:port` (`[v6]:port` for IPv6); plain `ip` stays. */
function upstreamText(dnsmasq: string): string {
  const m = /^(.*)#(\d+)$/.exec(dnsmasq);
  if (!m) return dnsmasq;
  return m[1]!.includes(':') ? `[${m[1]}]:${m[2]}` : `${m[1]}:${m[2]}`;
}

/**
 * Builds the query log from parsed lines of one log (either engine, runs in order). Rows come in
 * the order their queries appear; a row is complete once its reply was logged (rcode set).
 */
export function buildQueryLog(lines: readonly LogLine[], opts: QueryLogOptions = {}): QueryRow[] {
  const rows: QueryRow[] = [];
  let run = -1;
  let seq = 0;
  const cluster = opts.clusterZones ?? [];
  // Per run: upstreams dnsproxy reserved for domains / dnsmasq zone servers (zone known).
  let reserved = new Set<string>();
  let zoneServers: { zone: string; upstream: string }[] = [];
  // dnsproxy state.
  // Client records not yet taken by a request, oldest first; TCP connections open (no close logged).
  let clients: ClientRecord[] = [];
  let tcpOpen = 0;
  const owners: LineOwner[] = [];
  let openIn: DigMessage[] = [];
  let openOut: DigMessage[] = [];
  let lastRequest: QueryRow | null = null;
  // dnsmasq state: rows by pid/serial, and (plain log-queries) by name.
  let bySerial = new Map<string, QueryRow>();
  let lastByName = new Map<string, QueryRow>();
  let lastForwarded: QueryRow | null = null;
  let mainPid: string | null = null;
  const dnsIds = new WeakMap<QueryRow, string>();

  /** `asked`: the name with the case the client used (the health probes' marker). */
  const newRow = (engine: QueryRow['engine'], time: string | null, name: string, type: string, asked: string = name): QueryRow => {
    const row: QueryRow = { key: `q${seq++}`, engine, time, client: null, name, type, route: null, zone: null, upstream: null, answers: [], rcode: null, error: null, latencyMs: null, protocol: null, run: Math.max(run, 0), probe: isHealthProbeName(asked), mixed: false };
    rows.push(row);
    return row;
  };
  /** Route for an upstream: cluster when the name is in a cluster zone (or, without zones, a reserved upstream). */
  const routeFor = (row: QueryRow, upstream: string): void => {
    row.upstream = upstream;
    const zone = zoneOf(row.name, cluster.length > 0 ? cluster : zoneServers.filter((z) => z.upstream === upstream).map((z) => z.zone));
    if (zone !== null) {
      row.route = 'cluster';
      row.zone = zone;
    } else {
      row.route = cluster.length === 0 && reserved.has(upstream) ? 'cluster' : 'upstream';
    }
  };
  /** Latest open (rcode null) dnsproxy row for the question, searching backwards. */
  const openByQuestion = (q: { name: string; type: string }): QueryRow | null => {
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 200; i--) {
      const r = rows[i]!;
      if (r.engine === 'adguard' && r.rcode === null && r.name === q.name && r.type === q.type) return r;
    }
    return null;
  };
  /** Open (rcode null) dnsproxy rows with DNS id `id` and the question, oldest first. */
  const openById = (id: string, q: { name: string; type: string }): QueryRow[] => {
    const found: QueryRow[] = [];
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 200; i--) {
      const r = rows[i]!;
      if (r.engine === 'adguard' && r.rcode === null && dnsIds.get(r) === id && r.name === q.name && r.type === q.type) found.unshift(r);
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

  /** One `in`/`out` record: extends the message it continues, or starts one at line_num=1. */
  const digLine = (line: LogLine, dir: 'in' | 'out'): DigMessage | null => {
    const num = Number(line.fields.line_num);
    const text = line.fields.line ?? '';
    const open = dir === 'in' ? openIn : openOut;
    let msg: DigMessage | undefined;
    if (num === 1) {
      msg = { row: null, lines: [], section: '', time: line.time, id: null, client: dir === 'in' ? takeClient(line.time) : null, rcode: null, mixed: false, lastTime: line.time };
      open.push(msg);
      if (open.length > 64) open.shift();
    } else {
      const all = open.filter((m) => m.lines.length === num - 1);
      // Times are parsed only when two messages could take this record (the hot path has one).
      const candidates = all.length > 1 ? all.filter((m) => withinInterleave(m.lastTime, line.time)) : all;
      // The latest live one; a record after a long pause (preempted writer) still finds its message.
      msg = candidates[candidates.length - 1] ?? all[all.length - 1];
      // Two messages at the same line: this one may continue either (concurrent queries).
      if (candidates.length > 1) {
        for (const m of candidates) {
          m.mixed = true;
          if (m.row) m.row.mixed = true;
        }
      }
    }
    if (!msg) return null;
    msg.lines.push(text);
    msg.lastTime = line.time;
    const head = /status: (\w+), id: (\d+)/.exec(text);
    if (head) {
      // The reply is matched at its question line (DNS id + question: dnsproxy keeps the client's id).
      msg.id = head[2]!;
      if (dir === 'out') msg.rcode = head[1]!;
      return msg;
    }
    if (/^;; [A-Z ]+SECTION:$/.test(text)) {
      msg.section = text;
      return msg;
    }
    if (text === '' || text.startsWith(';; ')) return msg;
    if (dir === 'in' && msg.section === ';; QUESTION SECTION:' && msg.row === null) {
      const q = parseQuestion(text);
      if (!q) return msg;
      const row = newRow('adguard', msg.time, q.name, q.type, q.asked);
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
    } else if (dir === 'out' && msg.section === ';; QUESTION SECTION:' && msg.row === null && msg.rcode !== null) {
      const q = parseQuestion(text);
      const found = q && msg.id !== null ? openById(msg.id, q) : [];
      const row = found[0];
      if (!row) return msg;
      msg.row = row;
      row.rcode = msg.rcode;
      // Same id and question in flight twice: which reply is whose is a guess (for each of them).
      if (msg.mixed) row.mixed = true;
      if (found.length > 1) for (const r of found) r.mixed = true;
      const a = timeMs(row.time);
      const b = timeMs(msg.time);
      if (a !== null && b !== null) row.latencyMs = Math.round((b - a) * 1000) / 1000;
    } else if (dir === 'out' && msg.section === ';; ANSWER SECTION:' && msg.row) {
      // `name.\tTTL\tIN\tTYPE\tRDATA`: keep RDATA.
      const parts = text.split('\t');
      msg.row.answers.push(parts.slice(4).join(' ') || text);
    }
    return msg;
  };

  let previous: LogLine | null = null;
  // Line owners are kept only when the caller asked for them (lineRows): the Logs panel's parse
  // of every push does not need them.
  const track = opts.lineRows !== undefined;
  /** Attributes the current line to `o`. */
  const own = (o: LineOwner | undefined): void => {
    if (track) owners[owners.length - 1] = o ?? null;
  };
  for (const line of lines) {
    if (track) owners.push(null);
    if (isRunStart(line, previous)) {
      run++;
      reserved = new Set();
      zoneServers = [];
      clients = [];
      tcpOpen = 0;
      openIn = [];
      openOut = [];
      lastRequest = null;
      bySerial = new Map();
      lastByName = new Map();
      lastForwarded = null;
      mainPid = null;
    }
    previous = line;
    const f = line.fields;
    if (lineEngine(line) === 'dnsmasq') {
      const ev = f.event;
      if (ev === 'started') mainPid = f.pid ?? null;
      if (ev === 'nameserver' && f.domain) zoneServers.push({ zone: f.domain.toLowerCase(), upstream: upstreamText(f.upstream!) });
      if (ev === 'query') {
        const row = newRow('dnsmasq', line.time, f.name!.toLowerCase().replace(/\.$/, ''), f.type!, f.name!);
        row.client = f.clientAddr ? `${f.clientAddr}:${f.clientPort}` : (f.client ?? null);
        if (f.serial) bySerial.set(`${f.pid}/${f.serial}`, row);
        // dnsmasq answers TCP in forked children (another pid than the one that logged `started`).
        if (mainPid !== null) row.protocol = f.pid === mainPid ? 'udp' : 'tcp';
        lastByName.set(row.name, row);
        own(row);
        continue;
      }
      // Plain log-queries: by name (a PTR reply names the address: `reply 172.21.0.10 is …`).
      const row: QueryRow | null | undefined = f.serial ? bySerial.get(`${f.pid}/${f.serial}`) : !f.name ? lastForwarded : lastByName.get(arpaOf(f.name.toLowerCase()));
      if (!row) continue;
      own(row);
      if (ev === 'forwarded') {
        routeFor(row, upstreamText(f.upstream!));
        lastForwarded = row;
      } else if (ev === 'reply' || ev === 'cached' || ev === 'cached-stale' || ev === 'config') {
        if (ev === 'cached' || ev === 'cached-stale') row.route = 'cache';
        if (ev === 'config') row.route = 'local';
        const answer = f.answer ?? '';
        if (f.rcode || /^(NXDOMAIN|SERVFAIL|REFUSED|NOTIMP|FORMERR)$/.test(answer)) row.rcode = f.rcode ?? answer;
        else {
          row.rcode = 'NOERROR';
          if (!/^NODATA/.test(answer)) row.answers.push(answer);
        }
      }
      continue;
    }
    // dnsproxy
    const msg = line.message;
    if (msg === 'upstream is reserved' && f.addr) reserved.add(f.addr);
    else if ((msg === 'handling new packet' || msg === 'handling new request') && f.raddr) {
      const c: ClientRecord = { client: f.raddr, protocol: f.proto ?? (msg === 'handling new packet' ? 'udp' : 'tcp'), time: line.time, row: null };
      if (c.protocol === 'tcp') tcpOpen++;
      clients.push(c);
      if (clients.length > 64) clients.shift();
      own(c);
    } else if (msg === 'unpacking' && f.raddr) {
      // A malformed packet: its client record gets no request.
      const i = clients.findIndex((w) => w.client === f.raddr && w.protocol === 'udp');
      if (i >= 0) clients.splice(i, 1);
    } else if (f.proto === 'tcp' && (f.details === 'reading msg' || msg === 'reading msg')) {
      // A TCP connection closed (or timed out) waiting for its next message. The only one open
      // and never asked anything: a connect-only check (the app's readiness check), not a client.
      if (tcpOpen === 1) {
        const i = clients.findIndex((w) => w.protocol === 'tcp');
        if (i >= 0) clients.splice(i, 1);
      }
      tcpOpen = Math.max(0, tcpOpen - 1);
    } else if (msg === 'in' || msg === 'out') own(digLine(line, msg)); else if (msg === 'handling request' && f.req) {
      const q = parseQuestion(f.req);
      lastRequest = q ? openByQuestion(q) : null;
      own(lastRequest);
    } else if (msg === 'replying from cache' && lastRequest) {
      lastRequest.route = 'cache';
      own(lastRequest);
    } else if (msg === 'sending request' && f.qname && f.qtype) {
      const q = { name: f.qname.toLowerCase().replace(/\.$/, ''), type: f.qtype };
      const row = (f.id !== undefined ? openById(f.id, q)[0] : undefined) ?? openByQuestion(q);
      own(row);
      if (row && f.addr) {
        routeFor(row, f.addr);
        if (row.protocol === null && f.proto) row.protocol = f.proto;
      }
    } else if ((msg === 'exchange successfully finished' || msg === 'exchange failed') && f.question) {
      const q = parseQuestion(f.question);
      if (!q) continue;
      let row = openByQuestion(q);
      if (!row && msg === 'exchange failed') {
        // Not verbose: the failure is the only trace of the query; dnsproxy answers it SERVFAIL.
        row = newRow('adguard', line.time, q.name, q.type, q.asked);
        row.rcode = 'SERVFAIL';
        row.latencyMs = f.duration ? goDurationMs(f.duration) : null;
      }
      if (!row) continue;
      own(row);
      if (f.upstream && row.upstream === null) routeFor(row, f.upstream);
      if (msg === 'exchange failed' && f.err) row.error = shortError(f.err);
    }
  }
  if (opts.lineRows) {
    opts.lineRows.length = 0;
    for (const o of owners) opts.lineRows.push(o === null ? null : 'key' in o ? o : o.row);
  }
  return rows;
}

/** Filter of the query view; empty/undefined fields match everything. */
export interface QueryFilter {
  /** Case-insensitive substring of the name, client, upstream or an answer. */
  text?: string;
  /** rcodes to show (`NOERROR`, `NXDOMAIN`, …; `none` for no reply yet). */
  rcodes?: readonly string[];
  /** Routes to show. */
  routes?: readonly QueryRoute[];
}

/** Rows matching `filter`. */
export function filterQueries(rows: readonly QueryRow[], filter: QueryFilter): QueryRow[] {
  const needle = (filter.text ?? '').trim().toLowerCase();
  return rows.filter((r) => {
    if (filter.rcodes && filter.rcodes.length > 0 && !filter.rcodes.includes(r.rcode ?? 'none')) return false;
    if (filter.routes && filter.routes.length > 0 && (r.route === null || !filter.routes.includes(r.route))) return false;
    if (needle === '') return true;
    return [r.name, r.client ?? '', r.upstream ?? '', ...r.answers].some((v) => v.toLowerCase().includes(needle));
  });
}

/** True for rows a reader must notice: NXDOMAIN, SERVFAIL, REFUSED, or an upstream error. */
export function isProblem(row: QueryRow): boolean {
  return row.rcode === 'NXDOMAIN' || row.rcode === 'SERVFAIL' || row.rcode === 'REFUSED' || row.error !== null;
}
