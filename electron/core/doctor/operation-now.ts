/**
 * The k2s-dns operation in progress as a doctor check reads it at the moment it looks (not when
 * the run began: a CLI `stop; start` can pass while the checks run), so a check that finds K2s
 * DNS halfway through a change says so instead of judging a half-changed host.
 */
import { cliCommand, type FrontEnd } from '../../../shared/fix';
import type { HostFs } from '../host/host-fs';
import { liveOperation } from '../lifecycle/journal';
import { lockHeld, lockHeldBy, lockHolderNote } from '../lifecycle/lock';
import { codeSpan } from '../../../shared/code-span';

/** An operation in progress: from its journal (op, step and PID), or only the lifecycle lock held (op and step unknown). */
export interface OperationNow {
  op: 'start' | 'stop' | 'uninstall' | null;
  step: string | null;
  /** The PID of the k2s-dns process running it (the journal's, else the lock file's note), null when unknown. */
  pid: number | null;
}

/**
 * The operation in progress now: the lifecycle journal while its process holds the lock; with
 * `orLock`, also the lock held without a journal (a start in preflight, or the network follower's
 * brief look: lifecycle/follow.ts). Null when none; never throws.
 */
export async function operationNow(fs: HostFs, orLock = false): Promise<OperationNow | null> {
  const j = await liveOperation(fs).catch(() => null);
  if (j) return { op: j.op, step: j.step, pid: j.pid };
  if (!orLock) return null;
  const note = await lockHolderNote(fs).catch(() => null);
  const held = (await lockHeld(fs).catch(() => false)) || (note !== null && (await lockHeldBy(fs, note).catch(() => false)));
  return held ? { op: null, step: null, pid: note } : null;
}

/** "a k2s-dns start (PID 812, step \"service\")", or for a lock alone "a k2s-dns operation (PID 812)". */
export function operationWords(o: OperationNow): string {
  const pid = o.pid !== null ? `PID ${o.pid}` : null;
  const step = o.step !== null ? `step "${o.step}"` : null;
  const inside = [pid, step].filter((x) => x !== null).join(', ');
  return `a k2s-dns ${o.op ?? 'operation'}${inside ? ` (${inside})` : ''}`;
}

/** "A k2s-dns start (PID 812, step \"service\")": operationWords at the start of a sentence. */
export function operationSentenceStart(o: OperationNow): string {
  const w = operationWords(o);
  return `${w[0]!.toUpperCase()}${w.slice(1)}`;
}

/**
 * What happens to a finding taken during an operation: the window runs the checks again by
 * itself when the operation ends (renderer/src/stores/diagnostics-follow.ts); the CLI's doctor
 * runs once, so it says to run it again.
 */
export function checkedAgainWords(frontEnd: FrontEnd): string {
  return frontEnd === 'gui' ? 'The checks run again by themselves when it is done.' : `Run ${codeSpan(cliCommand('doctor'))} again when it is done.`;
}
