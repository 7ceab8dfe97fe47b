/**
 * The Query tester's route line for the System resolver: where getaddrinfo's DNS query goes, read
 * from /etc/resolv.conf as glibc reads it (shared/drift-route.ts: the first nameserver decides,
 * none means 127.0.0.1) — through a k2s-dnsproxy listener or straight to the host's own
 * nameserver — in the hops the Topology panel draws (host apps → /etc/resolv.conf →
 * k2s-dnsproxy → CoreDNS / upstream). Pure module.
 */
import { driftRoute } from '../../../shared/drift-route';

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
