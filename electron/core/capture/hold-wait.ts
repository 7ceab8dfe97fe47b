/**
 * The wait of a companion started ahead of its flags on a systemd host (`capture-watch
 * --flags-file PATH`, capture-main.ts): while the hold file (capture-args.ts CAPTURE_HOLD_FILE)
 * says `hold PID STARTTIME` and that process lives, it waits; `go`, no hold file or one it cannot
 * read as a hold let it read its flags; `drop`, the holder's end or a hold past `maxMs` end it
 * having done nothing. Woken by inotify on the hold file's directory (wait-file.ts), and every
 * `pollMs` for the holder's end (a kill -9 of start writes nothing).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitForFile } from '../host/wait-file';
import { parseHoldFile } from './capture-args';

/** How often a held companion looks whether its holder still lives, ms. */
export const HOLD_POLL_MS = 200;
/** Longest a companion stays held, ms: start's checks before its go take seconds at most (discover's API calls have their own limits). */
export const HOLD_MAX_MS = 5 * 60_000;

/**
 * Field 22 of /proc/PID/stat (starttime, clock ticks after boot; proc(5)) as text, or null when
 * there is no such process. With the PID it names one process for good: a PID reused later has
 * another start time.
 */
export async function processStartTime(pid: number | 'self', procDir = '/proc'): Promise<string | null> {
  const stat = await readFile(path.join(procDir, String(pid), 'stat'), 'utf8').catch(() => null);
  if (stat === null) return null;
  // The command name (field 2) is in parentheses and may hold spaces or ')': fields after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): field 22 is rest[19]. A zombie has ended.
  if (rest[0] === 'Z') return null;
  return rest[19] ?? null;
}

/**
 * Waits as the file comment says; resolves 'go' or 'drop'. `holdFile` is the real path of the
 * hold file. Never rejects.
 */
export async function awaitHold(holdFile: string, procDir = '/proc', pollMs = HOLD_POLL_MS, maxMs = HOLD_MAX_MS): Promise<'go' | 'drop'> {
  let verdict: 'go' | 'drop' = 'drop';
  const decided = async (): Promise<boolean> => {
    const h = parseHoldFile(await readFile(holdFile, 'utf8').catch(() => ''));
    if (h === null || h.kind === 'go') verdict = 'go';
    else if (h.kind === 'drop') verdict = 'drop';
    else if ((await processStartTime(h.pid, procDir)) !== h.startTime) verdict = 'drop';
    else return false;
    return true;
  };
  return (await waitForFile(decided, path.dirname(holdFile), maxMs, pollMs)) ? verdict : 'drop';
}
