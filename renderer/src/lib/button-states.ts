/** Which lifecycle buttons are enabled, and why not (shown as tooltip AND visible text). */
import type { AppInfo } from '../../../shared/contract';
import type { Operation } from '../../../shared/lifecycle-events';
import type { HostDnsStatus } from '../../../shared/types';

/** State of one button: `reason` is one sentence when disabled, else null. */
export interface ButtonState {
  enabled: boolean;
  reason: string | null;
}

/** Start is refused without a kubeconfig: discovery needs the cluster (shown under the buttons). */
export const NO_KUBECONFIG_REASON = 'No kubeconfig found: start K2s first, or restart the app with npm start -- --kubeconfig PATH.';

/**
 * Why Start waits during drift (the lifecycle refuses it too: DRIFTED). It names no choice: the
 * banner names them as they are now (its restore's label follows the saved file, and a deleted
 * file has no "Keep"), so a second wording here could only fall out of step (walk 9 L1).
 */
export const DRIFT_START_REASON = 'Another program changed /etc/resolv.conf while K2s DNS ran: make the choice in the banner at the top first.';

/** Why Uninstall waits during drift: it stops K2s DNS too, and would keep their file silently. */
export const DRIFT_UNINSTALL_REASON = 'Another program changed /etc/resolv.conf while K2s DNS ran: make the choice in the banner at the top first, then uninstall.';

/**
 * True while K2s DNS runs with `onNetworkChange` follow and its network follower died (status
 * `follower.running` false, electron/core/lifecycle/status.ts): a Start then only restarts the
 * follower and keeps the saved original (electron/core/lifecycle/start.ts, walk5 M3).
 */
export function followerDown(status: HostDnsStatus | null): boolean {
  return status?.state === 'running' && status.follower?.running === false;
}

/** Start's label and title while it would only restart the network follower (followerDown). */
export const FOLLOWER_START = { label: 'Start (restarts the network follower)', title: 'K2s DNS runs but its network follower does not: Start restarts only the follower and keeps your saved original' } as const;

/**
 * Decides Start/Stop/Uninstall from host status, app capabilities and the running operation.
 * `noKubeconfig`: the cluster status is `no-kubeconfig` (the backend found none to use).
 * `startBlocked`: why start would be refused before it runs (lib/start-gates.ts startBlock), else null.
 */
export function buttonStates(status: HostDnsStatus | null, info: AppInfo | null, busy: Operation | null, noKubeconfig = false, startBlocked: string | null = null): Record<Operation, ButtonState> {
  const off = (reason: string): ButtonState => ({ enabled: false, reason });
  const on: ButtonState = { enabled: true, reason: null };
  if (info && !info.lifecycleSupported) {
    const r = off(info.reason ?? 'Start/stop is not supported on this host.');
    return { start: r, stop: r, uninstall: r };
  }
  if (busy) {
    const r = off(`Wait: ${busy} is still running (one operation at a time).`);
    return { start: r, stop: r, uninstall: r };
  }
  if (!status) {
    const r = off('Waiting for the host DNS status.');
    return { start: r, stop: r, uninstall: r };
  }
  if (status.state === 'starting' || status.state === 'stopping') {
    // An operation from the CLI or another window holds the lifecycle lock right now.
    const r = off(`Wait: K2s DNS is ${status.state}${status.operation ? ` (PID ${status.operation.pid}, step ${status.operation.step})` : ''}.`);
    return { start: r, stop: r, uninstall: r };
  }
  const active = status.state !== 'stopped' || status.savedAt !== null;
  // Drift: a Start now would have to pick which file is your original; the banner asks first.
  const drifted = status.resolverOwner === 'foreign' && status.savedAt !== null;
  return {
    start: followerDown(status) ? on : status.state === 'running' ? off('Already running: stop first to start again.') : drifted ? off(DRIFT_START_REASON) : noKubeconfig ? off(NO_KUBECONFIG_REASON) : startBlocked ? off(startBlocked) : on,
    stop: active ? on : off('Nothing to stop: K2s DNS is not running and no resolver is saved.'),
    // Uninstall also stops: during drift it would decide the file without the banner's choice.
    uninstall: drifted ? off(DRIFT_UNINSTALL_REASON) : on,
  };
}
