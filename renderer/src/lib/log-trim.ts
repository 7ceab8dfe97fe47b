/**
 * Caps the Logs panel's line buffer without letting k2s-dns's own health probes push out the
 * user's queries (new-user report: 7 user queries became "2 queries" a minute later while the 1 s
 * status poll's probes filled the 5,000-line buffer). Probe lines (the lines the query log
 * attributes to a row marked `probe`, shared/health-probe.ts) get their own budget; past it, the
 * oldest probe queries are dropped whole (all their lines), then the oldest lines of any kind.
 */
import type { LogLine } from '../../../shared/types';
import { QueryLogBuilder, type QueryRow } from '../../../shared/query-log';

/** Lines of health probes kept at most (the newest, whole queries). */
export const MAX_PROBE_LINES = 1000;

/**
 * For each line, the query row it belongs to (null: no query's). Lines of no row between two
 * lines of the same row (dnsproxy's `dialing`, `response received`, `resolved` …) belong to
 * that query.
 */
export function lineOwners(lines: readonly LogLine[]): (QueryRow | null)[] {
  const log = new QueryLogBuilder();
  log.push(lines);
  return log.owners();
}

/**
 * Which lines to keep of a buffer whose lines have `owners` (lineOwners) so that at most `max`
 * lines remain, of which at most `maxProbe` belong to health probes; null when nothing needs
 * cutting.
 */
export function trimMask(owners: readonly (QueryRow | null)[], max: number, maxProbe = MAX_PROBE_LINES): boolean[] | null {
  if (owners.length <= max) return null;
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
  const keep = owners.map((o) => o === null || !dropped.has(o));
  // Then the oldest lines of any kind.
  let extra = keep.reduce((n, k) => n + (k ? 1 : 0), 0) - max;
  for (let i = 0; extra > 0 && i < keep.length; i++) {
    if (keep[i]) {
      keep[i] = false;
      extra--;
    }
  }
  return keep;
}

/**
 * Returns `lines` cut to at most `max` lines of which at most `maxProbe` belong to health
 * probes. Lines stay in order; returns `lines` itself when nothing needs cutting.
 */
export function trimLogLines(lines: LogLine[], max: number, maxProbe = MAX_PROBE_LINES): LogLine[] {
  if (lines.length <= max) return lines;
  const keep = trimMask(lineOwners(lines), max, maxProbe);
  return keep === null ? lines : lines.filter((_, i) => keep[i]);
}
