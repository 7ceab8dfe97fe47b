import { describe, expect, it } from 'vitest';
import { formatServer, parseServer } from './parse-server';

describe('parseServer', () => {
  it.each([
    ['172.21.0.10', { address: '172.21.0.10', port: 53, family: 4 }],
    ['127.0.0.1:5353', { address: '127.0.0.1', port: 5353, family: 4 }],
    [' 192.0.2.53 ', { address: '192.0.2.53', port: 53, family: 4 }],
    ['::1', { address: '::1', port: 53, family: 6 }],
    ['fd00::a', { address: 'fd00::a', port: 53, family: 6 }],
    ['[::1]:5300', { address: '::1', port: 5300, family: 6 }],
    ['[fd00::a]', { address: 'fd00::a', port: 53, family: 6 }],
    ['fe80::1%eth0', { address: 'fe80::1%eth0', port: 53, family: 6 }],
    ['[fe80::1%k2s-proxy0]:53', { address: 'fe80::1%k2s-proxy0', port: 53, family: 6 }],
  ])('parses %s', (text, want) => {
    expect(parseServer(text)).toEqual(want);
  });

  it('uses the given default port', () => {
    expect(parseServer('10.0.0.5', 5353).port).toBe(5353);
  });

  it.each([
    ['kube-dns.kube-system', 'is not an IP address'],
    ['172.21.0.10:dns', 'port that is not a number'],
    ['172.21.0.10:70000', 'outside 1–65535'],
    ['172.21.0.10:0', 'outside 1–65535'],
    ['[::1', 'no closing'],
    ['[::1]53', 'not ":PORT"'],
    ['192.0.2.1%eth0', 'has a %zone on an IPv4 address'],
    ['', 'is not an IP address'],
  ])('refuses %j', (text, why) => {
    expect(() => parseServer(text)).toThrow(why);
  });
});

describe('formatServer', () => {
  it('brackets IPv6 and keeps IPv4 plain', () => {
    expect(formatServer({ address: '172.21.0.10', port: 53 })).toBe('172.21.0.10:53');
    expect(formatServer({ address: 'fd00::a', port: 5353 })).toBe('[fd00::a]:5353');
    expect(formatServer(parseServer('[fe80::1%eth0]:53'))).toBe('[fe80::1%eth0]:53');
  });
});
