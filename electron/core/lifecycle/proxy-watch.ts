/**
 * The network follower's watch of k2s-dnsproxy (systemd hosts): how the proxy's running process
 * ends. K2s DNS points the host at the proxy; a stop of the proxy by another program — K2s's own
 * `k2s stop` (it restores /etc/resolv.conf, then `systemctl stop`s the unit of the same name), a
 * user's `systemctl stop k2s-dnsproxy` — leaves the host with no DNS, so the follower then stops
 * K2s DNS too, the original back (follow-watch.ts). A crash (systemd restarts it, or gave up: status
 * says so) and a restart (a follow's, a user's `systemctl restart`) are no stop: the watch goes on.
 * `k2s-dns stop`, a reboot: the follower's unit is After= the proxy's, so systemd stops the
 * follower first (systemd.unit(5): stop jobs run in the reverse of the start order).
 */
import type { LifecycleDeps } from './deps';

/**
 * How often the watch looks at the proxy's main PID (ms): a read of /proc/PID, no process spawned;
 * also how long it waits before looking again when the unit names no main PID.
 */
export const PROXY_POLL_MS = 1000;

/** While systemd restarts a crashed proxy, or after it gave up on it (failed), the watch looks again after this long (ms; a `systemctl show` each time). */
export const PROXY_CRASHED_POLL_MS = 5000;

/**
 * How one watch of the proxy ended: `stopped` — not running, no auto-restart, no start or restart
 * job (stopped by someone); `stopping` — still running after the fast watch with a stop job
 * queued for it (a stop that waits for a unit ordered after it); `crashed` — not running, systemd
 * restarting it or given up; `replaced` — its process ended and the unit is being started again or
 * runs another process (a restart), or nothing was known: look again; `aborted` — the follower is being stopped.
 */
export type ProxyEnd = 'stopped' | 'stopping' | 'crashed' | 'replaced' | 'aborted';

/**
 * Waits until the proxy's process now running ends, and says how (ProxyEnd). One `systemctl show`
 * (services.status) at its start, then its main PID in /proc: every 50 ms while `fastUntil()`
 * (ms, deps.now(); after an original-back follow, follow.ts ORIGINAL_BACK_WAIT_MS) is ahead, else
 * every PROXY_POLL_MS; when such a fast watch ends with the process still there, one
 * `systemctl list-jobs` (services.pendingJob): a stop job → `stopping`. When the process is gone
 * or not running: the unit's job decides between `stopped` and `replaced` (a `systemctl restart`
 * has a restart or start job while its process is down). Never rejects.
 */
export async function proxyEnds(deps: Pick<LifecycleDeps, 'services' | 'processRunning' | 'sleep' | 'now'>, fastUntil: () => number, signal: AbortSignal): Promise<ProxyEnd> {
  /** The unit as it is now: how a proxy that is not running ended, or null while it runs (with its PID). */
  const unitNow = async (): Promise<ProxyEnd | { pid: number | null }> => {
    const st = await deps.services.status().catch(() => null);
    if (signal.aborted) return 'aborted';
    if (st && !st.running) {
      if (st.restart) return 'crashed';
      const job = await deps.services.pendingJob?.().catch(() => null);
      return job === null || job === undefined || job === 'stop' ? 'stopped' : 'replaced';
    }
    return { pid: st?.pid ?? null };
  };
  const now = await unitNow();
  if (typeof now === 'string') return now;
  if (!now.pid || !deps.processRunning) {
    await deps.sleep(PROXY_POLL_MS, signal);
    return signal.aborted ? 'aborted' : 'replaced';
  }
  // The fast watch whose end was asked about (a later original-back follow sets a new one).
  let asked = deps.now() < fastUntil() ? null : fastUntil();
  while (!signal.aborted && (await deps.processRunning(now.pid))) {
    const until = fastUntil();
    const fast = deps.now() < until;
    if (!fast && asked !== until) {
      asked = until;
      if ((await deps.services.pendingJob?.().catch(() => null)) === 'stop') return signal.aborted ? 'aborted' : 'stopping';
    }
    // Ended at the follower's stop (abortable-sleep.ts): the stop job waits for its exit.
    await deps.sleep(fast ? 50 : PROXY_POLL_MS, signal);
  }
  if (signal.aborted) return 'aborted';
  // Its process is gone: the unit says how (another process running in it: a restart).
  const then = await unitNow();
  return typeof then === 'string' ? then : 'replaced';
}
