/** How the query tester names and explains a target (card titles, the line under the form). */
import type { QueryTarget } from '../../../shared/contract';
import { splitServer } from './dig-command';

/** The fixed target ids; every other id is an upstream nameserver. */
const FIXED = ['system', 'proxy', 'coredns'];

/** `IP` for port 53, else `IP:PORT` (`[v6]:PORT`): how people write a nameserver. */
function shortServer(server: string): string {
  const { address, port } = splitServer(server);
  if (port === 53) return address;
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/** True when two servers (`IP`, `IP:PORT`, `[v6]:PORT`, `system`) are the same address and port. */
export function sameServer(a: string, b: string): boolean {
  if (a === b) return true;
  if (a === 'system' || b === 'system') return false;
  const x = splitServer(a);
  const y = splitServer(b);
  return x.address === y.address && x.port === y.port;
}

/** The target a result came from, matched by server (a result says `192.0.2.53:53`, the target may say `192.0.2.53`). */
export function targetOf(targets: readonly QueryTarget[], server: string): QueryTarget | null {
  return targets.find((t) => sameServer(t.server, server)) ?? null;
}

/** Card title: the backend's label for system/proxy/CoreDNS, `Upstream 192.0.2.53` for an upstream. */
export function targetTitle(target: QueryTarget | null, server: string): string {
  if (target && FIXED.includes(target.id)) return target.label;
  return `Upstream ${shortServer(target?.server ?? server)}`;
}

/**
 * One sentence on what the target is, shown under the form; null for the proxy (its zone route
 * is shown instead, since only the proxy routes by zone).
 */
export function targetDescription(target: QueryTarget): string | null {
  if (target.id === 'proxy') return null;
  if (target.id === 'system') return 'System resolver: getaddrinfo through nsswitch.conf and /etc/resolv.conf, exactly as host apps resolve (whatever /etc/resolv.conf points at now).';
  if (target.id === 'coredns') return `CoreDNS directly at ${shortServer(target.server)} (the kube-dns ClusterIP), bypassing the K2s proxy: answers cluster zones only as the cluster sees them.`;
  return `Upstream nameserver ${shortServer(target.server)} directly, bypassing the K2s proxy: the proxy forwards every non-cluster name here.`;
}
