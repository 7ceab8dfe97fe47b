import type { HostFs } from '../host/host-fs';
import type { JournaledOperation, StepName } from '../../../shared/lifecycle-events';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { lockHeld, lockHeldBy } from './lock';

/**
 * The lifecycle journal (/var/lib/k2s/dns-lifecycle-journal.json, 0600): written before each
 * step that may change the host, removed when the operation ends. Found with a dead `pid`, it
 * means the operation was killed (crash, kill -9, power loss) and must be recovered.
 */
export interface JournalEntry {
  version: 1;
  op: JournaledOperation;
  /** The step about to run (its host changes may be partly done). */
  step: StepName;
  pid: number;
  startedAt: string;
  updatedAt: string;
  /**
   * The steps of this operation that ended before `step`, with the message each ended with
   * (JOURNAL_MESSAGE_MAX characters at most), oldest first: a window that follows the operation
   * from status shows what they did (walk 6 L8: a CLI stop's restore showed only "done before
   * this window followed the operation"). Absent in journals of older versions and before the
   * first step ended.
   */
  done?: JournalStep[];
}

/** A step that ended, as the journal keeps it (JournalEntry.done). */
export interface JournalStep {
  step: StepName;
  status: 'done' | 'skipped' | 'failed';
  message: string;
}

/** Longest step message the journal keeps, characters (a restore's names two files and a writer; far below this). */
export const JOURNAL_MESSAGE_MAX = 2000;

/**
 * The well-formed entries of `j.done` (a step name, an end status, a string message, cut to
 * JOURNAL_MESSAGE_MAX); [] when the journal has none.
 */
export function journalSteps(j: Pick<JournalEntry, 'done'>): JournalStep[] {
  if (!Array.isArray(j.done)) return [];
  return j.done
    .filter((d) => typeof d?.step === 'string' && (d.status === 'done' || d.status === 'skipped' || d.status === 'failed') && typeof d.message === 'string')
    .map((d) => ({ step: d.step, status: d.status, message: d.message.slice(0, JOURNAL_MESSAGE_MAX) }));
}

/** Where the last recovery is recorded for status and the UI (removed by the next clean op). */
export const LAST_RECOVERY = `${K2S_PATHS.stateDir}/dns-last-recovery.json`;

/** What recovery did, for status and the UI. */
export interface RecoveryRecord {
  at: string;
  /** The interrupted operation and the step it was in. */
  op: JournaledOperation;
  step: StepName;
  pid: number;
  /** One sentence: what recovery did, e.g. "restored the original resolver and stopped k2s-dnsproxy". */
  outcome: string;
  ok: boolean;
}

async function readJson<T>(fs: HostFs, path: string): Promise<T | null> {
  if (!(await fs.lstat(path))) return null;
  try {
    return JSON.parse((await fs.readFile(path)).toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** Writes the journal atomically (the state dir is created 0700 when missing). */
export async function writeJournal(fs: HostFs, entry: JournalEntry): Promise<void> {
  await fs.mkdirp(K2S_PATHS.stateDir, 0o700);
  await fs.writeFileAtomic(K2S_PATHS.journal, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 });
}

/** The journal, or null when none (or unreadable: a torn write cannot happen with rename). */
export function readJournal(fs: HostFs): Promise<JournalEntry | null> {
  return readJson<JournalEntry>(fs, K2S_PATHS.journal);
}

/** Removes the journal: the operation ended (done or rolled back). */
export function clearJournal(fs: HostFs): Promise<void> {
  return fs.remove(K2S_PATHS.journal);
}

/** Records what recovery did. */
export async function writeRecovery(fs: HostFs, rec: RecoveryRecord): Promise<void> {
  await fs.mkdirp(K2S_PATHS.stateDir, 0o700);
  await fs.writeFileAtomic(LAST_RECOVERY, `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
}

/** The last recovery record, or null. */
export function readRecovery(fs: HostFs): Promise<RecoveryRecord | null> {
  return readJson<RecoveryRecord>(fs, LAST_RECOVERY);
}

/** Forgets the last recovery (a later start or stop finished cleanly). */
export function clearRecovery(fs: HostFs): Promise<void> {
  return fs.remove(LAST_RECOVERY);
}

/**
 * The journal of an operation that is no longer running, or null when none is interrupted.
 * Decided by the kernel lock, never by the journal's PID alone (PIDs are reused after a reboot;
 * the PID only says whose open files to look at for the lock, lock.ts lockHeldBy): a caller holding the lifecycle lock (`holdingLock`) knows every journal it finds is left over;
 * otherwise (status) a journal is interrupted only while no process holds the lock.
 */
export async function interruptedOperation(fs: HostFs, holdingLock = false): Promise<JournalEntry | null> {
  const j = await readJournal(fs);
  if (!j) return null;
  if (holdingLock) return j;
  // /proc/locks first; the journal's process's own open files where a PID namespace hides the row there.
  return (await lockHeld(fs)) || (await lockHeldBy(fs, j.pid)) ? null : j;
}

/**
 * The operation running now: the journal while a process holds the lifecycle lock (the reading
 * behind status's `starting`/`stopping`, status.ts), or null when none runs (no journal, or an
 * interrupted one: interruptedOperation).
 */
export async function liveOperation(fs: HostFs): Promise<JournalEntry | null> {
  const j = await readJournal(fs);
  if (!j) return null;
  return (await lockHeld(fs)) || (await lockHeldBy(fs, j.pid)) ? j : null;
}
