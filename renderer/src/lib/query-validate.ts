/**
 * Readable validation of the query tester's form before anything is sent: one
 * sentence saying what is wrong and what to enter instead. Limits: RFC 1035 §2.3.4 (name ≤ 253
 * characters in text form, label ≤ 63 octets); PTR takes an address (RFC 1035 §3.5).
 */
import { isIpLiteral } from '../../../shared/ptr-name';
import type { QueryType } from '../../../shared/types';

/** Longest name in text form without the trailing dot (RFC 1035 §2.3.4: 255 octets on the wire). */
export const MAX_NAME = 253;
/** Longest label (RFC 1035 §2.3.4). */
export const MAX_LABEL = 63;

/** The problem with `name` for `type` and `target`, one sentence; null when the form can be sent. */
export function validateQuery(name: string, type: QueryType, target: string): string | null {
  const n = name.trim();
  if (n === '') return 'Enter a name to look up, e.g. kubernetes.default.svc.cluster.local.';
  if (/\s/.test(n)) return `“${n}” contains a space: a DNS name is labels separated by dots, without spaces.`;
  const ip = isIpLiteral(n.replace(/\.$/, ''));
  if (type === 'PTR') {
    if (!ip && !/\.(in-addr|ip6)\.arpa\.?$/i.test(n)) {
      return `PTR finds the name behind an IP address, so it takes an address such as 172.21.0.10, not the hostname “${n}”. To find the address of ${n}, choose type A or AAAA.`;
    }
    if (!ip && target === 'system') return 'The system resolver looks up PTR by address (getnameinfo): enter the IP address itself, e.g. 172.21.0.10.';
    if (ip) return null;
  }
  if (ip) return null;
  if (n === '.') return null;
  const bare = n.replace(/\.$/, '');
  if (bare.length > MAX_NAME) return `A DNS name has at most ${MAX_NAME} characters (RFC 1035); this one has ${bare.length}.`;
  const labels = bare.split('.');
  if (labels.some((l) => l === '')) return `“${n}” has an empty label (two dots in a row, or a leading dot).`;
  const long = labels.find((l) => l.length > MAX_LABEL);
  if (long) return `Each label (the part between dots) has at most ${MAX_LABEL} characters; “${long.slice(0, 20)}…” has ${long.length}.`;
  const bad = [...bare].find((c) => !/[A-Za-z0-9_-]/.test(c) && c !== '.');
  if (bad) return `“${bad}” cannot appear in a DNS name here: use letters, digits, “-” and “_” (SRV labels), separated by dots.`;
  if (target === 'system' && type !== 'A' && type !== 'AAAA') {
    return `The system resolver (getaddrinfo) answers only A and AAAA (and PTR for an address): ask ${type} through the K2s proxy, CoreDNS or an upstream.`;
  }
  return null;
}
