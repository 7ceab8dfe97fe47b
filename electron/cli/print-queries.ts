/** `k2s-dns queries` text: one exact query log row per line, and the engine its rows name. */
import { ROUTE_LABEL } from '../../shared/query-log/route-label';
import type { EngineName } from '../../shared/engines/table';
import type { QueryRow } from '../../shared/query-log/row';
import { asRootWays, cliCommand, cliStartCommand } from '../../shared/fix';
import { freeSpaceWay, fullDirOf, noRowsWords } from '../../shared/query-log/no-rows';
import type { ResolverStateFile } from '../../shared/state-file';
import { runningStartFlags } from '../../shared/running-start';
import { EXACT_LOG_NOT_YET, SHOWN_ENGINE_LOG } from '../core/capture/exact-log';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { codeSpan } from '../../shared/code-span';
import { runBoundary, runBoundaryLine } from '../../shared/query-log/run-boundary';
import { withUtcOffset } from '../../shared/query-log/utc-offset';

/**
 * The engine `queries` names: the saved state's, or null with `unknown`, the sentence that says
 * why not (stderr in the text output; `engineUnknown` in --json, docs/query-log.md "Logs and the query log").
 */
export interface QueriesEngine {
  engine: EngineName | null;
  /** Null with an engine; else why there is none: K2s DNS stopped (no saved state), a state that names none, or one this user cannot read. */
  unknown: string | null;
  /**
   * Set when the running K2s DNS was started with `--no-log-queries` (its state's
   * startedWith.logQueries false): it logs no query, and any row is from an earlier run. The
   * way to log them: `stop && start`, the start with the running one's other options.
   */
  notLogging?: { restart: string };
  /** True when K2s DNS is stopped (no saved state): the rows are from its earlier runs and none comes until a start (stoppedText). */
  stopped?: true;
}

/** What `queries` reads of the saved state: its engine, and for `--no-log-queries` what starts it again (shared/running-start.ts). */
export type QueriesState = Pick<ResolverStateFile, 'engine'> & Partial<Pick<ResolverStateFile, 'listeners' | 'skippedListeners' | 'allowedZones' | 'onNetworkChange' | 'startedWith'>>;

/**
 * The `stop && start` line that starts the K2s DNS `state` records again with its query log:
 * its start's flags (runningStartFlags) without `--no-log-queries`; undefined when it logs queries
 * (startedWith.logQueries absent or true, or a state of an earlier version without startedWith).
 */
export function notLoggingOf(state: QueriesState | null): QueriesEngine['notLogging'] | undefined {
  if (state?.startedWith?.logQueries !== false) return undefined;
  const flags = runningStartFlags({ engine: state.engine, listeners: state.listeners ?? [], skippedListeners: state.skippedListeners ?? [], allowedZones: state.allowedZones ?? [], onNetworkChange: state.onNetworkChange ?? 'follow', startedWith: state.startedWith }).filter(([flag]) => flag !== '--no-log-queries');
  return { restart: `${cliCommand('stop', true)} && ${cliStartCommand(flags)}` };
}

/**
 * The stderr sentence of `queries` while the running K2s DNS logs no query (`--no-log-queries`,
 * QueriesEngine.notLogging): `rows` true when rows are printed (they are from an earlier run),
 * false when none is. The way: stop, then start without the flag (a start while it runs changes
 * nothing: RUNNING_OTHER_OPTIONS).
 */
export function notLoggingText(notLogging: { restart: string }, rows: boolean): string {
  return `The running K2s DNS was started with --no-log-queries: it logs no query${rows ? '; the rows shown are from an earlier run' : ''}. To log queries, stop it, then start it without --no-log-queries: ${codeSpan(notLogging.restart)}.`;
}

/**
 * The engine that answered the exact log's rows, from the saved resolver state (`read`: resolves
 * the state or null when none is saved, throws when it cannot be read: not root, corrupt), and
 * whether the running K2s DNS logs no query (notLoggingOf).
 * Never a guess: without a state naming one, the engine is null and `unknown` says why —
 * stopped (no saved state) is said as such; "unreadable" only for a failed read.
 */
export async function queriesEngine(read: () => Promise<QueriesState | null>): Promise<QueriesEngine> {
  let why: string;
  try {
    const state = await read();
    const notLogging = notLoggingOf(state);
    if (state?.engine) return { engine: state.engine, unknown: null, ...(notLogging ? { notLogging } : {}) };
    // No saved state is the normal stopped state, not a failure to read one.
    if (state) return { engine: null, unknown: 'The saved state names no engine: which engine answered these rows is not known.' };
    return { engine: null, unknown: 'K2s DNS is not running (stopped): these rows are from when it ran; with no saved state, which engine answered them is not known.', stopped: true };
  } catch (err) {
    why = (err as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied: root reads it' : (err as Error).message;
  }
  return { engine: null, unknown: `The saved state is unreadable (${why}): which engine answered these rows is not known.` };
}

/**
 * The stderr line of `queries` when the exact log is not available (`reason`: exact-log.ts's; exit
 * 1). The CLI prints no rows then, so its reason never says the engine's own log is shown (that is
 * the Logs panel's). EXACT_LOG_NOT_YET (tcpdump installed, no rows file): it says the file does
 * not exist and why it may not — no start ran the capture (`--no-log-queries` runs none), or
 * uninstall removed it — and how start is run as root (shared/fix.ts asRootWays: also `su -c`
 * where sudo is not installed); an existing file with no row is noRowsText's, exit 0. With
 * `notLogging` (the running K2s DNS was started with `--no-log-queries`): that first
 * (notLoggingText), as a start while it runs writes nothing.
 */
export function queriesUnavailableText(reason: string | null, notLogging?: { restart: string }): string {
  if (notLogging) return reason === EXACT_LOG_NOT_YET ? `No exact query log to read: ${K2S_PATHS.queryRows} does not exist. ${notLoggingText(notLogging, false)}` : `${notLoggingText(notLogging, false)} ${queriesUnavailableText(reason)}`;
  if (reason === EXACT_LOG_NOT_YET) return `No exact query log to read: ${K2S_PATHS.queryRows} does not exist: no start of K2s DNS has run its capture on this host (a start with --no-log-queries runs none), or uninstall removed it. A start writes it from then on (tcpdump is installed); run it ${asRootWays('start')}.`;
  if (reason === null) return 'No exact query log.';
  return reason.endsWith(SHOWN_ENGINE_LOG) ? reason.slice(0, -SHOWN_ENGINE_LOG.length) : reason;
}

/**
 * The stderr line of the text output when the exact log's file exists but has no row yet (exit 0;
 * shared/query-log/no-rows.ts noRowsWords, the facts the window's Queries view says too;
 * stdout stays empty, so a script reading it sees no rows; a missing file is
 * queriesUnavailableText's, exit 1): a row reaches the file about BLOCK_TIMEOUT_MS after its answer
 * at most on an idle host — the capture hands packets over a ring block at a time
 * (tcpdump-argv.ts) — and later while the host is busy, as its parser runs at idle priority
 * (go-idle.ts; docs/query-log.md "Logs and the query log"). `waitedMs`: how long this command waited for a
 * row (queries-wait.ts), said when it did. `queries` has no flag to follow the file, so it says to
 * run it again (new-user walk 20: `queries` right after start printed nothing at all). With
 * `unwritten` a full-disk loss line (fullDirOf): no asked name can reach the file, so it says
 * to free space there instead.
 */
export function noRowsText(waitedMs = 0, unwritten?: string): string {
  const w = noRowsWords('cli', { waitedMs, unwritten });
  return `${w.head}: ${w.body}`;
}

/**
 * The stderr line of `queries` for rows the capture could not write (`unwritten`: the
 * companion's loss line, CAPTURE_UNWRITTEN_FILE). For a full disk it says what to do — free
 * space where the rows go; the companion writes the next rows again then (rows-file.ts: a
 * failed write is counted and dropped, the next one is tried) — as status does; asking a name
 * adds no row then (walk finding: it said to). `wayFollows`: noRowsText follows it (noRowsFollow)
 * and says that way itself, so the line gives the loss alone.
 */
export function unwrittenText(unwritten: string, wayFollows = false): string {
  const full = wayFollows ? null : fullDirOf(unwritten);
  return `The exact query log misses rows: ${unwritten}${full === null ? '' : `; ${freeSpaceWay(full)}: the next rows are written again then`}.`;
}

/**
 * Whether afterRowsText will print noRowsText for `shown` (no row printed, none hidden, the log
 * running): its full-disk note then says the way, so unwrittenText leaves it out (said once).
 */
export function noRowsFollow(shown: { rows: readonly QueryRow[]; hidden: number }, notLogging?: { restart: string }): boolean {
  return !notLogging && shown.hidden === 0 && shown.rows.length === 0;
}

/** One row of `queries --json`: the exact log's row with the saved state's engine, null when none is known. */
export type QueriesJsonRow = Omit<QueryRow, 'engine'> & { engine: EngineName | null };

/**
 * What `queries --json` prints for `log` (exact-log.ts's answer): its fields, every row naming
 * `who`'s engine or null (a row is assembled with a stand-in engine, never printed),
 * `engineUnknown`, why the engine is null (null when it is known), and `notLogging`, while the
 * running K2s DNS was started with `--no-log-queries`, notLoggingText (null otherwise).
 */
export function queriesJson<L extends { rows: readonly QueryRow[] }>(log: L, who: QueriesEngine): Omit<L, 'rows'> & { engineUnknown: string | null; notLogging: string | null; rows: QueriesJsonRow[] } {
  return { ...log, engineUnknown: who.unknown, notLogging: who.notLogging ? notLoggingText(who.notLogging, log.rows.length > 0) : null, rows: log.rows.map((r) => ({ ...r, engine: who.engine })) };
}

/**
 * The mark a health-check row of k2s-dns ends with in the text output (`--probes`). The row's
 * name is printed as the packet spelled it (QueryRow.asked: `KUBERNETES.DEFAULT.svc.…`,
 * shared/health-probe.ts), yet capitals alone are no reason a reader knows: the mark says it.
 */
export const PROBE_MARK = ' [health check of k2s-dns]';

/** The mark of a row start's verify asked (QueryRow.startCheck), in place of PROBE_MARK. */
export const START_CHECK_MARK = " [k2s-dns start's check]";

/**
 * The text output's first stdout line when it prints rows: the names of formatExactRow's fields,
 * in its order (ROUTE: `via UPSTREAM`, `cache`, `the proxy itself` or `no answer`; LATENCY and
 * ANSWERS only where the row has them).
 */
export const QUERIES_HEADER = 'TIME CLIENT PROTO TYPE NAME RCODE ROUTE LATENCY ANSWERS';

/**
 * A row's TIME: its local time with the UTC offset at its instant where the row knows it
 * (QueryRow.utcOffset: exact rows), else the offset its local time reads as (withUtcOffset: in
 * the hour a clock turned back repeats, the earlier one's); `-` without a time.
 */
function timeText(r: QueryRow): string {
  if (r.time === null) return '-';
  return r.utcOffset === undefined ? withUtcOffset(r.time) : `${r.time}${r.utcOffset}`;
}

/**
 * `TIME CLIENT PROTO TYPE NAME RCODE via UPSTREAM (LATENCY ms) ANSWERS`; TIME local with its UTC
 * offset (`2026-12-07T12:03:04.123456+01:00`, shared/query-log/utc-offset.ts; `--json`'s `time`
 * stays without it); without an upstream
 * exchange, the row's route in the window's words (shared/query-log/route-label.ts: `cache`, or
 * `the proxy itself` for a SERVFAIL or REFUSED it made — `--json`'s route "proxy"), `no answer`
 * when none came; the name as the packet spelled it (QueryRow.asked); a health-check row ends with PROBE_MARK.
 */
export function formatExactRow(r: QueryRow): string {
  const via = r.upstream ? `via ${r.upstream}` : r.rcode === null ? 'no answer' : r.route !== null ? ROUTE_LABEL[r.route] : 'cache';
  const lat = r.latencyMs === null ? '' : ` ${r.latencyMs.toFixed(2)} ms`;
  return `${timeText(r)} ${r.client ?? '-'} ${r.protocol ?? '-'} ${r.type} ${r.asked ?? r.name} ${r.rcode ?? '-'} ${via}${lat}${r.answers.length ? ` ${r.answers.join(',')}` : ''}${r.startCheck ? START_CHECK_MARK : r.probe ? PROBE_MARK : ''}`;
}

/**
 * The text output's stdout lines for `rows` (oldest first): formatExactRow's line for each, and
 * before the first row of each K2s DNS run (shared/query-log/run-boundary.ts: the first row shown
 * names its run too) the line `— K2s DNS started 2026-12-07 12:03:04 +01:00 —` (local time, its UTC offset;
 * `— K2s DNS start … failed and was rolled back —` for a failed start's run), so rows of a run
 * before the last stop are told from the last run's. Rows of no known run get none.
 */
export function exactRowLines(rows: readonly QueryRow[]): string[] {
  const lines: string[] = [];
  rows.forEach((r, i) => {
    const began = runBoundary(r, rows[i - 1]);
    if (began !== null) lines.push(runBoundaryLine(began, r.runRolledBack === true));
    lines.push(formatExactRow(r));
  });
  return lines;
}

/** The text output's stdout lines: QUERIES_HEADER, then exactRowLines; none for no row (a script reading stdout sees no rows). */
export function queriesTextLines(rows: readonly QueryRow[]): string[] {
  return rows.length === 0 ? [] : [QUERIES_HEADER, ...exactRowLines(rows)];
}

/**
 * The text output's rows without k2s-dns's own health checks, as the window's Queries view hides
 * them by default (docs/query-log.md "Logs and the query log"): the newest `lines` rows that are no probe,
 * from `rows` (oldest first, read deeper than `lines` for that), and `hidden`, the probe rows
 * among them and up to the oldest row kept (all of `rows`' probes when fewer than `lines` are
 * kept). `startChecks`: how many of the hidden rows start's verify asked (QueryRow.startCheck).
 */
export function withoutProbes(rows: readonly QueryRow[], lines: number): { rows: QueryRow[]; hidden: number; startChecks: number } {
  const kept: QueryRow[] = [];
  let hidden = 0;
  let startChecks = 0;
  for (let i = rows.length - 1; i >= 0 && kept.length < lines; i--) {
    if (rows[i]!.probe) {
      hidden += 1;
      if (rows[i]!.startCheck) startChecks += 1;
    } else kept.push(rows[i]!);
  }
  return { rows: kept.reverse(), hidden, startChecks };
}

/**
 * The stderr line that says how many of k2s-dns's own check rows the text output hid (of them
 * `startChecks` start's verify asked), and the flag that shows them; null when none.
 */
export function hiddenProbesText(hidden: number, startChecks = 0): string | null {
  if (hidden === 0) return null;
  const start = startChecks === 0 ? '' : startChecks === hidden ? (hidden === 1 ? "; it is k2s-dns start's check" : "; all are k2s-dns start's checks") : `; ${startChecks} of them k2s-dns start's ${startChecks === 1 ? 'check' : 'checks'}`;
  return `${hidden} health-check ${hidden === 1 ? 'query' : 'queries'} of k2s-dns hidden (the checks its window, status and start run${start}); --probes shows them, marked.`;
}

/**
 * The last stderr line of the text output while K2s DNS is stopped (QueriesEngine.stopped; exit 0:
 * the log was read): the rows printed (`rows` true) are from its earlier runs, no new row comes
 * until a start (its capture runs only while K2s DNS does), and how start is run as root
 * (shared/fix.ts asRootWays). With no row printed it says the file holds none to show.
 */
export function stoppedText(rows: boolean, hidden = 0): string {
  const start = `start it ${asRootWays('start')}`;
  if (rows) return `K2s DNS is stopped: the rows above are from its earlier runs (which engine answered them is not known without its saved state), and no new row comes until it starts again; ${start}.`;
  return `K2s DNS is stopped: ${K2S_PATHS.queryRows} holds no ${hidden > 0 ? 'other ' : ''}query to show, and none comes until it starts again; ${start}.`;
}

/**
 * The stderr line before the text output's rows (`shown`: withoutProbes's, or every row with
 * `--probes`): how many health checks it hid (hiddenProbesText), said before the rows so a reader
 * of a long listing meets it first (new-user walk: it came after the rows); null when none is hidden.
 */
export function beforeRowsText(shown: { hidden: number; startChecks?: number }): string | null {
  return hiddenProbesText(shown.hidden, shown.startChecks);
}

/**
 * The stderr line after the text output's rows (`shown` as beforeRowsText's): with no row printed
 * and none hidden, noRowsText (`waitedMs` as there) — never silence with exit 0; null when rows
 * were printed or some hidden (beforeRowsText said so). With `notLogging` (`--no-log-queries`:
 * notLoggingText is said before the rows) never noRowsText: no row is coming. `unwritten`: the
 * capture's loss line, for noRowsText. `stopped` (K2s DNS is stopped): stoppedText's, the last line.
 */
export function afterRowsText(shown: { rows: readonly QueryRow[]; hidden: number; startChecks?: number }, waitedMs = 0, notLogging?: { restart: string }, unwritten?: string, stopped = false): string | null {
  if (stopped) return stoppedText(shown.rows.length > 0, shown.hidden);
  if (notLogging || shown.hidden > 0) return null;
  return shown.rows.length === 0 ? noRowsText(waitedMs, unwritten) : null;
}
