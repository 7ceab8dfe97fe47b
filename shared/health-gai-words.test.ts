/**
 * getaddrinfo has no rcode (getaddrinfo(3): addresses or an EAI_* code): a failed host-apps hop
 * says what getaddrinfo returned and, apart, what the nameserver answered (new user, session 30:
 * status and doctor said "getaddrinfo answered SERVFAIL" where `k2s-dns query` says EAI_AGAIN).
 */
import { describe, expect, it } from 'vitest';
import { queryHop } from './health';
import { hopLine } from '../electron/core/doctor/hop-line';
import type { QueryResult } from './types';

const NAME = 'kubernetes.default.svc.cluster.local';
const gai = (rcode: string, error: string): QueryResult => ({ name: NAME, type: 'A', server: 'system', transport: 'getaddrinfo', rcode, answers: [], latencyMs: 1512, error });

describe('host apps hop: what getaddrinfo returned, and the DNS rcode apart', () => {
  it('SERVFAIL behind it: EAI_AGAIN, then the nameservers probe-lookup asked and what they answered', () => {
    const h = queryHop('system', 'system', gai('SERVFAIL', 'getaddrinfo gave up (EAI_AGAIN): 127.0.0.1:53 answered SERVFAIL; 192.0.2.54:53 did not answer'));
    expect(h.reason).toBe(`getaddrinfo returned EAI_AGAIN (temporary failure) for ${NAME}; the DNS rcode: 127.0.0.1:53 answered SERVFAIL; 192.0.2.54:53 did not answer (SERVFAIL: its own upstream failed)`);
    expect(hopLine(h)).not.toContain('getaddrinfo answered');
    expect(hopLine(h)).toContain('— getaddrinfo returned EAI_AGAIN (temporary failure)');
  });

  it('no list of nameservers in the error: a nameserver answered the rcode', () => {
    expect(queryHop('system', 'system', gai('SERVFAIL', '')).reason).toBe(`getaddrinfo returned EAI_AGAIN (temporary failure) for ${NAME}; the DNS rcode: a nameserver answered SERVFAIL (SERVFAIL: its own upstream failed)`);
    expect(queryHop('system', 'system', gai('REFUSED', 'getaddrinfo gave up: 127.0.0.1:53 answered REFUSED')).reason).toBe(`getaddrinfo found no address for ${NAME}; the DNS rcode: 127.0.0.1:53 answered REFUSED`);
  });

  it('a DNS server hop keeps its own rcode words', () => {
    const r: QueryResult = { ...gai('SERVFAIL', ''), server: '127.0.0.1:53', transport: 'udp' };
    expect(queryHop('listener:127.0.0.1:53', 'listener', r).reason).toBe(`127.0.0.1:53 answered SERVFAIL for ${NAME}: its own upstream failed`);
  });
});
