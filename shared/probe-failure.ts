/**
 * A failed DNS probe in words that match what happened: the errno the socket reported
 * (ENETUNREACH comes back at once from send(2) when the host has no route to the server's
 * network — not a timeout), or the deadline that passed. One wording for the verdict, the
 * Topology and Diagnostics. Pure module: no Node or DOM imports.
 */
import type { QueryResult } from './types';

/** errno names in a probe's error, in the words shown (errno(3), ip(7) ICMP errors). */
const ERRNO_WORDS: Array<[RegExp, string]> = [
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
