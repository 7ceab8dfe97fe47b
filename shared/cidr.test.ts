import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatIpv6,
  ipInCidr,
  isIpAddress,
  isPrivateAddress,
  isReverseZone,
  parseCidr,
  parseIp,
  parseIpv6,
  reverseZonesForCidr,
} from './cidr';

describe('parseIp', () => {
  it('reads IPv4 octets and refuses leading zeros and out-of-range octets', () => {
    expect(parseIp('172.21.0.10')).toEqual({ family: 4, bytes: [172, 21, 0, 10], zoneId: null });
    expect(parseIp('010.0.0.1')).toBeNull();
    expect(parseIp('256.0.0.1')).toBeNull();
    expect(parseIp('1.2.3')).toBeNull();
  });

  it('expands IPv6 forms including ::, embedded IPv4 and %zone', () => {
    expect(parseIpv6('2001:db8::53')?.bytes).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x53]);
    expect(parseIpv6('::1')?.bytes).toEqual([...new Array(15).fill(0), 1]);
    expect(parseIpv6('::ffff:192.0.2.1')?.bytes.slice(10)).toEqual([0xff, 0xff, 192, 0, 2, 1]);
    expect(parseIpv6('fe80::1%eth0')?.zoneId).toBe('eth0');
    expect(parseIpv6('fe80::1%eth0;rm')).toBeNull();
    expect(parseIpv6('1::2::3')).toBeNull();
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(isIpAddress('cluster.local')).toBe(false);
  });

  it('formats IPv6 canonically (RFC 5952)', () => {
    expect(formatIpv6(parseIpv6('2001:0db8:0:0:0:0:0:0053')!.bytes)).toBe('2001:db8::53');
    expect(formatIpv6(parseIpv6('2001:db8:0:1:0:0:0:1')!.bytes)).toBe('2001:db8:0:1::1');
  });
});

describe('parseCidr / ipInCidr', () => {
  it('clears host bits and rejects garbage with a fix in the message', () => {
    expect(parseCidr('172.21.5.7/16')).toEqual({ family: 4, bytes: [172, 21, 0, 0], prefix: 16 });
    expect(() => parseCidr('172.21.0.0/33')).toThrow('is not a CIDR: write it as address/prefix');
    expect(() => parseCidr('172.21.0.0')).toThrow('"172.21.0.0" is not a CIDR');
  });

  it('tests membership on both families', () => {
    expect(ipInCidr('172.21.0.10', '172.21.0.0/16')).toBe(true);
    expect(ipInCidr('172.22.0.10', '172.21.0.0/16')).toBe(false);
    expect(ipInCidr('172.31.255.255', '172.16.0.0/12')).toBe(true);
    expect(ipInCidr('fd00:10:96::a', 'fd00:10:96::/108')).toBe(true);
    expect(ipInCidr('fd00:10:97::a', 'fd00:10:96::/108')).toBe(false);
    expect(ipInCidr('172.21.0.10', 'fd00::/8')).toBe(false);
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['127.0.0.53', true],
    ['169.254.1.1', true],
    ['100.64.0.1', true],
    ['100.128.0.1', false],
    ['8.8.8.8', false],
    ['fd00::1', true],
    ['fe80::1%eth0', true],
    ['::1', true],
    ['::ffff:10.0.0.1', true],
    ['2001:4860:4860::8888', false],
    ['not-an-ip', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe('reverseZonesForCidr', () => {
  it('cuts IPv4 CIDRs on octet boundaries (RFC 1035)', () => {
    expect(reverseZonesForCidr('172.21.0.0/16')).toEqual(['21.172.in-addr.arpa']);
    expect(reverseZonesForCidr('10.0.0.0/8')).toEqual(['10.in-addr.arpa']);
    expect(reverseZonesForCidr('192.168.7.0/24')).toEqual(['7.168.192.in-addr.arpa']);
    const slash12 = reverseZonesForCidr('172.16.0.0/12');
    expect(slash12).toHaveLength(16);
    expect(slash12[0]).toBe('16.172.in-addr.arpa');
    expect(slash12[15]).toBe('31.172.in-addr.arpa');
    const slash20 = reverseZonesForCidr('10.96.16.0/20');
    expect(slash20).toHaveLength(16);
    expect(slash20[0]).toBe('16.96.10.in-addr.arpa');
    expect(slash20[15]).toBe('31.96.10.in-addr.arpa');
    expect(reverseZonesForCidr('10.1.2.3/32')).toEqual(['3.2.1.10.in-addr.arpa']);
  });

  it('cuts IPv6 CIDRs on nibble boundaries (RFC 3596)', () => {
    const z112 = reverseZonesForCidr('fd00:10:96::/112');
    expect(z112).toEqual(['0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa']);
    expect(z112[0]!.split('.').length - 2).toBe(28);
    // /108 sits on a nibble boundary: one zone of 27 nibbles.
    const z108 = reverseZonesForCidr('fd00:10:96::/108');
    expect(z108).toEqual(['0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa']);
    // /110 is not: four 28-nibble zones (last nibble 0..3).
    const z110 = reverseZonesForCidr('fd00:10:96::/110');
    expect(z110.map((z) => z.split('.')[0])).toEqual(['0', '1', '2', '3']);
    expect(reverseZonesForCidr('2001:db8::/32')).toEqual(['8.b.d.0.1.0.0.2.ip6.arpa']);
  });

  it('refuses /0 and invalid input with a clear message', () => {
    expect(() => reverseZonesForCidr('0.0.0.0/0')).toThrow('would send every reverse lookup to the cluster');
    expect(() => reverseZonesForCidr('::/0')).toThrow('would send every reverse lookup');
    expect(() => reverseZonesForCidr('cluster.local')).toThrow('is not a CIDR');
  });

  it('classifies reverse zones', () => {
    expect(isReverseZone('21.172.in-addr.arpa')).toBe(true);
    expect(isReverseZone('ip6.arpa.')).toBe(true);
    expect(isReverseZone('arpa.example.com')).toBe(false);
  });
});

describe('reverseZonesForCidr property (fast-check)', () => {
  it('every IPv4 address inside a CIDR has its PTR name under exactly one returned zone, and no address outside does', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), fc.integer({ min: 4, max: 32 }), fc.tuple(octet, octet, octet, octet), (net, prefix, probe) => {
        const cidr = `${net.join('.')}/${prefix}`;
        const zones = reverseZonesForCidr(cidr);
        const ptr = `${[...probe].reverse().join('.')}.in-addr.arpa`;
        const covering = zones.filter((z) => ptr === z || ptr.endsWith(`.${z}`));
        expect(covering.length).toBe(ipInCidr(probe.join('.'), cidr) ? 1 : 0);
      }),
      { numRuns: 500 },
    );
  });
});
