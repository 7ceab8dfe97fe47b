/**
 * The query log's row type and what both engines' assemblers share: the row factory, the route
 * of a row from its upstream, and the per-run book of which upstream serves which zone.
 */
import type { EngineName } from '../engines/table';
import { isHealthProbeName } from '../health-probe';

/** How a query was answered. */
export type QueryRoute = 'cluster' | 'upstream' | 'cache' | 'local' | 'proxy';

/** One query in the query log. */
export interface QueryRow {
  /** Stable key within one query log (buildQueryLog result or QueryLogBuilder). */
  key: string;
  engine: EngineName;
  /** ISO-8601 local time of the query (as the engine logged it), null when the line had none. */
  time: string | null;
  /**
   * The UTC offset of the process's time zone at the row's instant (`+01:00`,
   * shared/query-log/utc-offset.ts), set where that instant is known (exact rows: the packet's
   * time). `time` alone cannot say it in the hour a clock turned back repeats; absent on
   * engine-log rows, whose lines give local times only.
   */
  utcOffset?: string;
  /** Client address (`127.0.0.1:53534` or `127.0.0.1`), null when not logged. */
  client: string | null;
  /** Queried name without the trailing dot, in lower case (`kubernetes.default.svc.cluster.local`): what zones, search and grouping compare. */
  name: string;
  /**
   * The name as the client's packet spelled it, when its capitals differ from `name`
   * (`KUBERNETES.DEFAULT.svc.cluster.local`, the health check's: shared/health-probe.ts): what the
   * listings show. Set on exact-log rows (the packet's question) and on the engines' log rows
   * (emptyRow: AdGuard dnsproxy v0.83.1 and dnsmasq 2.90 both log the name as the packet spelled
   * it, fixtures/logs/health-probe); absent otherwise.
   */
  asked?: string;
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
  /**
   * True for a query k2s-dns asked itself: its health probe (the name asked as
   * `KUBERNETES.DEFAULT.svc.…`: shared/health-probe.ts) or start's verify (`startCheck`).
   */
  probe: boolean;
  /**
   * Set on an exact-log probe row that the last `k2s-dns start`'s verify asked: one of the names
   * it recorded, asked inside its window (electron/core/capture/start-checks.ts).
   */
  startCheck?: true;
  /**
   * Exact-log rows: when the K2s DNS run this row was asked in began (ms since the epoch, the
   * start's own time recorded in start-checks.json, electron/core/capture/start-checks.ts
   * runOf); absent when no kept start began before it. A row whose value differs from the
   * row before it is the first of a run: `k2s-dns queries` and the Queries view mark it (runBoundary).
   */
  runStartedMs?: number;
  /**
   * Set with `runStartedMs` when that start failed after its verify asked and rolled every change
   * back (start-checks.json `rolledBack`): the run's rows are that failed start's, its boundary
   * line says so (run-boundary.ts).
   */
  runRolledBack?: true;
  /**
   * True when dnsproxy logged this query's records interleaved with a concurrent query's so
   * that they could be told apart only by guessing (two messages open at the same line,
   * different clients' packets arriving within CLIENT_PAIR_MS of each other, or the same DNS id
   * and question in flight twice): its client, answers or rcode may belong to the other query.
   * dnsproxy v0.83.1 puts no request id on its client record. Always false for dnsmasq (serials).
   */
  mixed: boolean;
  /**
   * The search domains of /etc/resolv.conf (the file host apps read) when the query was asked,
   * as the exact query log recorded them with the row; absent when not recorded (the engine's own
   * log, older exact rows). What marks a row as a search-list expansion (renderer lib/search-expansion.ts).
   */
  search?: string[];
}

/**
 * What one log line was attributed to: a row, something that gets its row later (a dnsproxy
 * client record or message, `{ row }`), or nothing (startup, config lines).
 */
export type LineOwner = QueryRow | { row: QueryRow | null } | null;

/** The row a line owner stands for now. */
export function ownerRow(o: LineOwner): QueryRow | null {
  return o === null ? null : 'key' in o ? o : o.row;
}

/**
 * What one proxy run's own lines say about its upstreams: dnsproxy's `upstream is reserved`
 * (an upstream for domains) and dnsmasq's `using nameserver X for domain Z`.
 */
export interface RouteBook {
  reserved: Set<string>;
  zoneServers: { zone: string; upstream: string }[];
}

/** What an engine's assembler gets from the query log it feeds. */
export interface AssemblerContext {
  /** Creates a row (pushed to the log) at `time`; `asked`: the name with the client's case (the health probes' marker). */
  newRow(engine: QueryRow['engine'], time: string | null, name: string, type: string, asked?: string): QueryRow;
  /** Sets the row's upstream and route (cluster when the name is in a cluster zone, or, without zones, the upstream is one for domains). */
  routeFor(row: QueryRow, upstream: string): void;
  /** The current run's upstream facts. */
  book: RouteBook;
}

/** One engine's state machine over its log lines, for one proxy run. */
export interface EngineAssembler {
  /** Takes one line of this engine; returns what the line belongs to. */
  line(line: import('../types').LogLine): LineOwner;
}

/** The most specific zone of `zones` containing `name`, or null. */
export function zoneOf(name: string, zones: readonly string[]): string | null {
  let best: string | null = null;
  for (const z of zones) {
    const zone = z.replace(/\.$/, '').toLowerCase();
    if ((name === zone || name.endsWith(`.${zone}`)) && (best === null || zone.length > best.length)) best = zone;
  }
  return best;
}

/** A fresh row (no answer yet) of run `run`. */
export function emptyRow(key: string, engine: QueryRow['engine'], time: string | null, name: string, type: string, asked: string, run: number): QueryRow {
  // The packet's spelling (as the engine logged it) when only its capitals differ from `name`, as on exact-log rows.
  const spelled = asked.endsWith('.') ? asked.slice(0, -1) : asked;
  return { key, engine, time, client: null, name, ...(spelled !== name && spelled.toLowerCase() === name ? { asked: spelled } : {}), type, route: null, zone: null, upstream: null, answers: [], rcode: null, error: null, latencyMs: null, protocol: null, run, probe: isHealthProbeName(asked), mixed: false };
}

/** Route for an upstream: cluster when the name is in a cluster zone (or, without zones, a reserved upstream). */
export function routeRow(row: QueryRow, upstream: string, clusterZones: readonly string[], book: RouteBook): void {
  row.upstream = upstream;
  const zone = zoneOf(row.name, clusterZones.length > 0 ? clusterZones : book.zoneServers.filter((z) => z.upstream === upstream).map((z) => z.zone));
  if (zone !== null) {
    row.route = 'cluster';
    row.zone = zone;
  } else {
    row.route = clusterZones.length === 0 && book.reserved.has(upstream) ? 'cluster' : 'upstream';
  }
}
