import { createHash } from 'node:crypto';
import type { LifecycleDeps } from './deps';
import type { HostDnsStatus } from '../../shared/types';
import { captureResolver, readState, sameResolver } from '../host/resolver-state';
import { isManagedEntry } from './preflight';
import { interruptedOperation, readRecovery } from './journal';

/**
 * Reads host DNS status without changing anything (works without root where the files are
 * readable): state file, proxy service, and who owns /etc/resolv.conf now.
 */
export async function dnsStatus(deps: LifecycleDeps): Promise<HostDnsStatus> {
  const messages: string[] = [];
  const state = await readState(deps.fs).catch((err: unknown) => {
    messages.push((err as Error).message);
    return null;
  });
  const service = await deps.services.status();
  const current = await captureResolver(deps.fs, deps.exec);
  let owner: HostDnsStatus['resolverOwner'] = 'original';
  if (isManagedEntry(current)) {
    owner = 'k2s';
    if (state?.managedResolvConfSha256 && current.kind === 'file') {
      const sha = createHash('sha256').update(Buffer.from(current.contentBase64, 'base64')).digest('hex');
      if (sha !== state.managedResolvConfSha256) messages.push('/etc/resolv.conf has the K2s header but other content than K2s wrote.');
    }
  } else if (state && !sameResolver(current, state.resolvConf)) {
    owner = 'foreign';
    messages.push('/etc/resolv.conf was changed by someone else while K2s ran (NetworkManager or a DHCP client?); see k2s-dns diff.');
  }
  const interrupted = await interruptedOperation(deps.fs).catch(() => null);
  if (interrupted) {
    messages.push(`A k2s-dns ${interrupted.op} (PID ${interrupted.pid}) was interrupted during "${interrupted.step}"; press Stop or run sudo k2s-dns recover to put the original resolver back.`);
  }
  const recovery = await readRecovery(deps.fs).catch(() => null);
  if (recovery) messages.push(`${recovery.outcome} (${recovery.at})`);
  let status: HostDnsStatus['state'] = 'stopped';
  if (interrupted) status = 'degraded';
  else if (state || service.running || owner === 'k2s') {
    status = service.running && owner === 'k2s' && state ? 'running' : 'degraded';
    if (!service.running && state) messages.push('k2s-dnsproxy is not running although K2s DNS was started: run k2s-dns stop, then start.');
    if (service.running && !state) {
      messages.push(owner === 'k2s' ? `k2s-dnsproxy runs but the saved original is gone: write your own resolv.conf back by hand (a file with your nameserver, or the symlink your distribution uses, e.g. ln -s ../run/systemd/resolve/stub-resolv.conf), then run k2s-dns stop.` : 'k2s-dnsproxy runs but no start is recorded: run k2s-dns stop.');
    }
  }
  return {
    state: status,
    engine: state?.engine ?? null,
    engineVersion: null,
    listeners: state?.listeners ?? [],
    skippedListeners: state?.skippedListeners ?? [],
    resolverOwner: owner,
    upstreams: state?.upstreams ?? [],
    clusterDomain: state?.clusterDomain ?? null,
    kubeDnsIp: state?.kubeDnsIp ?? null,
    savedAt: state?.savedAt ?? null,
    savedBy: state?.writtenBy ?? null,
    pid: service.pid,
    messages,
  };
}
