import type { LifecycleDeps } from './deps';
import type { StopOptions } from './options';
import type { Operation, ResultEvent } from '../../shared/lifecycle-events';
import { EXIT } from '../../shared/lifecycle-events';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { captureResolver, restoreResolver, readState, removeState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { isManagedEntry } from './preflight';
import { LifecycleError, failed, refused, messageOf } from './errors';
import { StepReporter, type EventSink } from './reporter';
import { restartResolved } from './resolved';
import { acquireLock } from './lock';

/** K2s-owned files uninstall removes (DESIGN.md); the log is kept for troubleshooting. */
export const OWNED_FILES = [
  K2S_PATHS.unit,
  K2S_PATHS.proxyConfig,
  K2S_PATHS.dnsmasqConfig,
  K2S_PATHS.resolvedDropIn,
  K2S_PATHS.stateFile,
  K2S_PATHS.journal,
  K2S_PATHS.pidFile,
] as const;

/**
 * Stops K2s DNS: restore the saved resolver first (so the host never points at a dead proxy),
 * then stop the proxy, then forget the state. A resolver changed by someone else while K2s ran
 * is kept unless `onDrift: 'restore'`. Never throws; returns the result event.
 */
export async function stopDns(deps: LifecycleDeps, opts: StopOptions, sink: EventSink): Promise<ResultEvent> {
  return runTeardown(deps, 'stop', opts, sink);
}

/** Uninstall: everything stop does, then removes only the K2s-owned DNS files. Never throws. */
export async function uninstallDns(deps: LifecycleDeps, opts: StopOptions, sink: EventSink): Promise<ResultEvent> {
  return runTeardown(deps, 'uninstall', opts, sink);
}

async function runTeardown(deps: LifecycleDeps, op: Operation, opts: StopOptions, sink: EventSink): Promise<ResultEvent> {
  const r = new StepReporter(op, sink, () => deps.now());
  const done = (ok: boolean, exitCode: number, message: string, code?: string): ResultEvent => {
    r.result(ok, exitCode, message, code);
    return { type: 'result', op, ok, exitCode, message, at: Date.now(), ...(code ? { code } : {}) };
  };
  let release: (() => Promise<void>) | null = null;
  try {
    if (deps.uid() !== 0) throw refused('NOT_ROOT', `k2s-dns ${op} restores /etc/resolv.conf: run it as root (sudo k2s-dns ${op}) or from the desktop app.`);
    release = await acquireLock(deps.fs);
    const state = await readState(deps.fs);
    const notes: string[] = [];
    await r.run('restore', 'Restoring the saved /etc/resolv.conf', async () => {
      const current = await captureResolver(deps.fs, deps.exec);
      if (!state) {
        if (isManagedEntry(current)) {
          throw failed('NO_SAVED_ORIGINAL', `/etc/resolv.conf is K2s-owned but no saved original exists at ${K2S_PATHS.stateFile}; write your own resolv.conf back by hand.`);
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
        message = `Kept the /etc/resolv.conf someone else wrote while K2s ran (${changes.join('; ')}); pass --on-drift restore to put the saved original back.`;
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
    await removeState(deps.fs);
    if (op === 'uninstall') {
      await r.run('remove-files', 'Removing K2s-owned DNS files', async () => {
        const removed: string[] = [];
        for (const f of OWNED_FILES) {
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
    const what = op === 'uninstall' ? 'K2s DNS is uninstalled' : 'K2s DNS is stopped';
    return done(true, EXIT.ok, notes.length ? `${what}. ${notes.join(' ')}` : state ? `${what}; the host resolver is back as it was.` : `${what}; it was not running.`);
  } catch (err) {
    const le = err instanceof LifecycleError ? err : failed('INTERNAL', messageOf(err));
    return done(false, le.exitCode, le.message, le.code);
  } finally {
    if (release) await (release as () => Promise<void>)();
  }
}
