import { describe, expect, it } from 'vitest';
import { resultLabel, resultOk, resultTone } from './gai-words';

const gai = { transport: 'getaddrinfo' as const, answers: [] };
describe('getaddrinfo results are labelled as getaddrinfo labels them, never NOERROR', () => {
  it('addresses → resolved; failures → their EAI_* code', () => {
    expect(resultLabel({ ...gai, rcode: 'NOERROR', answers: [{ name: 'x', type: 'A', ttl: null, data: '172.21.0.1' }] })).toBe('resolved');
    expect(resultLabel({ ...gai, rcode: 'NXDOMAIN', error: 'EAI_NONAME: the nameserver says the name does not exist' })).toBe('EAI_NONAME');
    expect(resultLabel({ ...gai, rcode: 'TIMEOUT', error: 'getaddrinfo gave up (EAI_AGAIN): …' })).toBe('EAI_AGAIN');
    expect(resultLabel({ ...gai, rcode: 'TIMEOUT', error: '172.21.0.10:53 did not answer' })).toBe('EAI_AGAIN');
    expect(resultLabel({ ...gai, rcode: 'NOERROR' })).toBe('no address');
    expect(resultOk({ ...gai, rcode: 'NOERROR' })).toBe(false);
  });
  it('a DNS query keeps its rcode', () => {
    expect(resultLabel({ transport: 'udp', rcode: 'NOERROR', answers: [] })).toBe('NOERROR');
    expect(resultOk({ transport: 'udp', rcode: 'NOERROR', answers: [] })).toBe(true);
  });
});

describe('resultTone', () => {
  it('NOERROR without a record (NODATA) is amber, not green; records are green; failures red', () => {
    expect(resultTone({ transport: 'udp', rcode: 'NOERROR', answers: [] })).toBe('warn');
    expect(resultTone({ transport: 'udp', rcode: 'NOERROR', answers: [{ name: 'a', type: 'A', ttl: 5, data: '192.0.2.1' }] })).toBe('ok');
    expect(resultTone({ transport: 'udp', rcode: 'SERVFAIL', answers: [] })).toBe('bad');
    expect(resultTone({ transport: 'getaddrinfo', rcode: 'NOERROR', answers: [] })).toBe('bad');
  });
});
