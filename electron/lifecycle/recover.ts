import type { LifecycleDeps } from './deps';
import { StepReporter, type EventSink } from './reporter';
import { interruptedOperation, clearJournal, writeRecovery } from './journal';
import { teardownSteps } from './teardown';
import { messageOf } from './errors';
import { acquireLock } from './lock';

/**
 * Completes or rolls back an operation that was killed mid-way (its journal is left with a dead
 * pid). The caller holds the lifecycle lock and is root. An interrupted start is rolled back and
 * an interrupted stop completed — both are the idempotent teardown (restore the saved original
 * when the K2s-owned file is active, stop the proxy, drop the state); an interrupted uninstall
 * is completed. Records what it did for status and the UI.
 * @returns one sentence saying what was recovered, or null when nothing was interrupted
 */
export async function recoverInterrupted(deps: LifecycleDeps, sink: EventSink): Promise<string | null> {
  const j = await interruptedOperation(deps.fs);
  if (!j) return null;
  const r = new StepReporter(j.op, sink, () => deps.now());
  r.emit('recover', 'running', `A k2s-dns ${j.op} (PID ${j.pid}) was interrupted during "${j.step}"; ${j.op === 'start' ? 'rolling it back' : 'completing it'}.`);
  try {
    await teardownSteps(deps, j.op === 'uninstall' ? 'uninstall' : 'stop', {}, r);
    await clearJournal(deps.fs);
    const outcome = `Recovered an interrupted ${j.op} (killed during "${j.step}"): ${j.op === 'start' ? 'rolled back' : 'completed'}; the original resolver is back and k2s-dnsproxy is stopped.`;
    await writeRecovery(deps.fs, { at: new Date(deps.now()).toISOString(), op: j.op, step: j.step, pid: j.pid, outcome, ok: true });
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

/**
 * `k2s-dns recover` (and any CLI call as root): takes the lock, then recoverInterrupted.
 * @returns what was recovered, or null when nothing was interrupted
 */
export async function recoverNow(deps: LifecycleDeps, sink: EventSink): Promise<string | null> {
  if (!(await interruptedOperation(deps.fs))) return null;
  const release = await acquireLock(deps.fs);
  try {
    return await recoverInterrupted(deps, sink);
  } finally {
    await release();
  }
}
