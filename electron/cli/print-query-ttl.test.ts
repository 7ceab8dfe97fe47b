import { describe, expect, it } from 'vitest';
import { formatQuery } from './print';

describe('query through the system resolver prints no made-up TTL', () => {
  it('getaddrinfo answers (ttl null) print `—`; a DNS answer prints its TTL', () => {
    const gai = formatQuery({ name: 'localhost', type: 'A', server: 'system', transport: 'getaddrinfo', rcode: 'NOERROR', answers: [{ name: 'localhost', type: 'A', ttl: null, data: '127.0.0.1' }], latencyMs: 2 });
    expect(gai.split('\n')[1]).toBe('localhost\t—\tIN\tA\t127.0.0.1');
    const dns = formatQuery({ name: 'example.test', type: 'A', server: '192.0.2.53:53', transport: 'udp', rcode: 'NOERROR', answers: [{ name: 'example.test', type: 'A', ttl: 0, data: '192.0.2.1' }], latencyMs: 2 });
    expect(dns.split('\n')[1]).toBe('example.test\t0\tIN\tA\t192.0.2.1');
  });
});
