import { lookup as dnsLookup } from 'node:dns';
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
        resolve({ ...base, rcode: gaiRcode(err.code).rcode, answers: [], latencyMs: latency(), error: gaiRcode(err.code).error });
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
