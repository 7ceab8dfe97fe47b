/**
 * Start's wait for the exact query log's companion to open its capture (capture-companion.ts:
 * the systemd unit's and the keeper's alike): until its ready file says so, until it failed (its
 * failed file: a run to wait for again, or its end), or READY_TIMEOUT_MS. Woken by inotify on the
 * run dir at each write there (wait-file.ts), so a ready or failed file ends it at once; what it
 * reads at a wake are small files, no process is run (the timeout's message may run some, after
 * the wait).
 */
import { isNoRestartStatus } from '../../../shared/capture-exit';
import { exitStatusWords } from '../../../shared/exit-status';
import { parseFailedFile } from '../capture/failed-file';
import { waitForFile } from './wait-file';

/** How long start waits for tcpdump to open the capture, ms (the pipeline's own limit is 10 s). */
export const READY_TIMEOUT_MS = 12_000;

/**
 * Runs of one start's companion that may fail before its wait ends with the last one's failure:
 * the first may be passing (e.g. tcpdump before the proxy listens,
 * e2e/debian-host-capture-rollback.e2e.test.ts), and a new run follows it (capture-companion.ts:
 * under systemd start starts it again at once itself, as systemd's own restart, RestartSec=1s
 * later, is refused by Requisite= while the proxy does not run yet; without systemd its keeper
 * restarts it 1 s later); the second failure is not passing.
 */
export const FAILED_RUNS_MAX = 2;

/** What a wake of the wait found in the failed file (FailedRuns.check): nothing new, a run to wait for again, or the end (`exit`: the companion's status, null when not recorded). */
export type FailedRun = null | { retry: true } | { retry: false; why: string; exit: number | null };

/** The error a wait ends with when the companion failed for good: its words, and its exit status when recorded. */
export class CompanionFailed extends Error {
  constructor(
    why: string,
    /** The companion's exit status (failed-file.ts `exit=N`), null when not recorded. */
    readonly exit: number | null,
  ) {
    super(why);
    this.name = 'CompanionFailed';
  }
}

/** Who runs the companion again after a failure, in the words of a failed wait (failedRuns). */
export interface Restarter {
  /** Who does not restart it for a status of shared/capture-exit.ts: `systemd`, `its keeper`. */
  who: string;
  /** How the second run came after the first: `started again at once after the first`. */
  again: string;
}

/** The unit's runs (systemdCapture): start starts a failed first run again at once itself. */
export const SYSTEMD_RESTARTER: Restarter = { who: 'systemd', again: 'started again at once after the first' };

/** The keeper's runs (supervisedCapture): its first restart comes 1 s after a failure (capture-keeper.ts). */
export const KEEPER_RESTARTER: Restarter = { who: 'its keeper', again: 'restarted by its keeper 1 s after the first' };

/** What the wait asks at every wake (waitReady). */
export interface ReadyChecks {
  /** True once the capture is open (its ready file). */
  isReady: () => Promise<boolean>;
  /** The companion's newest failure (failedRuns), else null. */
  failed?: () => Promise<FailedRun>;
  /** Its own last words for the timeout's message, '' when it said nothing. */
  lastWords: () => Promise<string>;
}

/**
 * Waits as the file comment says, watching the real directory `dir`. Resolves 'ready', or 'retry'
 * when the companion failed in a way a new run may mend (its caller starts it again, or waits for
 * its keeper's restart). Throws CompanionFailed with `failed`'s why when it failed for good, after `timeoutMs` with `the capture did not open within
 * N s: ` and its last words, or when `signal` aborted the wait (a rollback).
 */
export async function waitReady(dir: string, checks: ReadyChecks, signal?: AbortSignal, timeoutMs = READY_TIMEOUT_MS): Promise<'ready' | 'retry'> {
  let failure: FailedRun = null;
  const ended = await waitForFile(async () => (await checks.isReady()) || (failure = (await checks.failed?.()) ?? null) !== null, dir, timeoutMs, undefined, signal);
  const f = failure as FailedRun;
  if (f?.retry === false) throw new CompanionFailed(f.why, f.exit);
  if (f?.retry === true) return 'retry';
  if (!ended && signal?.aborted) throw new Error('the wait for the capture to open was given up (start is rolling back)');
  if (!ended) throw new Error(`the capture did not open within ${timeoutMs / 1000} s: ${(await checks.lastWords()) || 'its companion said nothing yet'}`);
  return 'ready';
}

/** One start's reading of the companion's failed file (failedRuns). */
export interface FailedRuns {
  /** The newest failure if it is new (a line not seen before), as FailedRun says. */
  check: () => Promise<FailedRun>;
  /** The newest failure's why, '' before any: the timeout's message quotes it. */
  last: () => string;
}

/**
 * Reads the companion's failed file (failed-file.ts) for one start, which removed it before it
 * started the companion: a failure ends the wait for good when its exit status is one `restarter`
 * does not restart it for (shared/capture-exit.ts) or when it is the FAILED_RUNS_MAX-th failed run
 * (told apart by their lines, which hold their time); an earlier one asks for a new run. `read`
 * resolves the file's text, '' when there is none.
 */
export function failedRuns(read: () => Promise<string>, restarter: Restarter = SYSTEMD_RESTARTER): FailedRuns {
  const seen = new Set<string>();
  let last = '';
  return {
    async check() {
      const text = await read();
      const f = parseFailedFile(text);
      if (f === null || seen.has(text)) return null;
      seen.add(text);
      last = f.why;
      const how = f.exit === null ? 'failed' : exitStatusWords(f.exit);
      if (isNoRestartStatus(f.exit)) return { retry: false, why: `its companion ${how}, which ${restarter.who} does not restart it for: ${f.why}`, exit: f.exit };
      if (seen.size >= FAILED_RUNS_MAX) return { retry: false, why: `its companion failed ${seen.size} times in a row (${restarter.again}), the last ${how}: ${f.why}`, exit: f.exit };
      return { retry: true };
    },
    last: () => last,
  };
}
