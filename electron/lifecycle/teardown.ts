import type { LifecycleDeps } from './deps';
import type { StopOptions } from './options';
import type { Operation } from '../../shared/lifecycle-events';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { captureResolver, restoreResolver, readState, removeState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { isManagedEntry } from './preflight';
import { failed } from './errors';
import { StepReporter, type EventSink } from './reporter';
import { restartResolved } from './resolved';
import { writeJournal, LAST_RECOVERY } from './journal';

/** K2s-owned files uninstall removes (DESIGN.md); the log is kept for troubleshooting. */
export const OWNED_FILES = [
  K2S_PATHS.unit,
  K2S_PATHS.proxyConfig,
  K2S_PATHS.dnsmasqConfig,
  K2S_PATHS.resolvedDropIn,
  K2S_PATHS.stateFile,
  K2S_PATHS.journal,
  LAST_RECOVERY,
  K2S_PATHS.pidFile,
  `${K2S_PATHS.pidFile}.argv0`,
] as const;

/** A reporter whose steps are journaled before they run (crash recovery, journal.ts). */
export function journaledReporter(deps: LifecycleDeps, op: Operation, sink: EventSink): StepReporter {
  const startedAt = new Date(deps.now()).toISOString();
  // Fault-injection hook for the crash tests (e2e/fault-matrix): a pause after each journal
  // write gives a kill -9 a defined step boundary to land on. Unset in normal use.
  const pauseMs = Number(process.env.K2S_DNS_STEP_PAUSE_MS ?? 0);
  return new StepReporter(op, sink, () => deps.now(), async (step) => {
    if (step === 'preflight') return;
    await writeJournal(deps.fs, { version: 1, op, step, pid: process.pid, startedAt, updatedAt: new Date(deps.now()).toISOString() });
    if (pauseMs > 0) await deps.sleep(pauseMs);
  });
}

/**
 * The steps of stop/uninstall without lock or journal cleanup: restore → stop-service →
 * (uninstall) remove-files. Idempotent, so recovery of any interrupted operation reuses it.
 * Throws LifecycleError when the resolver cannot be restored (the proxy is then left running).
 */
export async function teardownSteps(deps: LifecycleDeps, op: Operation, opts: StopOptions, r: StepReporter): Promise<{ notes: string[]; hadState: boolean }> {
  const state = await readState(deps.fs);
  const notes: string[] = [];
  await r.run('restore', 'Restoring the saved /etc/resolv.conf', async () => {
    const current = await captureResolver(deps.fs, deps.exec);
    if (!state) {
      if (isManagedEntry(current)) {
        throw failed('NO_SAVED_ORIGINAL', `/etc/resolv.conf is K2s-owned but no saved original exists at ${K2S_PATHS.stateFile}; write your own resolv.conf back by hand (a file with your nameserver, or the symlink your distribution uses, e.g. ln -s ../run/systemd/resolve/stub-resolv.conf), then run k2s-dns stop.`);
      }
      return { value: undefined, message: 'Nothing was saved: the resolver is not K2s-owned; left as it is.' };
    }
    let message: string;
    if (sameResolver(current, state.resolvConf)) {
      message = 'The resolver is already the saved original.';
    } else if (isManagedEntry(current) || opts.onDrift === 'restore') {
      const drifted = !isManagedEntry(current);
      await restoreResolver(deps.fs, state.resolvConf);
      const after = await captureResolver(deps.fs, deps.exec);
      if (!sameResolver(after, state.resolvConf)) {
        throw failed('RESTORE_MISMATCH', `After restore /etc/resolv.conf still differs from the saved original (${describeResolverChanges(state.resolvConf, after).join('; ')}); the original is kept in ${K2S_PATHS.stateFile}.`);
      }
      message = drifted ? 'Someone else had changed /etc/resolv.conf; restored the saved original anyway (--on-drift restore).' : `Restored the original saved at ${state.savedAt}, byte for byte.`;
    } else {
      const changes = describeResolverChanges(state.resolvConf, current);
      message = `Kept the /etc/resolv.conf someone else wrote while K2s ran (${changes.join('; ')}); the copy saved at start was discarded.`;
      notes.push(message);
    }
    if (state.resolvedDropIn || (await deps.fs.lstat(K2S_PATHS.resolvedDropIn))) {
      await deps.fs.remove(K2S_PATHS.resolvedDropIn);
      if (deps.services.kind === 'systemd') await restartResolved(deps);
      message += ` Removed ${K2S_PATHS.resolvedDropIn}.`;
    }
    return { value: undefined, message };
  });
  await r.run('stop-service', 'Stopping k2s-dnsproxy', async () => {
    const before = await deps.services.status();
    await deps.services.stop();
    return { value: undefined, message: before.running ? `Stopped k2s-dnsproxy${before.pid ? ` (PID ${before.pid})` : ''}.` : 'k2s-dnsproxy was not running.' };
  });
  // The original is back: only now may the saved copy go.
  await removeState(deps.fs);
  if (op === 'uninstall') {
    await r.run('remove-files', 'Removing K2s-owned DNS files', async () => {
      const removed: string[] = [];
      for (const f of OWNED_FILES) {
        if (f === K2S_PATHS.journal) continue; // the journal goes last, when the operation ends
        if (await deps.fs.lstat(f)) {
          await deps.fs.remove(f);
          removed.push(f);
        }
      }
      if (deps.services.kind === 'systemd' && removed.includes(K2S_PATHS.unit)) {
        await deps.exec.run('systemctl', ['daemon-reload'], { timeoutMs: 15_000 });
      }
      return { value: removed, message: removed.length ? `Removed ${removed.join(', ')}.` : 'No K2s-owned DNS files were left.', detail: { removed } };
    });
  }
  return { notes, hadState: state !== null };
}
