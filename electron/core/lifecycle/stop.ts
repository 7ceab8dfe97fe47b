import type { LifecycleDeps } from './deps';
import type { StopOptions } from './options';
import type { JournaledOperation, ResultEvent, ResultWarning } from '../../../shared/lifecycle-events';
import { EXIT } from '../../../shared/lifecycle-events';
import { LifecycleError, failed, refused, messageOf } from './errors';
import type { EventSink } from './reporter';
import { clearJournal, clearRecovery } from './journal';
import { recoverInterrupted } from './recover';
import { journaledReporter, teardownSteps } from './teardown';
import { lockPastFollower, stopCapture, stopFollower } from './companions';
import { asRootWays, cliCommand, resolverFileWays } from '../../../shared/fix';

/**
 * The fix closing stop's RESOLVER_DOWN warning: a nameserver that answers into /etc/resolv.conf in
 * this runtime's words (shared/fix.ts resolverFileWays: in the sandbox its wrapper's whole command
 * naming its network's nameserver — README "The sandbox" —, on a host the prose as root), and the
 * exit status, status's own.
 */
function resolverDownFix(): string {
  return `put a nameserver that answers into /etc/resolv.conf (${resolverFileWays()}; exit status ${EXIT.resolverDown}, as ${cliCommand('status')} gives now).`;
}
/** The end of stop's result when the saved original is back as it was (the sandbox's Ctrl-C line rewords it: e2e/support/sandbox-stop-line.ts). */
export const RESOLVER_BACK = 'the host resolver is back as it was';

/**
 * Stops K2s DNS: restore the saved resolver first (so the host never points at a dead proxy),
 * then stop the proxy, then forget the state. A resolver changed by someone else while K2s ran
 * is kept unless `onDrift: 'restore'` — or, with no `onDrift`, when keeping it would leave no
 * nameserver that answers (then the original is restored). Never throws; returns the result event.
 */
export async function stopDns(deps: LifecycleDeps, opts: StopOptions, sink: EventSink): Promise<ResultEvent> {
  return runTeardown(deps, 'stop', opts, sink);
}

/** Uninstall: everything stop does, then removes only the K2s-owned DNS files. Never throws. */
export async function uninstallDns(deps: LifecycleDeps, opts: StopOptions, sink: EventSink): Promise<ResultEvent> {
  return runTeardown(deps, 'uninstall', opts, sink);
}

async function runTeardown(deps: LifecycleDeps, op: JournaledOperation, opts: StopOptions, sink: EventSink): Promise<ResultEvent> {
  const journalNotes: string[] = [];
  const r = journaledReporter(deps, op, sink, journalNotes);
  const warnings: ResultWarning[] = [];
  const done = (ok: boolean, exitCode: number, message: string, code?: string): ResultEvent => {
    r.result(ok, exitCode, message, code, warnings);
    return { type: 'result', op, ok, exitCode, message, at: Date.now(), ...(code ? { code } : {}), ...(warnings.length ? { warnings } : {}) };
  };
  let release: (() => Promise<void>) | null = null;
  try {
    if (deps.uid() !== 0) throw refused('NOT_ROOT', `k2s-dns ${op} restores /etc/resolv.conf: run it ${asRootWays(op)}; or use the desktop app.`);
    // The lock first: a stop refused as BUSY (exit 3) changes nothing, the follower included. A
    // follow in progress holds the lock for a moment; lockPastFollower ends that follower then.
    // Restore first, bookkeeping second: a /run with no room for the lock file is reported, never a reason to stay on 127.0.0.1.
    const lock = await lockPastFollower(deps, op);
    release = lock.release;
    if (lock.withoutLock) warnings.push({ code: 'RUN_DIR_FULL', message: lock.withoutLock });
    // The follower cannot act on stop's restore while this lock is held: its look gets `busy` and
    // is retried later (follow-watch.ts), by which time it is stopped. systemd: a stop's one
    // `systemctl stop` of the proxy names it too (systemd-service.ts stop: a systemctl call less
    // before the restore), and its link goes with the proxy's (unit-links.ts unlinkUnits). Otherwise, and for
    // uninstall (its unit file goes), it is stopped here, before anything is restored.
    // Also without the lock (RUN_DIR_FULL): nothing would keep its look out then.
    const followerWithProxy = op === 'stop' && deps.services.kind === 'systemd' && !lock.withoutLock;
    // Run by the follower itself (K2s's own `k2s stop` stopped the proxy, follow-main.ts): it
    // is not stopped here, nor in the proxy's job (that would wait for this very process); it
    // ends once this stop returns, and its link goes with the proxy's.
    // Without systemd, a stop holding the lock asks it to stop (SIGTERM) once any recovery is
    // done, and waits for its exit alongside the restore and the proxy's stop (in stop-service,
    // and before the lock goes whatever fails): the lock keeps its look out meanwhile, as on
    // systemd, where it stops after the restore — its exit (a Node process's, 10–25 ms on the
    // 2-core test bed) is no longer waited for before the first step (issue #21).
    const followerAlongside = op === 'stop' && deps.services.kind !== 'systemd' && !lock.withoutLock && !opts.byFollower;
    if (!followerWithProxy && !followerAlongside && !opts.byFollower) await stopFollower(deps, warnings, { unlinkWithProxy: deps.services.kind === 'systemd' });
    const recovered = await recoverInterrupted(deps, sink);
    // After recoverInterrupted, which stops the follower itself when it recovers: never two stops at once.
    const followerStopped = followerAlongside ? stopFollower(deps, warnings, { unlinkWithProxy: false }) : null;
    // stop: the capture in the stop-service step, its processes read while the proxy stops and
    // signalled once it has (systemd too: the proxy's stop job leaves it out, captureAfter below),
    // so with no more traffic its drain (capture/pipeline.ts) ends at once and the last rows are
    // written; on systemd that drain is not waited for.
    // uninstall: before, while its unit and pidfile still exist to stop and disable it by.
    if (op === 'uninstall') await stopCapture(deps, warnings);
    const afterProxy = async (proxyStopped: Promise<void>) => {
      // systemd: the manager is asked to read the links the proxy's stop removed (settle,
      // systemd-reload.ts) as soon as that stop is done — its job finished and its links gone —
      // while the capture's files go and the state is cleared, not after the result (the
      // systemd-run, 10–15 ms on a booted Debian 13 host, was the last thing stop waited for;
      // issue #21). The settle at the end then asks only for links changed since. Uninstall has
      // no afterProxy: its remove-files step reloads after the unit files are gone.
      if (deps.services.reload) void proxyStopped.then(() => deps.services.reload?.settle(), () => undefined);
      await Promise.all([stopCapture(deps, warnings, { stoppedWithProxy: deps.services.kind === 'systemd', after: proxyStopped }), followerStopped]);
    };
    const teardownOpts = lock.followKilledAfterMs === null ? opts : { ...opts, followKilledAfterMs: lock.followKilledAfterMs };
    // systemd stop: the proxy's stop job leaves the capture out (captureAfter), so it does not wait
    // for the capture's drain (60–110 ms on the booted Debian 13 host); afterProxy's stopCapture
    // sends the companion its SIGTERM once the proxy has stopped, and its drain ends after the result.
    const steps = await teardownSteps(deps, op, teardownOpts, r, op === 'uninstall' ? undefined : afterProxy, op === 'stop' && deps.services.kind === 'systemd')
      .catch(async (err: unknown) => {
        // The proxy's stop job that was to end the follower failed (no bus, a fork failure) or never
        // ran: ended on its own now, before the lock goes, so its next look cannot take a restored
        // original for a new network file.
        if (followerWithProxy && !opts.byFollower) await stopFollower(deps, warnings, { unlinkWithProxy: true });
        throw err;
      })
      // The follower asked to stop alongside: gone before the lock goes, also when a step failed (stopFollower never rejects).
      .finally(() => followerStopped);
    for (const n of journalNotes) warnings.push({ code: 'STATE_DIR_FULL', message: n });
    // A kept file a user could write (walk 11 L8): said as a warning with its fix, not only as "mode 0644 → 0666".
    if (steps.keptWritable) warnings.push({ code: 'KEPT_RESOLV_CONF_WRITABLE', message: steps.keptWritable });
    const notes = [...steps.notes, ...journalNotes, ...(lock.withoutLock ? [lock.withoutLock] : [])];
    const hadState = steps.hadState;
    await clearJournal(deps.fs);
    await clearRecovery(deps.fs);
    const what = op === 'uninstall' ? 'K2s DNS is uninstalled' : 'K2s DNS is stopped';
    const head = recovered ? `${recovered} ` : '';
    // Done as asked, yet the host is left without DNS: a warning with status's own exit 5, so a
    // script that checks stop's exit status learns what `k2s-dns status` says right after (walk 9 M2).
    if (steps.noDns) {
      warnings.push({ code: 'RESOLVER_DOWN', message: `No name resolves on this host now: ${steps.noDns}; ${resolverDownFix()}` });
    }
    // A file whose nameservers are not the proxy's is judged by asking them, as status right after
    // does (resolver-down-check.ts): a kept or restored file whose nameservers do not answer (breaker 10 M3).
    // Only a file start did not check (teardown.ts leftUnverified): start's own original costs no probe.
    // Loaded only then: the health probes are no part of a plain stop's start-up (scripts/stop-imports.test.ts).
    const checked = !steps.noDns && hadState && steps.leftUnverified ? await (await import('./resolver-down-check')).resolverDownNow(deps) : null;
    if (checked) {
      warnings.push({ code: 'RESOLVER_DOWN', message: `${checked} (checked right after this ${op}, as ${cliCommand('status')} checks); ${resolverDownFix()}` });
    }
    return done(true, steps.noDns || checked ? EXIT.resolverDown : EXIT.ok, head + (notes.length ? `${what}. ${notes.join(' ')}` : hadState ? `${what}; ${RESOLVER_BACK}.` : steps.stoppedProxy !== null ? `${what}: k2s-dnsproxy${steps.stoppedProxy === true ? '' : ` (PID ${steps.stoppedProxy})`} ran without a saved original and is stopped; /etc/resolv.conf was not K2s-owned and is left as it is.` : `${what}; it was not running.`));
  } catch (err) {
    const le = err instanceof LifecycleError ? err : failed('INTERNAL', messageOf(err));
    // A failure we caught is not a crash: drop the journal so the next call does not "recover"
    // (retry) the same failing step forever. Each step leaves the host consistent on failure.
    if (release) await clearJournal(deps.fs).catch(() => undefined);
    return done(false, le.exitCode, journalNotes.length ? `${le.message} ${journalNotes.join(' ')}` : le.message, le.code);
  } finally {
    // systemd: the manager reads the links this stop changed, not waited for (systemd-reload.ts).
    await deps.services.reload?.settle();
    if (release) await (release as () => Promise<void>)();
  }
}
