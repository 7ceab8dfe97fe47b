/**
 * The resolution path as the Topology panel draws it: host apps → /etc/resolv.conf →
 * k2s-dnsproxy listeners → CoreDNS / upstreams, each hop green or red from the latest probes.
 */
import type { QueryTarget } from '../../../shared/contract';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';

/**
 * One hop. `ok` null: not probed yet (or not in use). `idle`: not on the path right now (K2s DNS
 * is stopped), drawn grey, never red. `error` (or the idle note) is shown when the hop is clicked.
 */
export interface Hop {
  id: string;
  column: 'apps' | 'resolver' | 'proxy' | 'backend';
  label: string;
  detail: string;
  ok: boolean | null;
  error: string | null;
  idle?: boolean;
}

/** What a hop off the path says when clicked. */
export const NOT_IN_USE = 'not in use: K2s DNS is stopped';

/** True when the probe reached a nameserver at all (NXDOMAIN/REFUSED still prove the path works). */
function reached(r: QueryResult | undefined): boolean {
  return !!r && r.rcode !== 'TIMEOUT' && r.rcode !== 'ERROR';
}

/** Probe results by target id (`system`, `proxy`, `coredns`, or an upstream server). */
export type Probes = Record<string, QueryResult>;

/** True when a cluster-name probe got an answer. */
function answered(r: QueryResult | undefined): boolean {
  return !!r && r.rcode === 'NOERROR' && r.answers.length > 0;
}

/** Why a probe is red, one sentence. */
function why(r: QueryResult | undefined, what: string): string | null {
  if (!r) return null;
  if (answered(r)) return null;
  return `${what}: ${r.name} ${r.type} via ${r.server} gave ${r.rcode}${r.error ? ` (${r.error})` : ''}.`;
}

/** Builds the hops from the host status, the query targets and the probe results. */
export function buildTopology(status: HostDnsStatus | null, targets: readonly QueryTarget[], probes: Probes): Hop[] {
  const system = probes.system;
  const proxy = probes.proxy;
  const coredns = probes.coredns;
  const owner = status?.resolverOwner ?? null;
  const stopped = status !== null && status.state === 'stopped' && owner !== 'k2s' && owner !== 'foreign' && status.listeners.length === 0;
  if (stopped) return buildStoppedTopology(status, targets, probes);
  const resolverError =
    owner && owner !== 'k2s'
      ? `/etc/resolv.conf is ${owner === 'foreign' ? 'changed by another program' : 'the original'}: host apps do not use the K2s proxy${owner === 'foreign' ? '; stop and start again' : '; press Start'}.`
      : why(system, 'The system resolver cannot resolve cluster names');
  const hops: Hop[] = [
    { id: 'apps', column: 'apps', label: 'Host apps', detail: 'getaddrinfo / glibc', ok: system ? answered(system) : null, error: why(system, 'Host apps cannot resolve cluster names') },
    { id: 'resolver', column: 'resolver', label: '/etc/resolv.conf', detail: owner ? `owner: ${owner}` : 'unknown', ok: system || owner ? resolverError === null : null, error: resolverError },
  ];
  const listeners = status?.listeners ?? [];
  if (listeners.length === 0) {
    hops.push({ id: 'proxy', column: 'proxy', label: 'k2s-dnsproxy', detail: 'no listener', ok: status ? false : null, error: 'k2s-dnsproxy has no listener: K2s DNS is stopped; press Start.' });
  }
  for (const l of listeners) {
    hops.push({ id: `proxy-${l.address}:${l.port}`, column: 'proxy', label: 'k2s-dnsproxy', detail: `${l.address}:${l.port}`, ok: proxy ? answered(proxy) : null, error: why(proxy, 'The proxy cannot resolve cluster names') });
  }
  for (const s of status?.skippedListeners ?? []) {
    hops.push({ id: `skipped-${s.address}`, column: 'proxy', label: 'skipped listener', detail: s.address, ok: null, error: s.reason });
  }
  const core = targets.find((t) => t.id === 'coredns');
  hops.push({ id: 'coredns', column: 'backend', label: 'CoreDNS', detail: core?.server ?? status?.kubeDnsIp ?? 'unknown', ok: coredns ? answered(coredns) : null, error: why(coredns, 'CoreDNS does not answer') });
  hops.push(...upstreamHops(targets, probes));
  return hops;
}

/** Upstream hops: they only need to answer at all (NXDOMAIN/REFUSED still proves the path works). */
function upstreamHops(targets: readonly QueryTarget[], probes: Probes): Hop[] {
  return targets
    .filter((t) => !['system', 'proxy', 'coredns'].includes(t.id))
    .map((t) => {
      const r = probes[t.id];
      const ok = r ? reached(r) : null;
      return { id: `upstream-${t.id}`, column: 'backend', label: 'Upstream', detail: t.server, ok, error: ok === false && r ? `Upstream ${t.server} did not answer: ${r.error ?? r.rcode}.` : null };
    });
}

/**
 * K2s DNS stopped: host apps → /etc/resolv.conf (the user's own) → original upstreams is the
 * whole path, judged on its own (a cluster name giving NXDOMAIN is expected there); the proxy
 * and CoreDNS are off the path, so grey, not red.
 */
function buildStoppedTopology(status: HostDnsStatus, targets: readonly QueryTarget[], probes: Probes): Hop[] {
  const system = probes.system;
  const ok = system ? reached(system) : null;
  const unreachable = ok === false && system ? `Host apps cannot reach the nameservers in /etc/resolv.conf: ${system.name} via getaddrinfo gave ${system.rcode}${system.error ? ` (${system.error})` : ''}.` : null;
  const core = targets.find((t) => t.id === 'coredns');
  return [
    { id: 'apps', column: 'apps', label: 'Host apps', detail: 'getaddrinfo / glibc', ok, error: unreachable },
    { id: 'resolver', column: 'resolver', label: '/etc/resolv.conf', detail: `owner: ${status.resolverOwner}`, ok, error: unreachable },
    { id: 'proxy', column: 'proxy', label: 'k2s-dnsproxy', detail: 'no listener', ok: null, idle: true, error: null },
    { id: 'coredns', column: 'backend', label: 'CoreDNS', detail: core?.server ?? status.kubeDnsIp ?? 'unknown', ok: null, idle: true, error: null },
    ...upstreamHops(targets, probes),
  ];
}
