/**
 * A failed DNS probe in words that match what happened: the errno the socket reported
 * (ENETUNREACH comes back at once from send(2) when the host has no route to the server's
 * network — not a timeout), or the deadline that passed. One wording for the verdict, the
 * Topology and Diagnostics. Pure module: no Node or DOM imports.
 */
import type { QueryResult } from './types';

/**
 * What a UDP query to a closed port gets: the server's host answers ICMP port unreachable, which a
 * connected socket reports as ECONNREFUSED (udp(7), ip(7) IP_RECVERR): the host is there, nothing
 * listens on that port, so the query is refused. One wording for the listener, CoreDNS and
 * upstream probes and getaddrinfo's (electron/core/probes/probe-lookup.ts), after the server
 * (`192.0.2.53:53 refuses: …`); never "nothing answers" beside "refused" (new user, session 30).
 */
export const PORT_UNREACHABLE = 'refuses: nothing listens on its port (ICMP port unreachable)';

/** A UDP query's error for a closed port: `127.0.0.1:53 refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)`. */
export function portUnreachableError(server: string): string {
  return `${server} refuses: nothing listens on its port (ICMP port unreachable: ECONNREFUSED)`;
}

/** True when a query's error is portUnreachableError's (a UDP query to a closed port). */
export function isPortUnreachable(error: string | undefined | null): boolean {
  return /port unreachable/i.test(error ?? '');
}

/**
 * errno names in a probe's error, in the words shown: what it means on this host and the fix
 * (errno(3); ip(7) ICMP errors; connect(2) on a datagram socket, ipv6(7)). Measured with Node's
 * dgram in a network namespace: EADDRNOTAVAIL for `fd00::53` or `::1` with no IPv6 address up
 * (loopback down), EINVAL for `fe80::1` without `%interface`; EAFNOSUPPORT is what socket(2)
 * gives for IPv6 on a kernel booted with ipv6.disable=1.
 */
const ERRNO_WORDS: Array<[RegExp, string]> = [
  [/port unreachable/i, 'refused: nothing listens on its port (ICMP port unreachable)'],
  [/ENETUNREACH/, 'network unreachable (ENETUNREACH: this host has no route to it)'],
  [/EHOSTUNREACH/, 'host unreachable (EHOSTUNREACH)'],
  [/EADDRNOTAVAIL/, 'no address to send from (EADDRNOTAVAIL: this host has no address of that family up, e.g. no IPv6 address; use a nameserver it can reach or bring the interface up)'],
  [/EINVAL/, 'not an address this host can send to (EINVAL: a link-local fe80:: address needs its interface, e.g. fe80::1%eth0)'],
  [/EAFNOSUPPORT/, 'address family not supported (EAFNOSUPPORT: IPv6 is disabled on this host; use an IPv4 nameserver)'],
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

/**
 * The one headline for a DNS server that gives no reply (issue 20, one message per fact): a
 * server whose port is closed is refused at once (ICMP port unreachable) or, past the kernel's
 * ICMP rate limit (icmp_ratelimit, icmp_msgs_per_sec in the kernel's ip-sysctl documentation),
 * silent until the deadline — back-to-back probes of the same down CoreDNS read alternately one
 * or the other. Both are this one fact; which one is the secondary detail (silenceDetail).
 */
export const DOES_NOT_ANSWER = 'does not answer';

/**
 * The clause said after a silent CoreDNS hop's DOES_NOT_ANSWER line (electron/core/doctor/hop-line.ts),
 * so a user who runs status and doctor moments apart and reads `refused` in one and `no reply` in
 * the other knows it is one outage (new user, session 30): the kernel's ICMP rate limit, above.
 */
export const REFUSED_OR_SILENT = 'refused or no reply varies run to run: the kernel rate-limits ICMP';

/**
 * Which of the two ways a DNS server gave no reply, as the detail under DOES_NOT_ANSWER:
 * `refused: port unreachable` (rcode ERROR with a refusal, hop outcome `unreachable`) or
 * `no reply in N ms` (rcode TIMEOUT: the measured wait, ms). Null for any other result (a reply,
 * or an errno such as ENETUNREACH, which keeps its own words: errnoWords). The rcode and outcome
 * in the data stay as probed; only the words are one.
 */
export function silenceDetail(r: { rcode: string | null; error?: string | null; latencyMs: number | null; outcome?: string }): string | null {
  if (r.rcode === 'TIMEOUT') return `no reply in ${Math.round(r.latencyMs ?? 0)} ms`;
  const refused = r.outcome === 'unreachable' || (r.rcode === 'ERROR' && /ECONNREFUSED|port unreachable/i.test(r.error ?? ''));
  return refused ? 'refused: port unreachable' : null;
}

/** `172.21.0.10:53 does not answer (no reply in 1500 ms)` for a silent or refused `server`; null otherwise (silenceDetail). */
export function doesNotAnswerWords(server: string, r: Parameters<typeof silenceDetail>[0]): string | null {
  const detail = silenceDetail(r);
  return detail ? `${server} ${DOES_NOT_ANSWER} (${detail})` : null;
}
