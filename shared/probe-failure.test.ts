import { describe, expect, it } from 'vitest';
import { errnoWords, noReplyWords } from './probe-failure';

describe('errnoWords', () => {
  it('mend30: EADDRNOTAVAIL, EINVAL and EAFNOSUPPORT in words, each with what it means on this host and the fix', () => {
    expect(errnoWords('connect EADDRNOTAVAIL [fd00::53]:53')).toBe(
      'no address to send from (EADDRNOTAVAIL: this host has no address of that family up, e.g. no IPv6 address; use a nameserver it can reach or bring the interface up)',
    );
    expect(errnoWords('connect EINVAL [fe80::1]:53')).toBe('not an address this host can send to (EINVAL: a link-local fe80:: address needs its interface, e.g. fe80::1%eth0)');
    expect(errnoWords('bind EAFNOSUPPORT [fd00::53]:53')).toBe('address family not supported (EAFNOSUPPORT: IPv6 is disabled on this host; use an IPv4 nameserver)');
  });

  it('keeps the earlier words, and null for an error it does not know', () => {
    expect(errnoWords('connect ENETUNREACH 192.0.2.53:53')).toBe('network unreachable (ENETUNREACH: this host has no route to it)');
    expect(errnoWords('127.0.0.1:53 nothing answers (port unreachable: ECONNREFUSED)')).toBe('refused: nothing listens on its port (ICMP port unreachable)');
    expect(errnoWords('something else')).toBeNull();
    expect(noReplyWords({ rcode: 'ERROR', error: 'connect EADDRNOTAVAIL [::1]:53', latencyMs: 1 })).toMatch(/^no address to send from/);
  });
});
