/**
 * Start's checks in the exact query log: `k2s-dns start`'s verify (lifecycle/verify.ts) asks the
 * cluster name (through the proxy, getaddrinfo and the host's other lookup paths) and the
 * external check name (through the proxy) in their normal spelling, so its rows cannot be told
 * from a program's by the name alone. Start records what it knows instead — the names it asked
 * and the wall-clock window it asked them in (its first query's send to its last answer) — in
 * START_CHECKS_FILE beside the exact query log, owned and moded as that log (host/query-log.ts
 * logOwnership: whoever reads the one reads the other), rewritten by each start with the
 * windows of up to KEPT_STARTS - 1 starts before it (the log keeps their rows too), and removed
 * by uninstall with the log (lifecycle/owned-files.ts). The log readers (rows-reader.ts,
 * rows-search.ts) mark a row as start's check (QueryRow.startCheck, a probe row) when its name
 * is one of a kept start's names (case-insensitive, trailing dot ignored) and its query time falls
 * inside that start's window widened by START_CHECK_MARGIN_MS on each side (docs/query-log.md says the limit: a
 * program asking the same name in those few ms is counted as start's).
 */
import path from 'node:path';
import { readSmallFile } from './small-file';
import { logOwnership, readAdmGid, refuseSymlinkedLogDir } from '../host/query-log';
import type { HostFs } from '../host/host-fs';

/** Host path of the record (beside K2S_PATHS.queryRows, /var/log/dnsproxy/queries.jsonl). */
export const START_CHECKS_FILE = '/var/log/dnsproxy/start-checks.json';

/**
 * ms added to each side of the window when rows are matched: Date.now() truncates to whole ms
 * while a row's time is the packet's µs stamp of the same (CLOCK_REALTIME) clock; one ms for
 * that truncation, one for the kernel stamping a packet a little before or after the call.
 */
export const START_CHECK_MARGIN_MS = 2;

/**
 * Bytes the record may have: a few names and two numbers for each of KEPT_STARTS starts (a link
 * to /dev/zero or a huge file is refused); the writer leaves out the oldest starts past it.
 */
const MAX_BYTES = 16 * 1024;
/** Names one start's window may hold (verify asks two). */
const MAX_NAMES = 8;
/**
 * Starts whose windows the record keeps (the last and up to 7 before it): a stop and a start
 * again leave the earlier start's rows in the log, still marked. Older ones' rows show as
 * ordinary rows (most are rotated away by then: the log keeps one rotated copy).
 */
export const KEPT_STARTS = 8;

/**
 * What one start's verify asked: `names` (as asked) between `fromMs` and `toMs` (ms since the
 * epoch, wall clock); `startedMs`, when that start began (before its capture opened, so every row
 * of its run is asked at or after it): the run boundary the log's readers mark (runOf).
 * Absent in a record an earlier version wrote: `fromMs` stands in then. `rolledBack`: that start
 * failed after verify asked and every change was rolled back (markStartRolledBack), so its rows
 * are of a run that never served the host.
 */
export interface StartWindow {
  names: string[];
  fromMs: number;
  toMs: number;
  startedMs?: number;
  rolledBack?: true;
}

/** The record: the last start's window, and `earlier` those of the starts before it (newest first, at most KEPT_STARTS - 1). */
export interface StartChecks extends StartWindow {
  earlier?: StartWindow[];
}

/** A name as compared: lower case (RFC 4343), without its trailing dot. */
function bare(name: string): string {
  const lower = name.toLowerCase();
  return lower.length > 1 && lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** `{ startedMs }` and `{ rolledBack }` when the window has them, else nothing (a record field is written only when known). */
function startedOf(w: StartWindow): { startedMs?: number; rolledBack?: true } {
  return { ...(w.startedMs === undefined ? {} : { startedMs: w.startedMs }), ...(w.rolledBack === true ? { rolledBack: true as const } : {}) };
}

/** The record's text (one JSON object and a newline); `earlier` only when it holds a window. */
export function startChecksText(c: StartChecks): string {
  const earlier = (c.earlier ?? []).map((w) => ({ names: w.names, fromMs: w.fromMs, toMs: w.toMs, ...startedOf(w) }));
  return `${JSON.stringify({ names: c.names, fromMs: c.fromMs, toMs: c.toMs, ...startedOf(c), ...(earlier.length > 0 ? { earlier } : {}) })}\n`;
}

/** The window in `v`, or null when it is none. */
function parseWindow(v: unknown): StartWindow | null {
  if (typeof v !== 'object' || v === null) return null;
  const { names, fromMs, toMs, startedMs, rolledBack } = v as Record<string, unknown>;
  if (!Array.isArray(names) || names.length > MAX_NAMES || !names.every((n) => typeof n === 'string' && n !== '')) return null;
  if (typeof fromMs !== 'number' || typeof toMs !== 'number' || !Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs < fromMs) return null;
  // A start time after its own checks is none (hand-edited): fromMs stands in for it.
  const started = typeof startedMs === 'number' && Number.isFinite(startedMs) && startedMs <= fromMs ? { startedMs } : {};
  return { names: names as string[], fromMs, toMs, ...started, ...(rolledBack === true ? { rolledBack: true as const } : {}) };
}

/**
 * The record in `text`, or null when its last window is not one (hand-edited, cut): then no row
 * is marked. Of `earlier` (newest first) the valid windows are kept, at most KEPT_STARTS - 1 (the
 * newest): one window that is none, or a list longer than that, drops only what is wrong, not
 * every earlier start's marks. An `earlier` that is no list is left out.
 */
export function parseStartChecks(text: string): StartChecks | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const last = parseWindow(v);
  if (last === null) return null;
  const given = (v as Record<string, unknown>).earlier;
  const earlier = (Array.isArray(given) ? given.map(parseWindow) : []).filter((w): w is StartWindow => w !== null).slice(0, KEPT_STARTS - 1);
  return earlier.length > 0 ? { ...last, earlier } : last;
}

/** The real path of the record beside the exact query log at the real path `rowsFile`. */
export function startChecksBeside(rowsFile: string): string {
  return path.join(path.dirname(rowsFile), path.basename(START_CHECKS_FILE));
}

/**
 * The record beside the exact query log at the real path `rowsFile`, or null when there is none
 * or it cannot be read or parsed (never followed through a link, never read past MAX_BYTES).
 */
export async function readStartChecks(rowsFile: string): Promise<StartChecks | null> {
  return readRecord(startChecksBeside(rowsFile));
}

/** The record at the real path `file`, or null (readStartChecks). */
async function readRecord(file: string): Promise<StartChecks | null> {
  const got = await readSmallFile(file, START_CHECKS_FILE, MAX_BYTES);
  return 'text' in got ? parseStartChecks(got.text) : null;
}

/**
 * True when a query for `name` asked at `queryUs` (µs since the epoch, the row's time) is one of
 * start's checks in `checks`: for the last start or one kept before it, its name is one of that
 * start's names (case-insensitive, trailing dot ignored) and its time is inside that start's
 * window widened by START_CHECK_MARGIN_MS each side.
 */
export function isStartCheck(checks: StartChecks | null | undefined, name: string, queryUs: number): boolean {
  if (!checks) return false;
  const ms = queryUs / 1000;
  const asked = bare(name);
  return [checks, ...(checks.earlier ?? [])].some((w) => ms >= w.fromMs - START_CHECK_MARGIN_MS && ms <= w.toMs + START_CHECK_MARGIN_MS && w.names.some((n) => bare(n) === asked));
}

/**
 * The K2s DNS run that a query asked at `queryUs` (µs since the epoch, the row's time) belongs
 * to: the latest start in `checks` (the last and the kept earlier ones) that began at or before
 * it — `startedMs` its `startedMs`, else its `fromMs`, in ms since the epoch; `rolledBack` when
 * that start failed and was rolled back — or undefined when none of the kept starts did (a row
 * older than them, or no record). Runs do not overlap (a start while one runs writes no window),
 * so that start's run is the row's.
 */
export function runOf(checks: StartChecks | null | undefined, queryUs: number): { startedMs: number; rolledBack: boolean } | undefined {
  if (!checks) return undefined;
  const ms = queryUs / 1000;
  let best: StartWindow | undefined;
  for (const w of [checks, ...(checks.earlier ?? [])]) {
    const began = w.startedMs ?? w.fromMs;
    if (began <= ms && (best === undefined || began > (best.startedMs ?? best.fromMs))) best = w;
  }
  return best && { startedMs: best.startedMs ?? best.fromMs, rolledBack: best.rolledBack === true };
}

/**
 * Writes `checks` (one start's window) as the record's last window under `fs`'s root, the
 * record's windows before (read from it: its last and its `earlier`) kept as `earlier`, at most
 * KEPT_STARTS - 1 and the oldest left out past MAX_BYTES; atomically
 * (HostFs.writeFileAtomic: temp file, rename; no fsync: the record only marks rows in a view, and
 * start waits for this write before it exits), owned and moded as the exact query log
 * (logOwnership of the host's `adm` group: root:adm 0640, or root:root 0600 without it); a
 * window that ends before it begins (the clock stepped back meanwhile) is not written. Not
 * root (`asRoot` false: a temp-root test run) keeps this user as owner but still gets the mode.
 * Rejects as the write does (ENOENT: no log directory), and before reading or writing anything
 * when the log directory is a symlink (refuseSymlinkedLogDir, as openQueryLog refuses it: a root
 * process must not follow a link planted there). Start calls it only when its exact query log
 * is on (lifecycle/start.ts): a start with --no-log-queries, or without tcpdump, has no rows to mark.
 */
export async function writeStartChecks(fs: Pick<HostFs, 'real' | 'writeFileAtomic'>, checks: StartWindow, asRoot: boolean): Promise<void> {
  // The wall clock stepped back while verify asked (NTP): no window says when those rows were
  // asked, and one that is not a window would make the record unreadable; the earlier starts' stay.
  if (checks.toMs < checks.fromMs) return;
  await rewriteRecord(fs, asRoot, (before) => ({ last: checks, earlier: before ? [before, ...(before.earlier ?? [])] : [] }));
}

/**
 * Marks `checks`, the window writeStartChecks wrote for a start that then failed and rolled
 * every change back, as `rolledBack` in the record under `fs`'s root, so the log's readers say
 * that run was a failed start (run-boundary.ts), not a K2s DNS that served the host. Nothing is
 * written when the record's last window is not that one (another start wrote since, or none was
 * written). Rejects as writeStartChecks does.
 */
export async function markStartRolledBack(fs: Pick<HostFs, 'real' | 'writeFileAtomic'>, checks: StartWindow, asRoot: boolean): Promise<void> {
  await rewriteRecord(fs, asRoot, (before) => {
    if (!before || before.fromMs !== checks.fromMs || before.toMs !== checks.toMs || before.rolledBack) return null;
    const { earlier = [], ...last } = before;
    return { last: { ...last, rolledBack: true }, earlier };
  });
}

/**
 * Writes the record `next` makes of the one there (null: none or unreadable) as last window and
 * `earlier` (at most KEPT_STARTS - 1, the oldest left out past MAX_BYTES); nothing when `next`
 * gives null. Refuses a symlinked log directory first; owned and moded as the exact query log.
 */
async function rewriteRecord(fs: Pick<HostFs, 'real' | 'writeFileAtomic'>, asRoot: boolean, next: (before: StartChecks | null) => { last: StartWindow; earlier: StartWindow[] } | null): Promise<void> {
  await refuseSymlinkedLogDir(path.dirname(fs.real(START_CHECKS_FILE)));
  const [admGid, before] = await Promise.all([readAdmGid(fs.real('/etc/group')), readRecord(fs.real(START_CHECKS_FILE))]);
  const made = next(before);
  if (made === null) return;
  const own = logOwnership(admGid);
  const earlier = made.earlier.slice(0, KEPT_STARTS - 1);
  let text = startChecksText({ ...made.last, earlier });
  while (Buffer.byteLength(text) > MAX_BYTES && earlier.length > 0) {
    earlier.pop();
    text = startChecksText({ ...made.last, earlier });
  }
  await fs.writeFileAtomic(START_CHECKS_FILE, text, { ...(asRoot ? own : { mode: own.mode }), sync: false });
}
