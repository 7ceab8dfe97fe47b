/**
 * A captured query (pairing.ts) as a row of the app's query log (shared/query-log/row.ts), so the
 * Logs panel can show packet rows beside or instead of log rows: route `cluster` when the name
 * is in a cluster zone, `upstream` when another upstream answered, `cache` when no upstream
 * exchange was seen while the client waited. Packet rows are exact: `mixed` is always false.
 */
import { isHealthProbeName } from '../../../shared/health-probe';
import { zoneOf, type QueryRow } from '../../../shared/query-log/row';
import type { CapturedQuery } from './pairing';
import { utcOffsetAt } from '../../../shared/query-log/utc-offset';
import { isStartCheck, runOf, type StartChecks } from './start-checks';

/** Local ISO-8601 time with µs (`2026-12-01T19:16:27.123456`), as the engines' log lines give it. */
export function localIso(us: number): string {
  const d = new Date(Math.floor(us / 1000));
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(us % 1_000_000, 6)}`;
}

/**
 * The route of an answer with no upstream exchange while its client waited: REFUSED or SERVFAIL
 * is the proxy's own answer (dnsmasq refuses a name it has no server for; neither engine caches a
 * SERVFAIL: dnsproxy caches NOERROR/NXDOMAIN only, dnsmasq no SERVFAIL), anything else a cache hit.
 */
function ownAnswer(rcode: string): QueryRow['route'] {
  return rcode === 'REFUSED' || rcode === 'SERVFAIL' ? 'proxy' : 'cache';
}

/**
 * The query log row for `c` (engine: the proxy that answered; key: unique within the caller's
 * list). With `checks` (start-checks.ts, the last start's record): a query of one of its names
 * inside its window is start's check, a probe row with `startCheck`; `runStartedMs` is when the
 * kept start whose run the row was asked in began, `runRolledBack` when that start failed and
 * was rolled back (runOf).
 */
export function capturedQueryRow(given: CapturedQuery, engine: QueryRow['engine'], key: string, clusterZones: readonly string[], run = 0, checks?: StartChecks | null): QueryRow {
  // The log's guard (pipeline.ts parserLine) lets a line leave rcode, upstream and latencyMs out
  // (a hand-edited or foreign row): absent is null here, as QueryRow's readers expect (formatExactRow
  // called toFixed on an absent latency and `k2s-dns queries` failed on that one row).
  const c = { ...given, rcode: given.rcode ?? null, upstream: given.upstream ?? null, latencyMs: given.latencyMs ?? null };
  const name = c.name.toLowerCase();
  // The health probe's own spelling (shared/health-probe.ts) is the probe's, also inside start's
  // window (the window's status poll asking while start verifies): verify asks in lower case.
  const healthProbe = isHealthProbeName(c.name);
  const startCheck = !healthProbe && isStartCheck(checks, c.name, c.queryUs);
  const zone = c.upstream === null ? null : zoneOf(name, clusterZones);
  const ran = runOf(checks, c.queryUs);
  return {
    key,
    engine,
    time: localIso(c.queryUs),
    utcOffset: utcOffsetAt(Math.floor(c.queryUs / 1000)),
    client: c.client,
    name,
    // The packet's spelling for the listings; `name` stays lower case for zones, search and grouping.
    ...(c.name !== name ? { asked: c.name } : {}),
    type: c.type,
    route: c.rcode === null ? null : c.upstream === null ? ownAnswer(c.rcode) : zone !== null ? 'cluster' : 'upstream',
    zone,
    upstream: c.upstream,
    answers: c.answers,
    rcode: c.rcode,
    error: null,
    latencyMs: c.latencyMs,
    protocol: c.proto,
    run,
    probe: startCheck || healthProbe,
    ...(startCheck ? { startCheck: true as const } : {}),
    ...(ran === undefined ? {} : { runStartedMs: ran.startedMs, ...(ran.rolledBack ? { runRolledBack: true as const } : {}) }),
    mixed: false,
    // The search list recorded with the row (a hand-edited line may hold anything: strings only).
    ...(Array.isArray(c.search) && c.search.every((d) => typeof d === 'string') ? { search: c.search } : {}),
  };
}
