/**
 * How glibc picks among the nameservers of a resolv.conf (resolv.conf(5), glibc 2.36
 * resolv/res_send.c), as the proxy must reproduce it for names outside the cluster:
 * - the nameservers are asked in file order; the next one only when one times out, is
 *   unreachable, or answers SERVFAIL, NOTIMP or REFUSED — an NXDOMAIN or an answer is final;
 * - `options timeout:N`: seconds to wait for one nameserver (default RES_TIMEOUT 5, at most
 *   RES_MAXRETRANS 30); `attempts:N`: rounds over the list (default RES_DFLRETRY 2, at most
 *   RES_MAXRETRY 5); `rotate`: start each query at the next nameserver (round robin);
 * - a repeated option: the last one wins (res_init.c res_setoptions reads them in order).
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

/** The policy of a parsed resolv.conf's `options` (unknown or malformed options are ignored, as glibc does). */
export function upstreamPolicy(conf: Pick<ResolvConf, 'options'>): UpstreamPolicy {
  let timeoutS: number = GLIBC_RESOLVER.timeoutS;
  let attempts: number = GLIBC_RESOLVER.attempts;
  let order: UpstreamOrder = 'ordered';
  for (const o of conf.options) {
    const m = /^(timeout|attempts):(\d+)$/.exec(o);
    if (m) {
      const n = Number(m[2]);
      // res_init.c: `timeout:` above RES_MAXRETRANS is cut to it; `attempts:` likewise to RES_MAXRETRY.
      if (m[1] === 'timeout') timeoutS = Math.min(n, GLIBC_RESOLVER.maxTimeoutS);
      else attempts = Math.min(n, GLIBC_RESOLVER.maxAttempts);
    } else if (o === 'rotate') order = 'rotate';
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
  const isAttempts = (o: string) => /^attempts:\d+$/.test(o);
  const last = options.map(isAttempts).lastIndexOf(true);
  const out = options.flatMap((o, i) => (!isAttempts(o) ? [o] : i === last ? [wanted] : []));
  return last === -1 ? [...out, wanted] : out;
}
