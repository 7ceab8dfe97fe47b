/**
 * The resolution path as the Topology panel draws it: host apps → /etc/resolv.conf →
 * k2s-dnsproxy listeners → CoreDNS / upstreams, each hop green or red from the latest probes.
 */
import type { QueryTarget } from '../../../shared/contract';
import type { HostDnsStatus, QueryResult } from '../../../shared/types';

/** One hop. `ok` null: not probed yet. `error` is shown when the hop is clicked. */
export interface Hop {
  id: string;
  column: 'apps' | 'resolver' | 'proxy' | 'backend';
  label: string;
  detail: string;
  ok: boolean | null;
  error: string | null;
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
  for (const t of targets.filter((t) => !['system', 'proxy', 'coredns'].includes(t.id))) {
    const r = probes[t.id];
    // Upstreams only need to answer at all: NXDOMAIN/REFUSED still proves the path works.
    const ok = r ? r.rcode !== 'TIMEOUT' && r.rcode !== 'ERROR' : null;
    hops.push({ id: `upstream-${t.id}`, column: 'backend', label: 'Upstream', detail: t.server, ok, error: ok === false && r ? `Upstream ${t.server} did not answer: ${r.error ?? r.rcode}.` : null });
  }
  return hops;
}
