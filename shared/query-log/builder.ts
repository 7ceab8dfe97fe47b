/**
 * The query log built incrementally: lines go in batch by batch (a pushed batch of the live log)
 * and only the new lines are parsed; each line's owner row is kept beside it, so the raw view's
 * probe marks and the buffer trim read them instead of building the log again.
 */
import { isRunStart, lineEngine } from '../log-line';
import type { EngineName, LogLine } from '../types';
import { dnsmasqAssembler } from './dnsmasq';
import { dnsproxyAssembler } from './dnsproxy';
import { emptyRow, ownerRow, routeRow, type AssemblerContext, type EngineAssembler, type LineOwner, type QueryRow, type RouteBook } from './row';

/** Options of a query log. */
export interface QueryLogOptions {
  /** Cluster zones (`cluster.local`, `21.172.in-addr.arpa`): a name inside one is routed `cluster`. */
  clusterZones?: readonly string[];
}

/** Each engine's log parser: its assembler factory, keyed by the engine table's names (lineEngine's answer). */
const ASSEMBLERS: Record<EngineName, (ctx: AssemblerContext) => EngineAssembler> = {
  adguard: dnsproxyAssembler,
  dnsmasq: dnsmasqAssembler,
};

/**
 * A query log over a growing list of lines (either engine, runs in order). Rows come in the
 * order their queries appear and are completed in place by later lines (a row is complete once
 * its reply was logged: rcode set).
 */
export class QueryLogBuilder {
  private readonly zones: readonly string[];
  private rowList: QueryRow[] = [];
  private raw: LineOwner[] = [];
  private seq = 0;
  private run = -1;
  private previous: LogLine | null = null;
  /** The current run's upstream facts (emptied in place at each run start: the context holds it). */
  private readonly book: RouteBook = { reserved: new Set(), zoneServers: [] };
  private engines: Partial<Record<EngineName, EngineAssembler>> = {};
  private readonly ctx: AssemblerContext;

  constructor(opts: QueryLogOptions = {}) {
    this.zones = opts.clusterZones ?? [];
    this.ctx = {
      newRow: (engine, time, name, type, asked = name) => {
        const row = emptyRow(`q${this.seq++}`, engine, time, name, type, asked, Math.max(this.run, 0));
        this.rowList.push(row);
        return row;
      },
      routeFor: (row, upstream) => routeRow(row, upstream, this.zones, this.book),
      book: this.book,
    };
  }

  /** Parses `lines` (after the ones pushed before). */
  push(lines: readonly LogLine[]): void {
    for (const line of lines) {
      if (isRunStart(line, this.previous)) {
        // A new proxy run: its engine state starts over (ports, serials and ids are the run's own).
        this.run++;
        this.book.reserved.clear();
        this.book.zoneServers.length = 0;
        this.engines = {};
      }
      this.previous = line;
      const engine = lineEngine(line);
      const asm = (this.engines[engine] ??= ASSEMBLERS[engine](this.ctx));
      this.raw.push(asm.line(line));
    }
  }

  /** The rows so far (a new array each call; the row objects are completed in place). */
  rows(): QueryRow[] {
    return [...this.rowList];
  }

  /** For each line pushed: the row it belongs to, null for lines of no query (startup, config). */
  lineRows(): (QueryRow | null)[] {
    return this.raw.map(ownerRow);
  }

  /**
   * lineRows, with the lines of no row between two lines of the same row (dnsproxy's `dialing`,
   * `response received`, `resolved` …) given to that row.
   */
  owners(): (QueryRow | null)[] {
    const owners = this.lineRows();
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

  /**
   * Keeps the lines whose `keep[i]` is true (the buffer was trimmed) and the rows that still
   * own a kept line. The engines' state stays: a row already assembled stays whole.
   */
  retain(keep: readonly boolean[]): void {
    const owners = this.lineRows();
    const live = new Set<QueryRow>();
    const raw: LineOwner[] = [];
    for (let i = 0; i < this.raw.length; i++) {
      if (!keep[i]) continue;
      raw.push(this.raw[i]!);
      const o = owners[i];
      if (o) live.add(o);
    }
    this.raw = raw;
    this.rowList = this.rowList.filter((r) => live.has(r));
  }
}
