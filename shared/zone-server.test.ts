/**
 * The kube-dns address read back from the engine configs k2s-dns writes (zone-server.ts): what
 * status shows a user who cannot read root's saved state. Read from the renderers' real output,
 * so a change of their format fails here.
 */
import { describe, expect, it } from 'vitest';
import { renderDnsmasqConfig } from './dnsmasq-config';
import { renderDnsproxyConfig } from './dnsproxy-config';
import { dnsmasqZoneServer, dnsproxyZoneServer } from './zone-server';
import { testPlan, testRoute } from '../e2e/support/test-plan';

/** The test plan with every zone routed to `upstream`. */
function planTo(upstream: string) {
  const zones = testPlan().zones.map((z) => testRoute(z.zone, z.reason, upstream));
  return { dnsmasq: renderDnsmasqConfig(testPlan({ engine: 'dnsmasq', zones })), adguard: renderDnsproxyConfig(testPlan({ zones })) };
}

describe('the kube-dns address in a written proxy config', () => {
  it.each([
    ['172.21.0.10', '172.21.0.10'],
    ['10.96.0.10:5353', '10.96.0.10:5353'],
    ['fd00:10::a', 'fd00:10::a'],
    ['[fd00:10::a]:5353', '[fd00:10::a]:5353'],
  ])('kube-dns %s reads as %s from both engines', (upstream, want) => {
    const written = planTo(upstream);
    expect(dnsmasqZoneServer(written.dnsmasq)).toBe(want);
    expect(dnsproxyZoneServer(written.adguard)).toBe(want);
  });

  it('names none for a config without zone lines, a commented one, or one that names no address', () => {
    expect(dnsmasqZoneServer('no-resolv\nserver=192.168.1.1\n')).toBeNull();
    expect(dnsmasqZoneServer('# server=/cluster.local/172.21.0.10\n')).toBeNull();
    expect(dnsmasqZoneServer('server=/cluster.local/kube-dns.example\n')).toBeNull();
    expect(dnsproxyZoneServer('upstream:\n  - 192.168.1.1:53\n')).toBeNull();
    expect(dnsproxyZoneServer('upstream:\n  # - "[/cluster.local/]172.21.0.10:53"\n')).toBeNull();
    expect(dnsproxyZoneServer('upstream:\n  - "[/cluster.local/]172.21.0.10"\n')).toBeNull();
    expect(dnsproxyZoneServer('')).toBeNull();
  });
});
