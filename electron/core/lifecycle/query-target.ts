import type { LifecycleDeps } from './deps';
import { readState } from '../host/resolver-state';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';

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
