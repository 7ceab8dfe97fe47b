/**
 * Ending the two companions of the proxy — the network follower and the exact query log's
 * capture — the same way for a normal stop/uninstall and for the recovery of an interrupted
 * start or stop (recover.ts): a rolled-back start must not leave either running as root.
 */
import type { LifecycleDeps } from './deps';
import type { ResultWarning } from '../../../shared/lifecycle-events';
import { LifecycleError, messageOf } from './errors';
import { acquireLock, lockHolderNote, type HeldLock } from './lock';

/**
 * Ends the network follower (no error when none runs). Called before the resolver is restored
 * (recover, uninstall, a stop on hosts without systemd or without the lock), or after a systemd
 * stop's proxy stop job that was to end it failed: a follower left running once the lock is
 * free would take the restore for a new network resolver. While the lock is held its look gets
 * `busy`. `opts` goes to Follower.stop (unlinkWithProxy: stop and uninstall unlink it with the proxy).
 */
export async function stopFollower(deps: LifecycleDeps, warnings: ResultWarning[], opts?: { unlinkWithProxy?: boolean }): Promise<void> {
  if (!deps.follower) return;
  await deps.follower.manager.stop(opts).catch((err: unknown) => warnings.push({ code: 'FOLLOW_NOT_STOPPED', message: `The network follower did not stop (${messageOf(err)}).` }));
}

/**
 * Ends the exact query log's companion (it drains its parser first; no error when none runs).
 * stop runs it alongside the proxy's stop, signalling only once the proxy has stopped (teardown's
 * `afterProxy`, `after`), so the last rows are written; uninstall before, while its unit and
 * pidfile still exist to stop and disable it by. `opts` goes to CaptureCompanion.stop
 * (stoppedWithProxy: systemd's stop of the proxy stopped and unlinked it; after: that stop).
 */
export async function stopCapture(deps: LifecycleDeps, warnings: ResultWarning[], opts?: { stoppedWithProxy?: boolean; after?: Promise<unknown> }): Promise<void> {
  if (!deps.capture) return;
  await deps.capture.manager.stop(opts).catch((err: unknown) => warnings.push({ code: 'CAPTURE_NOT_STOPPED', message: `The exact query log companion did not stop (${messageOf(err)}).` }));
}

/** ms a start waits for a look of the network follower that holds the lifecycle lock (follow.ts: a look is one read of /etc/resolv.conf, a restart at most). */
export const FOLLOWER_LOOK_WAIT_MS = 3000;

/**
 * The lifecycle lock for start: when the running network follower holds it (a look in progress,
 * as right after a start, when the follower takes its first look), waited for, up to
 * FOLLOWER_LOOK_WAIT_MS, instead of refusing the start BUSY — a start right after a start was
 * refused 2–3 times in 12. Any other holder, or a look that lasts longer, is BUSY as before.
 * `take` is acquireLock as start calls it.
 */
export async function lockAfterFollowerLook(deps: LifecycleDeps, take: () => Promise<HeldLock>): Promise<HeldLock> {
  const busy = (err: unknown) => err instanceof LifecycleError && err.code === 'BUSY';
  const deadline = Date.now() + FOLLOWER_LOOK_WAIT_MS;
  for (;;) {
    try {
      return await take();
    } catch (err) {
      const follower = busy(err) && deps.follower?.manager.pid ? await deps.follower.manager.pid().catch(() => null) : null;
      if (follower === null || Date.now() > deadline) throw err;
      // The holder's note is written just after it locks: an empty one is looked at again.
      const holder = await lockHolderNote(deps.fs);
      if (holder !== null && holder !== follower) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/**
 * ms stop, uninstall and recover wait, after the follower's SIGTERM, for a follow in progress to
 * finish and let go of the lock (the engine's restart and its listeners, a second or two on a
 * busy host), before its SIGKILL: the supervised follower's stopWaitMs too (host/follower.ts).
 */
export const FOLLOW_END_WAIT_MS = 5000;

/**
 * The lifecycle lock for stop, uninstall and recover, without ending the follower unless it is the
 * holder. A follow in progress holds the lock for a moment (follow.ts) and its process ends on
 * SIGTERM once that follow is done (follow-main.ts), so when the lock's note (lock.ts) names the
 * running follower's PID, the follower is ended and the lock taken once it is free. On systemd
 * by a signal to its main process (Follower.kill), not a stop job: that job and the proxy's
 * restart the follow waits for would wait for each other (measured on the booted Debian 13 host:
 * 60 s, then the follow failed); a follow not done within `endWaitMs` (FOLLOW_END_WAIT_MS) is
 * SIGKILLed, the kernel frees its lock, and the stop restores the original the follow saved
 * first. Elsewhere Follower.stop (SIGTERM, SIGKILL after its own 5 s). Any other holder is
 * refused BUSY with nothing changed: the follower keeps running (a refused stop, exit 3,
 * changes nothing). Should the lock still be taken after the follower ended (someone else got
 * it in between), the follower is started again before the refusal is thrown. `followKilledAfterMs`:
 * `endWaitMs` when the lock came with that SIGKILL (the follow, its engine restart with it, cut
 * off), else null.
 */
export async function lockPastFollower(deps: LifecycleDeps, op: string, endWaitMs = FOLLOW_END_WAIT_MS): Promise<HeldLock & { followKilledAfterMs: number | null }> {
  const take = () => acquireLock(deps.fs, { goOnWithoutRoom: { mountinfo: () => deps.mountinfo(), op } });
  const busy = (err: unknown) => err instanceof LifecycleError && err.code === 'BUSY';
  const f = deps.follower;
  // The holder's note is written just after it locks and emptied as it lets go: an empty note
  // while the follower runs is looked at again for a moment (the lock may also come free).
  const deadline = Date.now() + 1000;
  let follower: number | null;
  for (;;) {
    try {
      return { ...(await take()), followKilledAfterMs: null };
    } catch (err) {
      if (!busy(err) || !f?.manager.pid) throw err;
      const holder = await lockHolderNote(deps.fs);
      follower = await f.manager.pid().catch(() => null);
      if (holder !== null && holder === follower) break;
      if (holder !== null || follower === null || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  /** The lock once free within `ms` (polled every 50 ms), else the last refusal; another holder's note ends the wait at once. */
  const takeWithin = async (ms: number): Promise<{ lock: HeldLock } | { refused: unknown }> => {
    const end = Date.now() + ms;
    for (;;) {
      try {
        return { lock: await take() };
      } catch (again) {
        if (!busy(again) || Date.now() > end) return { refused: again };
        const holder = await lockHolderNote(deps.fs);
        if (holder !== null && holder !== follower) return { refused: again };
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  let got: { lock: HeldLock } | { refused: unknown };
  let killed = false;
  if (f.manager.kill) {
    await f.manager.kill('SIGTERM').catch(() => undefined);
    got = await takeWithin(endWaitMs);
    // Still the follower's after endWaitMs: a follow that does not end (a restart that hangs).
    if ('refused' in got && busy(got.refused) && (await lockHolderNote(deps.fs)) === follower) {
      await f.manager.kill('SIGKILL').catch(() => undefined);
      killed = true;
      got = await takeWithin(1000);
    }
  } else {
    await f.manager.stop().catch(() => undefined); // still holding it: the retries below say BUSY
    got = await takeWithin(1000);
  }
  if ('lock' in got) return { ...got.lock, followKilledAfterMs: killed ? endWaitMs : null };
  await f.manager.start(f.argv).catch(() => undefined);
  throw got.refused;
}
