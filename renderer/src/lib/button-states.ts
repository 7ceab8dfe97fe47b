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
export const NO_KUBECONFIG_REASON = 'No kubeconfig found: enter its path in Kubeconfig, or start K2s first.';

/**
 * Decides Start/Stop/Uninstall from host status, app capabilities and the running operation.
 * `noKubeconfig`: the cluster status is `no-kubeconfig` and the Kubeconfig field is empty.
 */
export function buttonStates(status: HostDnsStatus | null, info: AppInfo | null, busy: Operation | null, noKubeconfig = false): Record<Operation, ButtonState> {
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
  const active = status.state !== 'stopped' || status.savedAt !== null;
  return {
    start: status.state === 'running' ? off('Already running: stop first to start again.') : noKubeconfig ? off(NO_KUBECONFIG_REASON) : on,
    stop: active ? on : off('Nothing to stop: K2s DNS is not running and no resolver is saved.'),
    uninstall: on,
  };
}
