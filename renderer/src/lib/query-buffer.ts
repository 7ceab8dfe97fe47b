/**
 * The Logs store's line buffer with its query log beside it: appended lines are parsed once
 * (QueryLogBuilder, shared/query-log.ts), the buffer is capped with log-trim's rule from the
 * owners already known, and a whole rebuild happens only when the buffer is replaced, grows at
 * the top (older pages) or the cluster zones change.
 */
import { QueryLogBuilder, type QueryRow } from '../../../shared/query-log';
import type { LogLine } from '../../../shared/types';
import { trimMask } from './log-trim';

/** A buffer's lines and its query log: `owners[i]` is the row `lines[i]` belongs to. */
export interface QueryBufferView {
  lines: LogLine[];
  /** Rows of the lines held, in query order. */
  queries: QueryRow[];
  /** For each line, the row it belongs to (lineOwners' rule: lines between two of one row are that row's). */
  owners: (QueryRow | null)[];
}

/** What the buffer did to its oldest lines while capping. */
export interface QueryBufferCut {
  /** True when the cap dropped a line that is no health probe's: the log's older part is no longer all held. */
  cutHistory: boolean;
}

/** An empty view (no lines). */
export const EMPTY_VIEW: QueryBufferView = { lines: [], queries: [], owners: [] };

/** The one-shot view of `lines` (a search result). */
export function queryView(lines: LogLine[], clusterZones: readonly string[]): QueryBufferView {
  const log = new QueryLogBuilder({ clusterZones });
  log.push(lines);
  return { lines, queries: log.rows(), owners: log.owners() };
}

/** A line buffer whose query log grows with it. */
export class QueryBuffer {
  private lines: LogLine[] = [];
  private log: QueryLogBuilder;
  private cut = false;

  constructor(private zones: readonly string[] = []) {
    this.log = new QueryLogBuilder({ clusterZones: zones });
  }

  /** Replaces the lines (a tail, an older page on top, a reset), capped to `max`. */
  replace(lines: LogLine[], max: number): QueryBufferView {
    this.lines = [];
    this.cut = false;
    this.log = new QueryLogBuilder({ clusterZones: this.zones });
    return this.append(lines, max);
  }

  /** Adds `lines` after the ones held, then caps the buffer to `max` lines (log-trim's rule). */
  append(lines: readonly LogLine[], max: number): QueryBufferView {
    this.log.push(lines);
    this.lines = lines.length === 0 ? this.lines : [...this.lines, ...lines];
    const owners = this.log.owners();
    const keep = trimMask(owners, max);
    if (keep) {
      // Probe lines have their own budget and are hidden by default; any other line dropped
      // means the buffer no longer starts where the log (or the last page read) starts.
      if (keep.some((k, i) => !k && owners[i]?.probe !== true)) this.cut = true;
      this.log.retain(keep);
      this.lines = this.lines.filter((_, i) => keep[i]);
    }
    return this.view();
  }

  /** Sets the cluster zones the routes are judged by; rebuilds when they changed. Returns the view. */
  setZones(zones: readonly string[]): QueryBufferView {
    if (zones.length === this.zones.length && zones.every((z, i) => z === this.zones[i])) return this.view();
    this.zones = [...zones];
    const { lines, cut } = this;
    const view = this.replace(lines, Number.POSITIVE_INFINITY);
    // The same lines parsed again: what was cut before is still cut.
    this.cut = cut;
    return view;
  }

  /** Whether a cap dropped other than health probe lines since the last replace (QueryBufferCut). */
  cutSinceReplace(): QueryBufferCut {
    return { cutHistory: this.cut };
  }

  /** The lines and their query log now. */
  view(): QueryBufferView {
    return { lines: this.lines, queries: this.log.rows(), owners: this.log.owners() };
  }
}
