/**
 * A failed DNS probe in words that match what happened: the errno the socket reported
 * (ENETUNREACH comes back at once from send(2) when the host has no route to the server's
 * network — not a timeout), or the deadline that passed. One wording for the verdict, the
 * Topology and Diagnostics. Pure module: no Node or DOM imports.
 */
import type { QueryResult } from './types';

/**
 * What a UDP query to a closed port gets: the server's host answers ICMP port unreachable, which a
 * connected socket reports as ECONNREFUSED (udp(7), ip(7) IP_RECVERR). One wording for the
 * listener, CoreDNS and upstream probes and getaddrinfo's (electron/core/probes/probe-lookup.ts).
 */
export const PORT_UNREACHABLE = 'nothing answers (port unreachable)';

/** A UDP query's error for a closed port: `127.0.0.1:53 nothing answers (port unreachable: ECONNREFUSED)`. */
export function portUnreachableError(server: string): string {
  return `${server} nothing answers (port unreachable: ECONNREFUSED)`;
}

/** True when a query's error is portUnreachableError's (a UDP query to a closed port). */
export function isPortUnreachable(error: string | undefined | null): boolean {
  return /port unreachable/i.test(error ?? '');
}

/** errno names in a probe's error, in the words shown (errno(3), ip(7) ICMP errors). */
const ERRNO_WORDS: Array<[RegExp, string]> = [
  [/port unreachable/i, PORT_UNREACHABLE],
  [/ENETUNREACH/, 'network unreachable (ENETUNREACH: this host has no route to it)'],
  [/EHOSTUNREACH/, 'host unreachable (EHOSTUNREACH)'],
  [/ECONNREFUSED|port unreachable|refused the connection/i, 'refused (nothing listens on its port)'],
  [/EACCES|EPERM/, 'blocked on this host (a firewall rule: EPERM/EACCES)'],
];

/** The errno words of `error`, or null when it names none of ERRNO_WORDS. */
export function errnoWords(error: string | undefined | null): string | null {
  if (!error) return null;
  for (const [re, words] of ERRNO_WORDS) if (re.test(error)) return words;
  return null;
}

/**
 * Why `r` got no DNS reply: the errno's words, else "no reply within N s" for a TIMEOUT
 * (`timeoutMs`, else the measured latency), else "failed: <error>".
 */
export function noReplyWords(r: Pick<QueryResult, 'rcode' | 'error' | 'latencyMs'>, timeoutMs?: number): string {
  const errno = errnoWords(r.error);
  if (errno) return errno;
  if (r.rcode === 'TIMEOUT') return `no reply within ${Math.round((timeoutMs ?? r.latencyMs) / 100) / 10} s`;
  return `failed: ${r.error ?? r.rcode}`;
}
