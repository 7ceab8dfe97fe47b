/**
 * Whether the exact query log's companion (capture-main.ts) stopped, for its readers (status,
 * `k2s-dns queries`, the Queries view): its own line in CAPTURE_FAILED_FILE when tcpdump or the
 * parser ended (it writes it before it exits 1), or — killed itself (kill -9, the OOM killer), so
 * it wrote nothing — CAPTURE_READY_FILE left behind naming a pid that is no longer a companion.
 * Its rows file then keeps its old rows and looks current, and the engine logs no queries meanwhile:
 * said, never shown as if it ran (breaker10 M2).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isCaptureArgv } from './capture-args';
import { parseFailedFile } from './failed-file';
import { readRunFile } from './run-file';

/** Why the exact query log stopped: `at` the ISO time it stopped when recorded, else null. */
export interface CaptureStop {
  at: string | null;
  why: string;
  /** The companion's exit status when its failed line records one (failed-file.ts `exit=N`; absent otherwise). */
  exit?: number;
}

/** Real paths of the companion's files (capture-args.ts): its failed line, its ready pid and its rows. */
export interface CaptureFiles {
  /** CAPTURE_FAILED_FILE: `ISO-TIME why` (failed-file.ts), written by the companion before it exits with a failure. */
  failed: string;
  /** CAPTURE_READY_FILE: the companion's pid, written once its capture opened, removed when it ends by itself. */
  ready?: string;
  /** K2S_PATHS.queryRows: its mtime is the time of the last row written. */
  rows?: string;
  /** CAPTURE_MISSED_FILE: the kernel's drops while it runs (read by exact-log.ts, not here). */
  missed?: string;
}

/** Splits /proc/PID/cmdline bytes into argv (NUL-separated, trailing NUL). */
function argvOf(bytes: Buffer): string[] {
  const parts = bytes.toString('utf8').split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/**
 * The pid in the ready file (the real path `readyFile`) when that process is gone or is no
 * longer a capture companion (/proc/PID/cmdline, isCaptureArgv: a reused pid is not taken for
 * it, as the follower's pidfile check); null while it runs, when no ready file is there, or when
 * this user cannot see other users' processes (/proc mounted hidepid: /proc/1 hidden too).
 */
export async function deadCompanionPid(readyFile: string, procDir = '/proc'): Promise<number | null> {
  const text = await readRunFile(readyFile);
  if (text === null) return null;
  const pid = Number.parseInt(text.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 1 || String(pid) !== text.trim()) return null;
  const argv = await readFile(path.join(procDir, String(pid), 'cmdline')).then(argvOf, (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' || e.code === 'ESRCH' ? [] : null));
  if (argv === null) return null; // there but not readable by this user: not judged
  if (isCaptureArgv(argv)) return null;
  // Gone: unless every other user's process is hidden from this one (hidepid), then not judged.
  if (argv.length === 0 && (await stat(path.join(procDir, '1')).then(() => false, () => true))) return null;
  return pid;
}

/**
 * The companion's stop, else null: its failed line (`at` its time, `why` the rest); else a dead
 * companion (deadCompanionPid), `at` null and `why` naming its pid, the time it was found dead
 * (`now`) and the time of its last row (the rows file's mtime), as it recorded nothing itself.
 */
export async function captureStopped(files: CaptureFiles, procDir = '/proc', now: () => Date = () => new Date()): Promise<CaptureStop | null> {
  const failed = parseFailedFile((await readRunFile(files.failed)) ?? '');
  if (failed !== null) return { at: failed.at, why: failed.why, ...(failed.exit === null ? {} : { exit: failed.exit }) };
  if (files.ready === undefined) return null;
  const pid = await deadCompanionPid(files.ready, procDir);
  if (pid === null) return null;
  const lastRow = files.rows === undefined ? null : await stat(files.rows).then((st) => st.mtime.toISOString(), () => null);
  return { at: null, why: `its companion (capture-watch, PID ${pid}) was found dead at ${now().toISOString()}, ended without a word (killed: kill -9, the OOM killer)${lastRow ? `; its last row was written at ${lastRow}` : ''}` };
}

/** "stopped at TIME: why", or "stopped: why" when the time is not recorded. */
export function captureStopWords(stop: CaptureStop): string {
  return `stopped${stop.at === null ? '' : ` at ${stop.at}`}: ${stop.why}`;
}
