import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { monotonicMs } from './monotonic';
import type { QueryResult } from '../../../shared/types';

/** getaddrinfo(3) as node:dns `lookup` with `{ all: true }` exposes it (libuv thread pool, glibc, NSS). */
export type LookupAll = (name: string, cb: (err: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void) => void;

/** The real getaddrinfo, AF_UNSPEC, no AI_ADDRCONFIG (a namespace with only loopback still gets answers). */
export const nodeLookupAll: LookupAll = (name, cb) => dnsLookup(name, { all: true, family: 0, hints: 0 }, cb);

/**
 * getaddrinfo error codes in DNS terms (glibc netdb.h; node maps EAI_NONAME and EAI_NODATA to
 * ENOTFOUND, lib/internal/errors.js `dnsException`):
 * - ENOTFOUND (EAI_NONAME/EAI_NODATA): a nameserver said the name does not exist → NXDOMAIN;
 * - EAI_AGAIN: temporary failure — no nameserver answered in time, or one answered SERVFAIL
 *   (glibc res_query maps both to TRY_AGAIN) → TIMEOUT, never NXDOMAIN;
 * - EAI_FAIL: a non-recoverable failure (e.g. REFUSED) → ERROR.
 */
export function gaiRcode(code: string | undefined): { rcode: string; error: string } {
  switch (code) {
    case 'ENOTFOUND':
      return { rcode: 'NXDOMAIN', error: 'EAI_NONAME: the nameserver says the name does not exist' };
    case 'EAI_AGAIN':
      return { rcode: 'TIMEOUT', error: 'EAI_AGAIN: temporary failure — no nameserver answered in time, or one answered SERVFAIL' };
    case 'EAI_FAIL':
      return { rcode: 'ERROR', error: 'EAI_FAIL: non-recoverable failure (a nameserver refused the query?)' };
    default:
      return { rcode: 'ERROR', error: `getaddrinfo failed: ${code ?? 'unknown error'}` };
  }
}

/**
 * The least time glibc waits for a nameserver before it gives up on it, ms: one second per try
 * even with `options timeout:0` (glibc resolv/res_send.c send_dg: "if (seconds <= 0) seconds =
 * 1"). An EAI_AGAIN sooner than this timed nothing out: a nameserver answered SERVFAIL, or none
 * could be reached (a closed port refuses at once).
 */
export const GAI_LEAST_TIMEOUT_MS = 1000;

/** The EAI_AGAIN error text for a lookup that returned in `latencyMs`: before GAI_LEAST_TIMEOUT_MS it names no timeout (walk 18 M4). */
export function eaiAgainError(latencyMs: number): string {
  return latencyMs < GAI_LEAST_TIMEOUT_MS
    ? `EAI_AGAIN: temporary failure in ${latencyMs} ms, sooner than any resolver timeout — a nameserver answered SERVFAIL, or none could be reached`
    : gaiRcode('EAI_AGAIN').error;
}

/**
 * True for a getaddrinfo result that is EAI_AGAIN (rcode TIMEOUT, the shared rcode set's word for
 * "no usable answer", which the verdict and the hops read) returned before GAI_LEAST_TIMEOUT_MS:
 * printed as a temporary failure, not as TIMEOUT (electron/cli/print.ts formatQuery).
 */
export function isFastTemporaryFailure(r: { transport: string; rcode: string; latencyMs: number; error?: string }): boolean {
  return r.transport === 'getaddrinfo' && r.rcode === 'TIMEOUT' && r.latencyMs < GAI_LEAST_TIMEOUT_MS && (r.error ?? '').startsWith('EAI_AGAIN');
}

/**
 * Resolves `name` exactly as host programs do (getaddrinfo through NSS) and reports the
 * addresses as A/AAAA answers, or the failure with its EAI_* code named (gaiRcode). A lookup
 * still running after `timeoutMs` ms is TIMEOUT (glibc may wait resolv.conf `timeout`×`attempts`
 * per nameserver; its thread finishes in the background). Never throws.
 */
export function gaiLookup(name: string, timeoutMs = 8000, lookupAll: LookupAll = nodeLookupAll): Promise<QueryResult> {
  const started = monotonicMs();
  const base = { name, type: 'A' as const, server: 'system', transport: 'getaddrinfo' as const };
  const latency = () => Math.round((monotonicMs() - started) * 1000) / 1000;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ...base, rcode: 'TIMEOUT', answers: [], latencyMs: latency(), error: `getaddrinfo did not return in ${timeoutMs} ms: the nameservers in /etc/resolv.conf do not answer` }), timeoutMs);
    lookupAll(name, (err, addresses) => {
      clearTimeout(timer);
      if (err) {
        const ms = latency();
        resolve({ ...base, rcode: gaiRcode(err.code).rcode, answers: [], latencyMs: ms, error: err.code === 'EAI_AGAIN' ? eaiAgainError(ms) : gaiRcode(err.code).error });
        return;
      }
      const seen = new Set<string>();
      const answers = addresses
        .filter((a) => !seen.has(a.address) && seen.add(a.address))
        .map((a) => ({ name, type: a.family === 6 ? 'AAAA' : 'A', ttl: null, data: a.address }));
      resolve({ ...base, rcode: 'NOERROR', answers, latencyMs: latency() });
    });
  });
}

/**
 * Pays now what a process's first getaddrinfo costs its own thread before it reaches the thread
 * pool, so that it is not paid later on a path that waits for it (start warms while the proxy
 * starts; verify then looks a name up): node:dns `lookup` first checks whether the name is an
 * IP literal (node:net isIP), whose IPv4 and IPv6 regular expressions V8 compiles at their first
 * use, ~4 ms of the thread on this project's test machines (measured): ~3 ms at the first call
 * (bytecode) and ~1 ms at the second (V8 tiers a regular expression up to machine code on its
 * next run), so it is run twice here and verify's lookup finds both done. The thread pool and NSS
 * are not warmed: any real lookup may leave the host (without /etc/hosts even `localhost` goes to
 * the nameservers, and the exact query log would show it). Never throws.
 */
export function warmLookup(): void {
  isIP('localhost');
  isIP('localhost');
}
