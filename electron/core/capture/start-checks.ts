/**
 * Start's checks in the exact query log: `k2s-dns start`'s verify (lifecycle/verify.ts) asks the
 * cluster name (through the proxy, getaddrinfo and the host's other lookup paths) and the
 * external check name (through the proxy) in their normal spelling, so its rows cannot be told
 * from a program's by the name alone. Start records what it knows instead — the names it asked
 * and the wall-clock window it asked them in (its first query's send to its last answer) — in
 * START_CHECKS_FILE beside the exact query log, owned and moded as that log (host/query-log.ts
 * logOwnership: whoever reads the one reads the other), replaced by each start and removed by
 * uninstall with the log (lifecycle/owned-files.ts). The log readers (rows-reader.ts,
 * rows-search.ts) mark a row as start's check (QueryRow.startCheck, a probe row) when its name
 * is one of those names (case-insensitive, trailing dot ignored) and its query time falls inside
 * the window widened by START_CHECK_MARGIN_MS on each side (docs/query-log.md says the limit: a
 * program asking the same name in those few ms is counted as start's).
 */
import path from 'node:path';
import { readSmallFile } from './small-file';
import { logOwnership, readAdmGid } from '../host/query-log';
import type { HostFs } from '../host/host-fs';

/** Host path of the record (beside K2S_PATHS.queryRows, /var/log/dnsproxy/queries.jsonl). */
export const START_CHECKS_FILE = '/var/log/dnsproxy/start-checks.json';

/**
 * ms added to each side of the window when rows are matched: Date.now() truncates to whole ms
 * while a row's time is the packet's µs stamp of the same (CLOCK_REALTIME) clock; one ms for
 * that truncation, one for the kernel stamping a packet a little before or after the call.
 */
export const START_CHECK_MARGIN_MS = 2;

/** Bytes the record may have: a few names and two numbers (a link to /dev/zero or a huge file is refused). */
const MAX_BYTES = 4096;
/** Names the record may hold (verify asks two). */
const MAX_NAMES = 8;

/** What start's verify asked: `names` (as asked) between `fromMs` and `toMs` (ms since the epoch, wall clock). */
export interface StartChecks {
  names: string[];
  fromMs: number;
  toMs: number;
}

/** A name as compared: lower case (RFC 4343), without its trailing dot. */
function bare(name: string): string {
  const lower = name.toLowerCase();
  return lower.length > 1 && lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The record's text (one JSON object and a newline). */
export function startChecksText(c: StartChecks): string {
  return `${JSON.stringify({ names: c.names, fromMs: c.fromMs, toMs: c.toMs })}\n`;
}

/** The record in `text`, or null when it is not one (hand-edited, cut): then no row is marked. */
export function parseStartChecks(text: string): StartChecks | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const { names, fromMs, toMs } = v as Record<string, unknown>;
  if (!Array.isArray(names) || names.length > MAX_NAMES || !names.every((n) => typeof n === 'string' && n !== '')) return null;
  if (typeof fromMs !== 'number' || typeof toMs !== 'number' || !Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs < fromMs) return null;
  return { names: names as string[], fromMs, toMs };
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
  const got = await readSmallFile(startChecksBeside(rowsFile), START_CHECKS_FILE, MAX_BYTES);
  return 'text' in got ? parseStartChecks(got.text) : null;
}

/**
 * True when a query for `name` asked at `queryUs` (µs since the epoch, the row's time) is one of
 * start's checks in `checks`: its name is one of the names (case-insensitive, trailing dot
 * ignored) and its time is inside the window widened by START_CHECK_MARGIN_MS each side.
 */
export function isStartCheck(checks: StartChecks | null | undefined, name: string, queryUs: number): boolean {
  if (!checks) return false;
  const ms = queryUs / 1000;
  if (ms < checks.fromMs - START_CHECK_MARGIN_MS || ms > checks.toMs + START_CHECK_MARGIN_MS) return false;
  const asked = bare(name);
  return checks.names.some((n) => bare(n) === asked);
}

/**
 * Writes `checks` as the record (replacing the last start's) under `fs`'s root, atomically
 * (HostFs.writeFileAtomic: temp file, rename), owned and moded as the exact query log
 * (logOwnership of the host's `adm` group: root:adm 0640, or root:root 0600 without it). Not
 * root (`asRoot` false: a temp-root test run) keeps this user as owner but still gets the mode.
 * Rejects as the write does (ENOENT: no log directory).
 */
export async function writeStartChecks(fs: Pick<HostFs, 'real' | 'writeFileAtomic'>, checks: StartChecks, asRoot: boolean): Promise<void> {
  const own = logOwnership(await readAdmGid(fs.real('/etc/group')));
  await fs.writeFileAtomic(START_CHECKS_FILE, startChecksText(checks), asRoot ? own : { mode: own.mode });
}
