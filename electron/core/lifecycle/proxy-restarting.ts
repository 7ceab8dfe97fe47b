/**
 * Whether k2s-dnsproxy is being restarted right now, by the watchdog (hosts without systemd,
 * host/supervisor-script.ts) or by systemd (Restart=on-failure, before its start limit): the
 * one rule status says as "the watchdog is restarting it (restart N of 6)" and "restarting
 * (attempt N)", the window's Start waits on (renderer/src/lib/button-states.ts
 * restartingReason), and start refuses on (start.ts: a start then stopped the watchdog
 * mid-restart and started over).
 */
import type { LifecycleDeps } from './deps';
import { readWatchdogState, recordedProxyPid, watchdogAlive } from '../host/supervised-service';
import { MAX_RESTARTS } from '../host/supervisor-script';
import type { WatchdogState } from '../host/supervisor-script';
import { pidLive, restartInProgress } from '../host/watchdog-restart';
import { cliCommand } from '../../../shared/fix';
import { watchdogRestartWords, watchdogWaitWords } from '../../../shared/watchdog-backoff';

/** Who restarts the proxy now, and which restart. */
export type ProxyRestart = { by: 'watchdog'; restarts: number; max: number } | { by: 'systemd'; attempt: number };

/**
 * The watchdog's restart in progress (host/watchdog-restart.ts restartInProgress) while the
 * proxy is not running, from its state `dog` (readWatchdogState; null: none): null unless its
 * shell is alive.
 */
export async function watchdogRestarting(fs: LifecycleDeps['fs'], dog: WatchdogState | null): Promise<{ restarts: number } | null> {
  if (!(await watchdogAlive(fs))) return null;
  const pid = await recordedProxyPid(fs);
  return restartInProgress({ state: dog, alive: true, recordedPid: pid, recordedAlive: pid !== null && (await pidLive(pid)) });
}

/**
 * The restart in progress now, or null: the service runs, nothing restarts it (no live
 * watchdog, or it ended; systemd gave up), or K2s DNS was not started (`started` false: no saved
 * state, as status asks it).
 */
export async function proxyRestarting(deps: Pick<LifecycleDeps, 'fs' | 'services'>, started: boolean): Promise<ProxyRestart | null> {
  if (!started) return null;
  const service = await deps.services.status();
  if (service.running) return null;
  if (deps.services.kind === 'systemd') {
    const sd = service.restart ?? null;
    return sd && !sd.gaveUp ? { by: 'systemd', attempt: sd.attempt } : null;
  }
  const w = await watchdogRestarting(deps.fs, await readWatchdogState(deps.fs).catch(() => null));
  return w ? { by: 'watchdog', restarts: w.restarts, max: MAX_RESTARTS } : null;
}

/** Start's refusal while `r` runs: what happens, that nothing changed, and what to do (wait, then status). */
export function restartingRefusal(r: ProxyRestart): string {
  const who = r.by === 'watchdog' ? `the watchdog is restarting it (${watchdogRestartWords({ restarts: r.restarts, max: r.max })})` : `systemd is restarting it (attempt ${r.attempt})`;
  // The watchdog's wait is its back-off (up to 30 s); systemd's RestartSec= is 1 s (shared/systemd-unit.ts RESTART_POLICY).
  const wait = r.by === 'watchdog' ? `${watchdogWaitWords(r.restarts)}` : 'wait a few seconds';
  const after = r.by === 'watchdog' ? 'if the watchdog gives up, status says why and to start again' : 'if systemd gives up, status says why and what to run';
  return `k2s-dnsproxy is not running: ${who}; nothing changed. ${wait.charAt(0).toUpperCase()}${wait.slice(1)}, then run ${cliCommand('status')}: once it says running, K2s DNS runs as started; ${after}.`;
}
