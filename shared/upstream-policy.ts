/**
 * How glibc picks among the nameservers of a resolv.conf (resolv.conf(5), glibc 2.36
 * resolv/res_send.c), as the proxy must reproduce it for names outside the cluster:
 * - the nameservers are asked in file order; the next one only when one times out, is
 *   unreachable, or answers SERVFAIL, NOTIMP or REFUSED — an NXDOMAIN or an answer is final;
 * - `options timeout:N`: seconds to wait for one nameserver (default RES_TIMEOUT 5, at most
 *   RES_MAXRETRANS 30); `attempts:N`: rounds over the list (default RES_DFLRETRY 2, at most
 *   RES_MAXRETRY 5); `rotate`: start each query at the next nameserver (round robin);
 * - a repeated option: the last one wins (res_init.c res_setoptions reads them in order);
 * - `timeout:`/`attempts:` are read by prefix and their value with atoi(3) (glibc 2.41
 *   resolv/res_init.c res_setoptions: `strncmp (cp, "timeout:", …)`, then
 *   `atoi (cp + sizeof ("timeout:") - 1)`), so `timeout:2.5` is 2 s, `timeout:x` is 0 (then
 *   the 1 s floor) and `attempts:3x` is 3.
 */
import type { ResolvConf } from './types';

/** Order of the default upstreams: `ordered` = glibc's default, `rotate` = `options rotate`. */
export type UpstreamOrder = 'ordered' | 'rotate';

/** The upstream selection a resolv.conf asks for. */
export interface UpstreamPolicy {
  order: UpstreamOrder;
  /** Wait for one nameserver, ms (`timeout:N` × 1000). */
  timeoutMs: number;
  /** Rounds over the nameserver list (`attempts:N`). */
  attempts: number;
}

/** glibc defaults and caps (resolv.h RES_TIMEOUT, RES_MAXRETRANS, RES_DFLRETRY, RES_MAXRETRY). */
export const GLIBC_RESOLVER = { timeoutS: 5, maxTimeoutS: 30, attempts: 2, maxAttempts: 5 } as const;

/**
 * C's atoi(3) as glibc builds it on LP64 Linux: `(int) strtol (s, NULL, 10)` — leading blanks,
 * an optional sign, then decimal digits up to the first other character; no digits is 0; a value
 * past `long` saturates (strtol) and is then cut to its low 32 bits (the int conversion).
 */
export function glibcAtoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d*)/.exec(s);
  const digits = m?.[2] ?? '';
  if (digits === '') return 0;
  const negative = m?.[1] === '-';
  // strtol saturates at LONG_MAX, or at LONG_MIN (-LONG_MAX - 1) for a negative value.
  const limit = (1n << 63n) - (negative ? 0n : 1n);
  let v = BigInt(digits);
  if (v > limit) v = limit;
  if (negative) v = -v;
  return Number(BigInt.asIntN(32, v));
}

/** The policy of a parsed resolv.conf's `options` (unknown options are ignored and values read with atoi, as glibc does). */
export function upstreamPolicy(conf: Pick<ResolvConf, 'options'>): UpstreamPolicy {
  let timeoutS: number = GLIBC_RESOLVER.timeoutS;
  let attempts: number = GLIBC_RESOLVER.attempts;
  let order: UpstreamOrder = 'ordered';
  for (const o of conf.options) {
    // res_init.c: `timeout:` above RES_MAXRETRANS is cut to it; `attempts:` likewise to RES_MAXRETRY.
    if (o.startsWith('timeout:')) timeoutS = Math.min(glibcAtoi(o.slice('timeout:'.length)), GLIBC_RESOLVER.maxTimeoutS);
    else if (o.startsWith('attempts:')) attempts = Math.min(glibcAtoi(o.slice('attempts:'.length)), GLIBC_RESOLVER.maxAttempts);
    // glibc matches every option name by prefix (strncmp over the name's length).
    else if (o.startsWith('rotate')) order = 'rotate';
  }
  // glibc waits at least one second per nameserver (res_send.c send_dg: `if (seconds <= 0) seconds = 1`).
  return { order, timeoutMs: Math.max(1, timeoutS) * 1000, attempts: Math.max(1, attempts) };
}

/**
 * The `options` for the K2s-owned resolv.conf, which lists one nameserver (the proxy): the
 * original options, with `attempts:` raised to attempts × `upstreams` + 1 (at most RES_MAXRETRY
 * 5) when there is more than one upstream. glibc asked N nameservers `attempts` rounds of
 * `timeout` each; through the proxy it asks one, `attempts` times: without this a client with
 * `attempts:1` gives up before the proxy has asked the second nameserver (the proxy fails over
 * after the same `timeout`; dnsmasq in strict order moves to the next server on a client's
 * retry). Every other token is kept in order; the new `attempts:` replaces the last one given.
 */
export function clientOptions(options: string[], upstreams: number): string[] {
  if (upstreams <= 1) return options;
  const { attempts } = upstreamPolicy({ options });
  // One round more than glibc made: the proxy answers a little after `timeout` when it fails over.
  const wanted = `attempts:${Math.min(GLIBC_RESOLVER.maxAttempts, attempts * upstreams + 1)}`;
  // Every token glibc reads as `attempts:` (prefix match), also `attempts:2.5`.
  const isAttempts = (o: string) => o.startsWith('attempts:');
  const last = options.map(isAttempts).lastIndexOf(true);
  const out = options.flatMap((o, i) => (!isAttempts(o) ? [o] : i === last ? [wanted] : []));
  return last === -1 ? [...out, wanted] : out;
}
