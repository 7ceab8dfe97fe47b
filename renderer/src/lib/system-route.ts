/**
 * The Query tester's route line for the System resolver: where getaddrinfo's DNS query goes, read
 * from /etc/resolv.conf as glibc reads it (shared/drift-route.ts: the first nameserver decides,
 * none means 127.0.0.1) — through a k2s-dnsproxy listener or straight to the host's own
 * nameserver — in the hops the Topology panel draws (host apps → /etc/resolv.conf →
 * k2s-dnsproxy → CoreDNS / upstream). The listeners are the recorded start's whatever the
 * verdict (status.ts judges drift by the same ones), and a broken hop on the route is the one the
 * health verdict names (shared/health.ts healthVerdict), never a reason to drop the proxy from
 * the route (walk 10 M1: CoreDNS down read "not through the K2s proxy"). Pure module.
 */
import { driftRoute } from '../../../shared/drift-route';
import { hopTitle, type HealthReport } from '../../../shared/health';
import type { HostDnsStatus } from '../../../shared/types';
import type { QueryRoute } from './route';

/** Where the system resolver sends a query: `viaK2s` when it reaches k2s-dnsproxy; `words` names the hops up to there. */
export interface SystemRoute {
  viaK2s: boolean;
  /** `/etc/resolv.conf → nameserver 127.0.0.1 → k2s-dnsproxy (127.0.0.1:53)` or `/etc/resolv.conf → nameserver 192.0.2.53, not through the K2s proxy`. */
  words: string;
}

/**
 * The route of `resolvConf` (the current /etc/resolv.conf text) given the proxy's `listeners`
 * (empty while K2s DNS is stopped: then no nameserver is the proxy's).
 */
export function systemRoute(resolvConf: string, listeners: readonly { address: string; port: number }[]): SystemRoute {
  const r = driftRoute(resolvConf, listeners.map((l) => l.address));
  const first = r.nameservers[0]!;
  const ns = r.implicit ? `no nameserver line, so glibc asks ${first}` : `nameserver ${first}`;
  if (!r.viaK2s) return { viaK2s: false, words: `/etc/resolv.conf → ${ns}, not through the K2s proxy` };
  const listener = listeners.find((l) => l.address === first) ?? listeners[0]!;
  return { viaK2s: true, words: `/etc/resolv.conf → ${ns} → k2s-dnsproxy (${listener.address}:${listener.port})` };
}

/** No listener: K2s DNS is stopped. A constant, so a store selector returns the same array each call. */
const NONE: HostDnsStatus['listeners'] = [];

/**
 * The proxy's listeners the route is judged by: the recorded start's (status.listeners, read from
 * the state file) in every state but `stopped` — also `degraded`, which CoreDNS down, the API or a
 * dead proxy make it: /etc/resolv.conf still sends host apps to those addresses then. Empty
 * while stopped or when no status was read.
 */
export function routeListeners(status: Pick<HostDnsStatus, 'state' | 'listeners'> | null): HostDnsStatus['listeners'] {
  return status && status.state !== 'stopped' ? status.listeners : NONE;
}

/** What the verdict's hop does wrong, in the verdict's own words (shared/health.ts healthVerdict), by cause. */
const BREAK_WORDS: Partial<Record<HealthReport['verdict']['cause'], string>> = {
  'coredns-down': 'does not answer',
  'coredns-answer': 'gives no address',
  'coredns-loop': 'and k2s-dnsproxy forward to each other (a loop)',
  'proxy-down': 'does not answer',
  'proxy-routing': 'does not send the cluster zone to CoreDNS',
  'upstream-down': 'does not answer',
};

/**
 * The hop where the route through k2s-dnsproxy breaks, as the health verdict names it: "CoreDNS
 * (kube-dns 172.21.0.10:53) does not answer", "k2s-dnsproxy on 127.0.0.1:53 does not answer".
 * Only a hop on this `route` (a listener always; kube-dns for a name its zone sends to the
 * kube-dns address, or when the zone route is not shown: `route` null; an upstream for a name in
 * no zone). Null when the verdict is fine or off, names another hop, or there is no report.
 */
export function routeBreak(report: Pick<HealthReport, 'hops' | 'verdict'> | null, route: Pick<QueryRoute, 'zone' | 'upstream'> | null): string | null {
  if (!report || report.verdict.level === 'ok' || report.verdict.level === 'off') return null;
  const words = BREAK_WORDS[report.verdict.cause];
  const hop = report.hops.find((h) => h.id === report.verdict.hopId);
  if (!words || !hop) return null;
  const host = (target: string) => target.replace(/:\d+$/, '');
  const onRoute =
    hop.kind === 'listener' ||
    (hop.kind === 'kube-dns' && (route === null || (route.zone !== null && route.upstream.split(', ').some((u) => host(u) === host(hop.target))))) ||
    (hop.kind === 'upstream' && route !== null && route.zone === null);
  return onRoute ? `${hopTitle(hop)} ${words}` : null;
}
