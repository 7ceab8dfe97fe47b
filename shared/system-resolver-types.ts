import type { QueryType } from './types';

/**
 * The query types the system resolver can be asked (electron/core/probes/system-lookup.ts):
 * A and AAAA through getaddrinfo(3), PTR of an IP through getnameinfo(3). Nothing else: host
 * programs resolve other types through a DNS library of their own, not NSS.
 */
export const SYSTEM_RESOLVER_TYPES: readonly QueryType[] = ['A', 'AAAA', 'PTR'];

/**
 * Why `type` cannot be asked of the system resolver, and what to ask instead, in words of no one
 * front end: systemQuery's ERROR (the app's "Compare across all targets" shows it in its System
 * resolver row). The CLI's usage error (exit 2) is systemTypeUsage.
 */
export function systemTypeRefusal(type: QueryType): string {
  return `The system resolver (getaddrinfo) answers only A/AAAA, and PTR for an IP; ask ${type} through the K2s proxy, CoreDNS or an upstream.`;
}

/** `k2s-dns query --type TYPE` with `--server system`: systemTypeRefusal naming the `--server` values that ask it. */
export function systemTypeUsage(type: QueryType): string {
  return `${systemTypeRefusal(type).replace(/\.$/, '')}: --server proxy, --server coredns or --server IP[:PORT].`;
}
