/** The Logs panel's exact query log (`logs:exact`, shared/query-log/exact.ts) from the companion's rows file. */
import { lstat, stat } from 'node:fs/promises';
import { readRunFile } from './run-file';
import type { EngineName } from '../../../shared/engines/table';
import { SHOWN_ENGINE_LOG, type ExactQueryLog } from '../../../shared/query-log/exact';
import { readCapturedRows } from './rows-reader';
import type { RowsIndex } from './rows-index';
import { searchCapturedRows } from './rows-search';
import { captureStopped, captureStopWords, type CaptureFiles, type CaptureStop } from './capture-stopped';
import { isNoRestartStatus } from '../../../shared/capture-exit';
import { exitStatusWords } from '../../../shared/exit-status';
import { MAX_RESTARTS } from '../host/supervisor-script';
import { missedWords, parseMissed } from './capture-missed';
import { admGroupWays, asRootWays } from '../../../shared/fix';

export { SHOWN_ENGINE_LOG };

/**
 * What happens next to a stopped companion, after its stop's words: restarted by systemd or its
 * keeper (up to MAX_RESTARTS quick failures in a row) and by a new start; not restarted for a status
 * of shared/capture-exit.ts (its unit's RestartPreventExitStatus=, and its keeper likewise).
 */
export function captureRestartWords(stop: CaptureStop): string {
  if (isNoRestartStatus(stop.exit)) return `Its companion ${exitStatusWords(stop.exit!)} (its flags are bad), which neither systemd nor its keeper restarts it for: starting K2s DNS again writes its flags and starts it.`;
  return `Its companion is restarted when it fails by systemd, or without systemd by its keeper (up to ${MAX_RESTARTS} quick failures in a row), and by starting K2s DNS again.`;
}

/** The reason when tcpdump is installed but no rows file was written yet (K2s DNS never started the capture). */
export const EXACT_LOG_NOT_YET = `No exact query log yet: it starts with K2s DNS (tcpdump is installed).${SHOWN_ENGINE_LOG}`;

/**
 * The `logs:exact` answer for the rows file at the real path `file`: its rows when readable,
 * else why not — the capture stopped (`capture`: the companion's failed line, or its ready file
 * naming a companion found dead, capture-stopped.ts: its old rows would look current), tcpdump missing (the
 * fix), not yet written, or not readable by this user. With `find`: the rows that match
 * `find.text`, searched over both files (rows-search.ts). With `unwrittenFile` (capture-args.ts
 * CAPTURE_UNWRITTEN_FILE): its line as `unwritten` when the companion dropped rows; with
 * `capture.missed` (CAPTURE_MISSED_FILE): the packets the kernel dropped as `missed`. With
 * `before` (µs): the page of rows asked at or before it (rows-reader.ts); with `find`, of the
 * matching rows (rows-search.ts: the filtered view's older matches, walk5 M2); `index` keeps the
 * parsed rows between older pages (rows-index.ts; default: parsed for this call alone).
 */
export async function exactQueryLog(file: string, rows: number, engine: EngineName, tcpdump: () => Promise<string | null>, capture?: CaptureFiles, find?: { text: string; probes?: boolean }, unwrittenFile?: string, before?: number, index?: RowsIndex): Promise<ExactQueryLog> {
  const stopped = capture === undefined ? null : await captureStopped(capture);
  if (stopped !== null) {
    return { available: false, reason: `The exact query log ${captureStopWords(stopped)}. ${captureRestartWords(stopped)}${SHOWN_ENGINE_LOG}`, rows: [] };
  }
  const got = await readCapturedRows(file, rows, engine, [], find ? undefined : before, index);
  const unwritten = unwrittenFile === undefined ? '' : ((await readRunFile(unwrittenFile)) ?? '').trim();
  const missed = capture?.missed === undefined ? null : parseMissed((await readRunFile(capture.missed)) ?? '');
  const loss = { ...(unwritten === '' ? {} : { unwritten }), ...(missed === null ? {} : { missed: missedWords(missed) }) };
  if (got.present && find) return { available: true, reason: null, ...loss, ...(await searchCapturedRows(file, find.text, { limit: rows, engine, clusterZones: [], probes: find.probes ?? false, ...(before === undefined ? {} : { before }) })) };
  if (got.present) return { available: true, reason: null, ...loss, rows: got.rows, complete: got.complete, files: got.files, ...(got.oldestUs === undefined ? {} : { oldestUs: got.oldestUs }) };
  if ((await tcpdump()) === null) return { available: false, reason: "The exact query log is unavailable: tcpdump is not installed (apt-get install tcpdump, then start K2s DNS again). Shown: the engine's own query log.", rows: [] };
  const exists = await lstat(file).then(() => true, () => false);
  if (!exists) return { available: false, reason: EXACT_LOG_NOT_YET, rows: [] };
  // Not a regular file (rows-open.ts reads only those): a FIFO, a directory, a link to a device.
  const kind = await stat(file).then((st) => (st.isFile() ? null : st.isFIFO() ? 'a FIFO (named pipe)' : st.isDirectory() ? 'a directory' : 'not a regular file'), () => null);
  if (kind !== null) return { available: false, reason: `The exact query log ${file} is ${kind === 'not a regular file' ? kind : `${kind}, not a file`}: remove it (${file} holds only K2s DNS's rows; its next start writes a new one).${SHOWN_ENGINE_LOG}`, rows: [] };
  return { available: false, reason: `The exact query log ${file} is not readable by this user (root and the adm group read it, like the proxy log): ${admGroupWays()}, or run it ${asRootWays('queries')}. Shown: the engine's own query log.`, unreadable: file, rows: [] };
}

