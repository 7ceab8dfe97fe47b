/**
 * What the Start options show while K2s DNS runs (their fields are disabled then): the values the
 * running start uses, read from the host status, not this window's stored preference for the next
 * Start (walk5 L6: "Network changes: keep" was shown while follow ran). Pure: no DOM.
 */
import type { HostDnsStatus } from '../../../shared/types';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { kubeSwitchOfListeners } from '../../../shared/running-start';
import type { KubeSwitchMode } from './ui-state';

/** The running start's options as the Start options fields hold them; a field is absent when the status does not say. */
export interface RunningOptions {
  onNetworkChange?: 'follow' | 'keep';
  kubeSwitchMode?: KubeSwitchMode;
  /** With kubeSwitchMode `address`: the address it listens on. */
  kubeSwitchAddress?: string;
  /** The upstreams it forwards to, space-separated (whether given at Start or read from the saved resolver). */
  upstreamsText?: string;
}

/**
 * The running start's options from `status` (running or degraded with a saved state), else null:
 * KubeSwitch `none` when preflight skipped it for `--kubeswitch none` (electron/core/lifecycle/preflight.ts
 * planListeners), `address` for a listener other than 127.0.0.1 and K2s's default, `auto` otherwise
 * (K2s's default address, listened on or skipped until K2s creates it); nothing when the saved
 * state is unreadable (the listeners are not known then).
 */
export function runningOptions(status: HostDnsStatus | null): RunningOptions | null {
  if (!status || status.state === 'stopped' || status.state === 'starting' || status.state === 'stopping' || status.savedAt === null) return null;
  const out: RunningOptions = {};
  if (status.onNetworkChange) out.onNetworkChange = status.onNetworkChange;
  if (!status.stateUnreadable) {
    const kubeSwitch = kubeSwitchOfListeners(status);
    if (kubeSwitch === 'none') out.kubeSwitchMode = 'none';
    else if (kubeSwitch !== undefined && kubeSwitch !== K2S_DEFAULTS.kubeSwitchAddress) Object.assign(out, { kubeSwitchMode: 'address', kubeSwitchAddress: kubeSwitch });
    else out.kubeSwitchMode = 'auto';
    if (status.upstreams.length > 0) out.upstreamsText = status.upstreams.join(' ');
  }
  return out;
}
