/** Which lifecycle buttons are enabled, and why not (shown as tooltip AND visible text). */
import type { AppInfo } from '../../../shared/contract';
import type { JournaledOperation } from '../../../shared/lifecycle-events';
import { statusFingerprint } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';
import { codeSpan } from '../../../shared/code-span';
import { watchdogRestartWords } from '../../../shared/watchdog-backoff';

/** State of one button: `reason` is one sentence when disabled, else null. */
export interface ButtonState {
  enabled: boolean;
  reason: string | null;
}

/** How Start's no-kubeconfig reason begins (noKubeconfigReason); isNoKubeconfigReason tests for it. */
const NO_KUBECONFIG_HEAD = 'No kubeconfig found: ';

/**
 * Why Start is refused without a kubeconfig (discovery needs the cluster; shown under the
 * buttons): start K2s, or restart the app with `command`, the line the backend names for how this
 * install runs (ClusterStatus.appKubeconfigCommand, from shared/fix.ts appKubeconfigCommand:
 * `k2s-dns app --kubeconfig PATH` installed, `npm start -- --kubeconfig PATH` in a checkout). A
 * backend that names none gets no guessed command: the Cluster card's message says how.
 */
export function noKubeconfigReason(command: string | null | undefined): string {
  return `${NO_KUBECONFIG_HEAD}start K2s first, or restart the app with ${command ? codeSpan(command) : 'a kubeconfig (the Cluster card says how)'}.`;
}

/** True when `reason` is Start's no-kubeconfig reason (noKubeconfigReason), whatever command it names. */
export function isNoKubeconfigReason(reason: string | null): boolean {
  return reason?.startsWith(NO_KUBECONFIG_HEAD) === true;
}

/**
 * Why Start waits during drift (the lifecycle refuses it too: DRIFTED). It names no choice: the
 * banner names them as they are now (its restore's label follows the saved file), so a second
 * wording here could only fall out of step (walk 9 L1). Nor what happened: the banner's title says
 * that, once (walk 12 M3: "another program changed /etc/resolv.conf" stood here too).
 */
export const DRIFT_START_REASON = 'Start waits for the choice in the banner at the top.';

/** Why Uninstall waits during drift: it stops K2s DNS too, and would keep their file silently. */
export const DRIFT_UNINSTALL_REASON = 'Uninstall waits for the choice in the banner at the top.';

/** Why Uninstall is off on a host without K2s DNS (status ownedFilesLeft false): it would remove nothing. */
export const NOTHING_TO_UNINSTALL_REASON = 'Nothing to uninstall: K2s DNS is not running, no resolver is saved and none of its files is on this host.';

/**
 * Why Start waits when /etc/resolv.conf was deleted (or left a dangling link: status.driftGone)
 * while K2s DNS ran: there is nothing of theirs to keep, so no choice, only Stop (walk 12 M2:
 * "make the choice in the banner" with nothing to choose). The banner says what Stop puts back.
 */
export const GONE_START_REASON = 'Start waits until you press Stop (the banner at the top says why).';

/** GONE_START_REASON for Uninstall. */
export const GONE_UNINSTALL_REASON = 'Uninstall waits until you press Stop (the banner at the top says why).';

/**
 * True when the host is as a start left it: the proxy runs and the K2s-owned /etc/resolv.conf is in
 * place with a start recorded — status `running`, also when the health verdict folded it into
 * `degraded` (shared/health.ts applyHealth: CoreDNS down, names not resolving). The report is then
 * stamped with the unfolded `running` status (reportFitsStatus). A start there changes nothing
 * (electron/core/lifecycle/preflight.ts `alreadyRunning`, walk 13 M2: six "already running" lines).
 */
export function runsAsStarted(status: HostDnsStatus | null): boolean {
  if (!status) return false;
  if (status.state === 'running') return true;
  return status.state === 'degraded' && status.health?.forStatus !== undefined && status.health.forStatus === statusFingerprint({ ...status, state: 'running' });
}

/**
 * True while K2s DNS runs with `onNetworkChange` follow and its network follower died (status
 * `follower.running` false, electron/core/lifecycle/status.ts): a Start then only restarts the
 * follower and keeps the saved original (electron/core/lifecycle/start.ts, walk5 M3).
 */
export function followerDown(status: HostDnsStatus | null): boolean {
  return runsAsStarted(status) && status?.follower?.running === false;
}

/** Start's label and title while it would only restart the network follower (followerDown). */
export const FOLLOWER_START = { label: 'Start (restarts the network follower)', title: 'K2s DNS runs but its network follower does not: Start restarts only the follower and keeps your saved original' } as const;

/**
 * Why Start waits while k2s-dnsproxy is being restarted (status `watchdogRestart`, or systemd's
 * `serviceRestart` before it gives up): Start would stop the watchdog and start over mid-restart,
 * as while running it would (walk 12 M1); null when nothing restarts it.
 */
export function restartingReason(status: HostDnsStatus): string | null {
  const w = status.watchdogRestart;
  if (w) return `Wait: the watchdog is restarting k2s-dnsproxy (${watchdogRestartWords(w)}).`;
  const sd = status.serviceRestart;
  if (sd && !sd.gaveUp) return `Wait: systemd is restarting k2s-dnsproxy (attempt ${sd.attempt}).`;
  return null;
}

/**
 * Decides Start/Stop/Uninstall from host status, app capabilities and the running operation.
 * `noKubeconfig`: Start's reason while the cluster status is `no-kubeconfig` (the backend found
 * none to use: noKubeconfigReason), else null.
 * `startBlocked`: why start would be refused before it runs (lib/start-gates.ts startBlock), else null.
 */
export function buttonStates(status: HostDnsStatus | null, info: AppInfo | null, busy: JournaledOperation | null, noKubeconfig: string | null = null, startBlocked: string | null = null): Record<JournaledOperation, ButtonState> {
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
  const restarting = restartingReason(status);
  // Drift: a Start now would have to pick which file is your original; the banner asks first.
  const drifted = status.resolverOwner === 'foreign' && status.savedAt !== null;
  // Deleted (or dangling): no choice to make, only Stop (walk 12 M2).
  const gone = drifted && !!status.driftGone;
  return {
    start: followerDown(status) ? on : runsAsStarted(status) ? off('Already running: stop first to start again.') : restarting ? off(restarting) : drifted ? off(gone ? GONE_START_REASON : DRIFT_START_REASON) : noKubeconfig ? off(noKubeconfig) : startBlocked ? off(startBlocked) : on,
    // A user who cannot see root's state is not told "no resolver is saved" (new-user walk: beside "cannot see whether" it read as a contradiction); the Saved original row says what is known.
    stop: active ? on : off(status.stateUnreadable ? 'Nothing to stop: K2s DNS is not running and does not own /etc/resolv.conf.' : 'Nothing to stop: K2s DNS is not running and no resolver is saved.'),
    // Uninstall also stops: during drift it would decide the file without the banner's choice.
    // Nothing runs, nothing is saved and none of its files is here: an uninstall would change nothing (and ask for root).
    uninstall: drifted ? off(gone ? GONE_UNINSTALL_REASON : DRIFT_UNINSTALL_REASON) : status.state === 'stopped' && status.savedAt === null && status.ownedFilesLeft === false ? off(NOTHING_TO_UNINSTALL_REASON) : on,
  };
}
