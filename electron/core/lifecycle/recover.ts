import type { LifecycleDeps } from './deps';
import { StepReporter, type EventSink } from './reporter';
import { interruptedOperation, clearJournal, readJournal, writeRecovery } from './journal';
import { teardownSteps } from './teardown';
import { lockPastFollower, stopCapture, stopFollower } from './companions';
import type { ResultWarning } from '../../../shared/lifecycle-events';
import { messageOf } from './errors';
import { readState } from '../host/resolver-state';
import { StateFileCorruptError } from '../host/state-store';

/**
 * Completes or rolls back an operation that was killed mid-way (its journal is left with a dead
 * pid). The caller holds the lifecycle lock and is root. An interrupted start is rolled back and
 * an interrupted stop completed — both are the idempotent teardown (restore the saved original
 * when the K2s-owned file is active, stop the proxy, drop the state) with both companions ended
 * (companions.ts: the follower first, the capture after the proxy; for uninstall before); an interrupted uninstall is completed. Records what it did for status and the UI.
 * @returns one sentence saying what was recovered, or null when nothing was interrupted
 */
export async function recoverInterrupted(deps: LifecycleDeps, sink: EventSink): Promise<string | null> {
  const j = await interruptedOperation(deps.fs, true);
  if (!j) return null;
  const r = new StepReporter(j.op, sink, () => deps.now());
  r.emit('recover', 'running', `A k2s-dns ${j.op} (PID ${j.pid}) was interrupted during "${j.step}"; ${j.op === 'start' ? 'rolling it back' : 'completing it'}.`);
  try {
    const op = j.op === 'uninstall' ? 'uninstall' : 'stop';
    const warnings: ResultWarning[] = [];
    await stopFollower(deps, warnings);
    if (op === 'uninstall') await stopCapture(deps, warnings);
    await teardownSteps(deps, op, {}, r, op === 'uninstall' ? undefined : (proxyStopped) => stopCapture(deps, warnings, { after: proxyStopped }));
    await clearJournal(deps.fs);
    const left = warnings.length ? ` ${warnings.map((w) => w.message).join(' ')}` : '';
    const outcome = `Recovered an interrupted ${j.op} (killed during "${j.step}"): ${j.op === 'start' ? 'rolled back' : 'completed'}; the original resolver is back and k2s-dnsproxy is stopped.${left}`;
    // The host is already safe: a full /var/lib must not turn a done recovery into a failure.
    await writeRecovery(deps.fs, { at: new Date(deps.now()).toISOString(), op: j.op, step: j.step, pid: j.pid, outcome, ok: true }).catch(() => undefined);
    r.emit('recover', 'done', outcome);
    return outcome;
  } catch (err) {
    const outcome = `Recovering the interrupted ${j.op} failed: ${messageOf(err)}`;
    await writeRecovery(deps.fs, { at: new Date(deps.now()).toISOString(), op: j.op, step: j.step, pid: j.pid, outcome, ok: false }).catch(() => undefined);
    r.emit('recover', 'failed', outcome);
    // Not retried at every call: the record tells status and the user what is left to do.
    await clearJournal(deps.fs).catch(() => undefined);
    throw err;
  }
}

/** Options of `k2s-dns recover`. */
export interface RecoverOptions {
  /**
   * Also when no interrupted operation is recorded: tear down whatever of ours is left (a
   * K2s-owned resolv.conf with its saved original, a proxy found by its command line, temp
   * files in /etc) — for hosts left behind by older versions or by hand. Default false.
   */
  force?: boolean;
  /**
   * Also when the state file is corrupt: restore the original it still holds and move it
   * aside (teardown). Set by `k2s-dns recover` itself, never by the implicit recovery that
   * other commands (status) run first: a read command must not stop K2s DNS. Default false.
   */
  corruptState?: boolean;
}

/**
 * `k2s-dns recover` (and any CLI call as root): takes the lock, then recoverInterrupted. A
 * follower holding the lock for a look is ended first (lockPastFollower). Throws BUSY (exit 3)
 * when another operation runs: its journal is not interrupted.
 * @returns what was recovered, or null when nothing was interrupted
 */
export async function recoverNow(deps: LifecycleDeps, sink: EventSink, opts: RecoverOptions = {}): Promise<string | null> {
  // Cheap exit without the lock: taking it, even briefly, could make a concurrent start BUSY.
  // A corrupt state file is recovered too (restore from what it still holds, move it aside).
  const corrupt = !!opts.corruptState && await readState(deps.fs).then(
    () => false,
    (err: unknown) => err instanceof StateFileCorruptError,
  );
  if (!opts.force && !corrupt && !(await readJournal(deps.fs))) return null;
  // A full /run must not keep the host on K2s DNS: recovery goes on without the lock then.
  // The follower looks at the resolver files under the lock (follow.ts), first right after it
  // starts — as the command after a start (status) begins: that look held the lock as status
  // took it, which refused the recovery as BUSY and left the journal. Recovery ends the follower
  // anyway, so it takes the lock past it, as stop does (companions.ts lockPastFollower).
  const lock = await lockPastFollower(deps, 'recover');
  const tail = (s: string | null) => (s && lock.withoutLock ? `${s} ${lock.withoutLock}` : s);
  try {
    const done = await recoverInterrupted(deps, sink);
    if (done || (!opts.force && !corrupt)) return tail(done);
    const r = new StepReporter('stop', sink, () => deps.now());
    const warnings: ResultWarning[] = [];
    await stopFollower(deps, warnings);
    const { notes, hadState } = await teardownSteps(deps, 'stop', lock.followKilledAfterMs === null ? {} : { followKilledAfterMs: lock.followKilledAfterMs }, r, (proxyStopped) => stopCapture(deps, warnings, { after: proxyStopped }));
    notes.push(...warnings.map((w) => w.message));
    await clearJournal(deps.fs);
    return tail(`${opts.force ? 'Forced recovery' : 'Recovered from a corrupt state file'}: ${notes.length ? notes.join(' ') : hadState ? 'the saved original resolver is back and k2s-dnsproxy is stopped.' : 'no saved original; k2s-dnsproxy and temp files of ours are gone.'}`);
  } finally {
    // systemd: the teardown unlinked the units on disk only; as after stop, the manager is asked
    // to read that (systemd-reload.ts settle) — else it still wants k2s-dnsproxy and its
    // companions, and `systemctl isolate multi-user.target` starts them again.
    await deps.services.reload?.settle();
    await lock.release();
  }
}
