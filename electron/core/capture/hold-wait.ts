/**
 * The wait of a companion started ahead of its flags on a systemd host (`capture-watch
 * --flags-file PATH`, capture-main.ts): while the hold file (capture-args.ts CAPTURE_HOLD_FILE)
 * says `hold PID STARTTIME` and that process lives, it waits; `go`, no hold file or one it cannot
 * read as a hold let it read its flags; `drop`, the holder's end or a hold past `maxMs` end it
 * having done nothing. Woken by inotify on the hold file's directory (wait-file.ts), and every
 * `pollMs` for the holder's end (a kill -9 of start writes nothing). The hold file is read as
 * small-file.ts reads (no link followed, no FIFO waited on, at most HOLD_MAX_BYTES).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitForFile } from '../host/wait-file';
import { parseHoldFile } from './capture-args';
import { readSmallFile } from './small-file';

/** How often a held companion looks whether its holder still lives, ms. */
export const HOLD_POLL_MS = 200;
/** Longest a companion stays held, ms: start's checks before its go take seconds at most (discover's API calls have their own limits). */
export const HOLD_MAX_MS = 5 * 60_000;
/** Longest hold file read, bytes (its one line, `hold PID STARTTIME`, is at most 39). */
export const HOLD_MAX_BYTES = 256;

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
 * hold file. Never rejects. `note` is told, in one line for the journal, why it went or ended
 * when that was not a plain `go` or no hold file: a drop, the holder's end, the time limit, or a
 * hold file it could not read as a hold (a link, FIFO, garbage: it goes).
 */
export async function awaitHold(holdFile: string, procDir = '/proc', pollMs = HOLD_POLL_MS, maxMs = HOLD_MAX_MS, note: (line: string) => void = () => undefined): Promise<'go' | 'drop'> {
  let verdict: 'go' | 'drop' = 'drop';
  let why = '';
  let holder = '';
  const decided = async (): Promise<boolean> => {
    const read = await readSmallFile(holdFile, holdFile, HOLD_MAX_BYTES);
    if ('code' in read) {
      verdict = 'go';
      why = read.code === 'ENOENT' ? '' : `${read.why}: read as no hold; reading the flags now`;
      return true;
    }
    const h = parseHoldFile(read.text);
    if (h === null) [verdict, why] = ['go', `${holdFile} holds no hold (${JSON.stringify(read.text.slice(0, 80))}): read as none; reading the flags now`];
    else if (h.kind === 'go') [verdict, why] = ['go', ''];
    else if (h.kind === 'drop') [verdict, why] = ['drop', `${holdFile} says drop (the start that held it was refused or ended): exiting, nothing done`];
    else if ((await processStartTime(h.pid, procDir)) !== h.startTime) {
      [verdict, why] = ['drop', `the start that held it (PID ${h.pid}, start time ${h.startTime} in ${holdFile}) is no longer running${holder ? '' : ' (that PID is gone or is another process now)'}: exiting, nothing done`];
    } else {
      holder = `PID ${h.pid}`;
      return false;
    }
    return true;
  };
  const ok = await waitForFile(decided, path.dirname(holdFile), maxMs, pollMs);
  if (!ok) [verdict, why] = ['drop', `still held by ${holder || 'its start'} after ${Math.round(maxMs / 1000)} s (${holdFile}): exiting, nothing done`];
  if (why) note(why);
  return verdict;
}
