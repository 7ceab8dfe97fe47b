import { describe, expect, it } from 'vitest';
import { effectiveAddress, isUnspecifiedAddress, reachesListenerAddress } from './listener-reach';

describe('reachesListenerAddress: one loop rule, by address', () => {
  it('any spelling of a listener address reaches it', () => {
    for (const dest of ['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:127.0.0.1', '[::ffff:127.0.0.1]', '0.0.0.0'])
      expect(reachesListenerAddress(dest, '127.0.0.1'), dest).toBe(true);
    expect(reachesListenerAddress('172.19.1.1', '172.19.1.1')).toBe(true);
    expect(reachesListenerAddress('FE80::1%eth0', 'fe80::1')).toBe(true);
  });

  it('other addresses do not, the unspecified destination included when no loopback listener exists', () => {
    expect(reachesListenerAddress('127.0.0.53', '127.0.0.1')).toBe(false);
    expect(reachesListenerAddress('172.19.1.2', '172.19.1.1')).toBe(false);
    expect(reachesListenerAddress('0.0.0.0', '172.19.1.1')).toBe(false);
    expect(reachesListenerAddress('::1', '127.0.0.1')).toBe(false);
    expect(reachesListenerAddress('::', '127.0.0.1')).toBe(false); // :: is this host's ::1
    expect(reachesListenerAddress('::', '::1')).toBe(true);
  });

  it('a wildcard listener: 0.0.0.0 takes IPv4 loopback only, :: takes both families (bindv6only=0)', () => {
    expect(reachesListenerAddress('127.0.0.2', '0.0.0.0')).toBe(true);
    expect(reachesListenerAddress('::1', '0.0.0.0')).toBe(false);
    expect(reachesListenerAddress('::1', '::')).toBe(true);
    expect(reachesListenerAddress('127.0.0.2', '::')).toBe(true);
    expect(reachesListenerAddress('192.0.2.53', '0.0.0.0')).toBe(false); // a host address: the caller knows those
  });

  it('effectiveAddress and isUnspecifiedAddress work on bytes', () => {
    expect(effectiveAddress('::ffff:c000:235')).toBe('192.0.2.53');
    expect(effectiveAddress('::')).toBe('::1');
    expect(effectiveAddress('not-an-ip')).toBe('not-an-ip');
    expect(isUnspecifiedAddress('0:0:0:0:0:0:0:0')).toBe(true);
    expect(isUnspecifiedAddress('::ffff:0.0.0.0')).toBe(true);
    expect(isUnspecifiedAddress('127.0.0.1')).toBe(false);
  });
});
