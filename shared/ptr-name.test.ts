import { describe, expect, it } from 'vitest';
import { isIpLiteral, ptrName } from './ptr-name';

describe('ptrName', () => {
  it.each([
    ['172.21.0.10', '10.0.21.172.in-addr.arpa'],
    ['172.21.0.1', '1.0.21.172.in-addr.arpa'],
    ['198.51.100.7', '7.100.51.198.in-addr.arpa'],
    ['0.0.0.0', '0.0.0.0.in-addr.arpa'],
    ['255.255.255.255', '255.255.255.255.in-addr.arpa'],
  ])('IPv4 %s → %s (RFC 1035 §3.5)', (ip, want) => {
    expect(ptrName(ip)).toBe(want);
  });

  it('IPv6 ::1 → 32 reversed nibbles under ip6.arpa (RFC 3596 §2.5)', () => {
    expect(ptrName('::1')).toBe(`1${'.0'.repeat(31)}.ip6.arpa`);
  });

  it('IPv6 with upper case, a zone and an embedded IPv4 tail', () => {
    // RFC 3596 §2.5 example address 4321:0:1:2:3:4:567:89ab.
    expect(ptrName('4321:0:1:2:3:4:567:89AB')).toBe(
      'b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.0.0.1.2.3.4.ip6.arpa',
    );
    expect(ptrName('fe80::1%eth0')).toBe(ptrName('fe80::1'));
    // 192.0.2.1 = c000:0201, so the low nibbles read 1.0.2.0.0.0.0.c
    expect(ptrName('::ffff:192.0.2.1')).toBe(
      '1.0.2.0.0.0.0.c.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa',
    );
  });

  it.each(['kubernetes.default', '172.21.0', '172.21.0.256', '010.0.0.1', '1::2::3', '1:2:3:4:5:6:7:8:9', ''])(
    'refuses %j with a message naming the fix',
    (bad) => {
      expect(() => ptrName(bad)).toThrow('is not an IPv4 or IPv6 address; give an address like');
    },
  );
});

describe('isIpLiteral', () => {
  it('accepts IPv4 and IPv6 (with %zone), refuses names', () => {
    expect(isIpLiteral('172.21.0.10')).toBe(true);
    expect(isIpLiteral('fd00::a')).toBe(true);
    expect(isIpLiteral('fe80::1%eth0')).toBe(true);
    expect(isIpLiteral('example.test')).toBe(false);
    expect(isIpLiteral('1:2:3:4:5:6:7:8::')).toBe(false);
  });
});
