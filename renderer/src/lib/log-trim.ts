/**
 * Caps the Logs panel's line buffer without letting k2s-dns's own health probes push out the
 * user's queries (new-user report: 7 user queries became "2 queries" a minute later while the 1 s
 * status poll's probes filled the 5,000-line buffer). Probe lines (the lines buildQueryLog
 * attributes to a row marked `probe`, shared/health-probe.ts) get their own budget; past it, the
 * oldest probe queries are dropped whole (all their lines), then the oldest lines of any kind.
 */
import type { LogLine } from '../../../shared/types';
import { buildQueryLog, type QueryRow } from '../../../shared/query-log';

/** Lines of health probes kept at most (the newest, whole queries). */
export const MAX_PROBE_LINES = 1000;

/**
 * For each line, the query row it belongs to (null: no query's). Lines of no row between two
 * lines of the same row (dnsproxy's `dialing`, `response received`, `resolved` …) belong to
 * that query.
 */
export function lineOwners(lines: readonly LogLine[]): (QueryRow | null)[] {
  const owners: (QueryRow | null)[] = [];
  buildQueryLog(lines, { lineRows: owners });
  let prev: QueryRow | null = null;
  let gapFrom = -1;
  for (let i = 0; i < owners.length; i++) {
    const o = owners[i]!;
    if (o === null) {
      if (gapFrom < 0) gapFrom = i;
      continue;
    }
    if (gapFrom >= 0 && o === prev) owners.fill(o, gapFrom, i);
    gapFrom = -1;
    prev = o;
  }
  return owners;
}

/** For each line: true when it belongs to one of k2s-dns's own health probes (QueryRow.probe). */
export function probeLineMask(lines: readonly LogLine[]): boolean[] {
  return lineOwners(lines).map((o) => o?.probe === true);
}

/**
 * Returns `lines` cut to at most `max` lines of which at most `maxProbe` belong to health
 * probes. Lines stay in order; returns `lines` itself when nothing needs cutting.
 */
export function trimLogLines(lines: LogLine[], max: number, maxProbe = MAX_PROBE_LINES): LogLine[] {
  if (lines.length <= max) return lines;
  const owners = lineOwners(lines);
  const probeLines = new Map<QueryRow, number>();
  for (const r of owners) if (r?.probe) probeLines.set(r, (probeLines.get(r) ?? 0) + 1);
  let probeTotal = 0;
  for (const n of probeLines.values()) probeTotal += n;
  // Map iteration is insertion order: the probe queries oldest first.
  const dropped = new Set<QueryRow>();
  for (const [row, n] of probeLines) {
    if (probeTotal <= maxProbe) break;
    dropped.add(row);
    probeTotal -= n;
  }
  const kept = dropped.size === 0 ? lines : lines.filter((_, i) => !dropped.has(owners[i]!));
  return kept.length > max ? kept.slice(-max) : kept;
}
