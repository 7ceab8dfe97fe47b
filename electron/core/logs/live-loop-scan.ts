/**
 * Reads the proxy log's last LOOP_TAIL_LINES lines and finds live CoreDNS ↔ proxy loops
 * (shared/live-loop.ts), parsed as the Logs panel parses them. Shared by doctor's
 * `coredns-loop` check and the health verdict. Read-only.
 */
import { parseLogLine } from '../../../shared/log-line';
import { buildQueryLog } from '../../../shared/query-log';
import { findLiveLoops, type LiveLoop } from '../../../shared/live-loop';
import { LogReadError, readTail } from './tail';
import path from 'node:path';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { readCapturedRows } from '../capture/rows-reader';

/** Lines of the log doctor's scan reads (a loop writes hundreds of lines a second). */
export const LOOP_TAIL_LINES = 20_000;

/**
 * Lines the health verdict's scan reads: it runs with every health check (every few seconds),
 * and 20,000 lines took 0.6–1.0 s to parse here (2 cores); LOOP_THRESHOLD copies of one
 * question are ~20 × 7–25 lines with dnsproxy -v, well inside the last 3,000.
 */
export const HEALTH_LOOP_TAIL_LINES = 3_000;

/**
 * Loops in the last `tailLines` lines of the log at `realPath` (a real file system path) and, when
 * the exact query log from packets sits next to it (K2S_PATHS.queryRows: then the engine logs no
 * queries), in its last rows (one row per query: a tenth as many); null when both are absent or empty.
 * `unreadable`: the log exists but this user may not read it (root:adm 0640, LogReadError
 * LOG_UNREADABLE), so its lines are not in the scan; an empty scan then is not "no log".
 */
export async function scanLiveLoops(realPath: string, clusterZones: string[], tailLines = LOOP_TAIL_LINES): Promise<{ lines: number; loops: LiveLoop[]; unreadable?: true } | null> {
  let unreadable = false;
  const tail = await readTail(realPath, tailLines).catch((err: unknown) => {
    if (err instanceof LogReadError && err.code === 'LOG_UNREADABLE') unreadable = true;
    return null;
  });
  const exact = await readCapturedRows(path.join(path.dirname(realPath), path.basename(K2S_PATHS.queryRows)), Math.ceil(tailLines / 10), 'adguard', clusterZones);
  const lines = tail?.lines.filter((l) => l.trim() !== '') ?? [];
  if (lines.length === 0 && exact.rows.length === 0) return unreadable ? { lines: 0, loops: [], unreadable: true } : null;
  const rows = [...buildQueryLog(lines.map((l) => parseLogLine(l)), { clusterZones }), ...exact.rows];
  return { lines: lines.length + exact.rows.length, loops: findLiveLoops(rows), ...(unreadable ? { unreadable: true as const } : {}) };
}
