/**
 * Compares the answer of an external name through the proxy with the upstream's direct answer:
 * the answer class alone let a hijacked route pass verify, so the addresses count
 * too. Pure logic.
 */
import type { QueryResult } from '../../../shared/types';

/** Answer class of a result: `answer`, `nodata`, `nxdomain`, or the rcode (RFC 2308 terms). */
export function answerClass(r: QueryResult): string {
  if (r.rcode === 'NOERROR') return r.answers.length > 0 ? 'answer' : 'nodata';
  return r.rcode === 'NXDOMAIN' ? 'nxdomain' : r.rcode;
}

/** The data of the answers of the queried type (A → addresses), lower case, sorted, unique. */
export function answerData(r: QueryResult): string[] {
  const own = r.answers.filter((a) => a.type === r.type);
  return [...new Set(own.map((a) => a.data.toLowerCase()))].sort();
}

/**
 * Why `via` (through the proxy) does not match `direct` (from the upstream), or null when it
 * does: the answer classes differ, or both answered with records of the queried type and no
 * record is shared. Some overlap is enough: round-robin and CDN names (kubernetes.io is one)
 * rotate their address sets between two queries, but a hijacked route shares none.
 */
export function answerMismatch(direct: QueryResult, via: QueryResult): string | null {
  const a = answerClass(direct);
  const b = answerClass(via);
  if (a !== b) return `${a} directly but ${b} through the proxy`;
  if (a !== 'answer') return null;
  const d = answerData(direct);
  const v = answerData(via);
  if (d.length === 0 || v.length === 0) return null;
  if (v.some((x) => d.includes(x))) return null;
  const show = (xs: string[]) => xs.slice(0, 4).join(', ') + (xs.length > 4 ? ', …' : '');
  return `${show(d)} directly but ${show(v)} through the proxy (no address in common)`;
}
