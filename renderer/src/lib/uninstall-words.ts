/** The Uninstall dialog's question: only what uninstall will do on this host now (walk 5 L8). */
import type { HostDnsStatus } from '../../../shared/types';
import { K2S_PATHS } from '../../../shared/k2s-paths';

/**
 * The sentence the Uninstall confirmation asks. It names restoring /etc/resolv.conf only while an
 * original is saved (`savedAt`), and stopping k2s-dnsproxy only while it is not `stopped` or has
 * a PID — uninstall's teardown (electron/core/lifecycle/teardown.ts) otherwise reports "Nothing was
 * saved" and "k2s-dnsproxy was not running". With the status unknown (null, or the saved state
 * unreadable by this user) it names every step, as before. The files removed are always named.
 */
export function uninstallQuestion(status: Pick<HostDnsStatus, 'state' | 'savedAt' | 'pid' | 'stateUnreadable'> | null): string {
  const unknown = status === null || !!status.stateUnreadable;
  const restores = unknown || status.savedAt !== null;
  const stops = unknown || status.state !== 'stopped' || status.pid !== null;
  const logs = `the proxy log (${K2S_PATHS.log}) and the exact query log (${K2S_PATHS.queryRows}), each with its rotated copy`;
  if (restores && stops) return `Restore the original /etc/resolv.conf, stop the k2s-dnsproxy service (on systemd hosts also remove its unit) and remove the proxy config, the saved state and ${logs}?`;
  if (restores) return `Restore the original /etc/resolv.conf (k2s-dnsproxy is not running) and remove the proxy config, the k2s-dnsproxy unit on systemd hosts, the saved state and ${logs}?`;
  if (stops) return `Stop the k2s-dnsproxy service (on systemd hosts also remove its unit; no original /etc/resolv.conf is saved, so none is restored) and remove the proxy config and ${logs}?`;
  return `K2s DNS is not running and no original /etc/resolv.conf is saved, so nothing is restored or stopped. Remove the K2s-owned files that are left: the proxy config, the k2s-dnsproxy unit on systemd hosts, ${logs}?`;
}
