import type { LifecycleDeps } from './deps';
import { readState } from '../host/resolver-state';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { cliCommand, shellWord } from '../../../shared/fix';

/** A place the query tester can ask: the system resolver, the proxy, CoreDNS, an upstream. */
export interface QueryTargetInfo {
  id: string;
  label: string;
  /** `system` or `IP:PORT`. */
  server: string;
}

/**
 * Targets from the saved state: system, K2s proxy (127.0.0.1:53), CoreDNS direct (the saved
 * kube-dns ClusterIP, else K2s's default 172.21.0.10), and each original upstream.
 */
export async function queryTargets(deps: LifecycleDeps): Promise<QueryTargetInfo[]> {
  const state = await readState(deps.fs).catch(() => null);
  const coredns = state?.kubeDnsIp ?? K2S_DEFAULTS.kubeDnsIp;
  return [
    { id: 'system', label: 'System resolver (getaddrinfo)', server: 'system' },
    { id: 'proxy', label: 'K2s proxy 127.0.0.1:53', server: '127.0.0.1:53' },
    { id: 'coredns', label: `CoreDNS direct ${coredns}`, server: `${coredns}:53` },
    ...(state?.upstreams ?? []).map((u) => ({ id: u, label: `Upstream ${u}`, server: u })),
  ];
}

/** Maps `system|proxy|coredns|IP[:PORT]` to a server string (`system` stays `system`). */
export async function resolveTarget(deps: LifecycleDeps, target: string): Promise<string> {
  if (target === 'system' || target === 'proxy' || target === 'coredns') {
    const t = (await queryTargets(deps)).find((x) => x.id === target)!;
    return t.server;
  }
  return target;
}

/**
 * The sentence `k2s-dns query --server coredns` adds when the address it asked is not one a start
 * discovered but K2s's default (K2S_DEFAULTS.kubeDnsIp, as queryTargets picks it): that it is a
 * guess, and why — no saved state (K2s DNS is not running here: a stop removes the state that
 * named the discovered address; the cluster may use another ClusterIP, and a host without K2s has
 * none), one that names no address, one that cannot be read (corrupt: status says why), or one
 * only root reads. `name`: the name asked (the root line repeats it). Null when the saved state
 * names the discovered address (that one was asked).
 */
export async function coreDnsGuess(deps: LifecycleDeps, name: string): Promise<string | null> {
  let unreadable = false;
  let damaged = false;
  const state = await readState(deps.fs).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    unreadable = code === 'EACCES' || code === 'EPERM';
    damaged = !unreadable;
    return null;
  });
  if (state?.kubeDnsIp) return null;
  const guess = `${K2S_DEFAULTS.kubeDnsIp} is K2s's default kube-dns address, a guess`;
  if (unreadable) return `${guess}: a start's saved state, which would name the cluster's, is readable by root only; as root, ${cliCommand(`query ${shellWord(name)} --server coredns`, true)} asks the discovered one where there is one.`;
  const why = damaged ? `the saved state, which would name the cluster's, cannot be read (${cliCommand('status')} says why)` : state ? 'the saved state names none' : 'no K2s DNS state is saved on this host (a start saves the address it discovers, a stop removes it)';
  return `${guess}: ${why}; ${cliCommand('zones')} shows the cluster's own (--server IP asks another).`;
}
