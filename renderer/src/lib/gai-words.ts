/**
 * What a getaddrinfo(3) result is called. getaddrinfo has no rcode: it returns addresses or an
 * EAI_* code (glibc netdb.h), so the Query tester labels its own result, never "NOERROR".
 * The backend's rcode for it (electron/core/probes/gai-lookup.ts gaiRcode) maps back one to one.
 */
import type { QueryResult } from '../../../shared/types';

/** getaddrinfo's code for each rcode the backend gives it (gaiRcode, reversed; SERVFAIL is EAI_AGAIN in glibc too). */
const EAI: Record<string, string> = { NXDOMAIN: 'EAI_NONAME', TIMEOUT: 'EAI_AGAIN', SERVFAIL: 'EAI_AGAIN', ERROR: 'EAI_FAIL' };

/**
 * The label of a result: `resolved` / `no address` / `EAI_NONAME` / `EAI_AGAIN` / `EAI_FAIL` for
 * getaddrinfo (the EAI_* code in its error text wins), the rcode for a DNS query.
 */
export function resultLabel(r: Pick<QueryResult, 'transport' | 'rcode' | 'answers' | 'error'>): string {
  if (r.transport !== 'getaddrinfo') return r.rcode;
  if (r.answers.length > 0) return 'resolved';
  const named = /^(EAI_[A-Z]+)\b/.exec(r.error ?? '')?.[1];
  if (named) return named;
  return r.rcode === 'NOERROR' ? 'no address' : (EAI[r.rcode] ?? r.rcode);
}

/** True when the result is a good answer (addresses, or NOERROR from a nameserver). */
export function resultOk(r: Pick<QueryResult, 'transport' | 'rcode' | 'answers'>): boolean {
  return r.transport === 'getaddrinfo' ? r.answers.length > 0 : r.rcode === 'NOERROR';
}

/**
 * The result's badge colour: 'ok' for addresses or records, 'warn' for a nameserver's NOERROR
 * with no record (NODATA, RFC 2308 §2.2: the name exists, but not with this type — e.g. what
 * AdGuard dnsproxy answered for a cluster name while CoreDNS was down), 'bad' otherwise.
 */
export function resultTone(r: Pick<QueryResult, 'transport' | 'rcode' | 'answers'>): 'ok' | 'warn' | 'bad' {
  if (!resultOk(r)) return 'bad';
  return r.answers.length > 0 ? 'ok' : 'warn';
}
