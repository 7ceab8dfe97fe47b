import { describe, expect, it } from 'vitest';
import { queryName } from './contract';

describe('queryName accepts IP literals for PTR lookups', () => {
  it('accepts IPv4 and IPv6 literals and DNS names', () => {
    for (const ok of ['172.21.0.10', 'fd00::1', '::1', '2001:db8::ffff:192.0.2.1', 'FD00:0:0:0:0:0:0:A', 'kubernetes.default.svc.cluster.local', '.', '_dns._udp.kube-dns.kube-system.svc.cluster.local'])
      expect(queryName.safeParse(ok).success, ok).toBe(true);
  });
  it('still rejects shell text, spaces, and IPv6-looking junk', () => {
    for (const bad of ['bad name!', 'fd00::1; rm -rf /', 'fd00::g', ':', 'a:b:c:x', '1:2:3:4:5:6:7:8:9:0:1:2:3:4:5:6:7:8:9:0:1:2:3:4', ''])
      expect(queryName.safeParse(bad).success, bad).toBe(false);
  });
});
