import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderDnsproxyConfig } from './dnsproxy-config';
import { isDnsproxyPrivateReverseZone, reverseZonePrefix } from './dnsproxy-private';
import { testPlan, testRoute } from '../e2e/support/test-plan';

describe('which reverse zones dnsproxy v0.83.1 counts as private (IsLocallyServed of the zone network)', () => {
  it('parses reverse zones into their network, like netutil.ExtractReversedAddr', () => {
    expect(reverseZonePrefix('21.172.in-addr.arpa')).toEqual({ address: '172.21.0.0', prefix: 16 });
    expect(reverseZonePrefix('64.100.in-addr.arpa.')).toEqual({ address: '100.64.0.0', prefix: 16 });
    expect(reverseZonePrefix('d.f.ip6.arpa')).toEqual({ address: 'fd00::', prefix: 8 });
    expect(reverseZonePrefix('0.0.4.4.2.0.0.1.0.0.0.0.d.f.ip6.arpa')).toEqual({ address: 'fd00:10:244::', prefix: 56 });
    expect(reverseZonePrefix('01.172.in-addr.arpa')).toBeNull();
    expect(reverseZonePrefix('256.in-addr.arpa')).toBeNull();
    expect(reverseZonePrefix('x.ip6.arpa')).toBeNull();
    expect(reverseZonePrefix('cluster.local')).toBeNull();
  });

  it.each([
    ['21.172.in-addr.arpa', true],
    ['16.172.in-addr.arpa', true],
    ['10.in-addr.arpa', true],
    ['168.192.in-addr.arpa', true],
    ['0.0.4.4.2.0.0.1.0.0.0.0.d.f.ip6.arpa', true],
    // RFC 6598 shared space is not RFC 6303 locally served: dnsproxy sends its PTRs to `upstream`.
    ['64.100.in-addr.arpa', false],
    ['172.in-addr.arpa', false],
    ['32.172.in-addr.arpa', false],
    ['18.198.in-addr.arpa', false],
    ['8.8.in-addr.arpa', false],
    ['c.f.ip6.arpa', false],
  ])('%s → %s', (zone, priv) => {
    expect(isDnsproxyPrivateReverseZone(zone)).toBe(priv);
  });
});

describe('renderDnsproxyConfig puts each cluster reverse zone where dnsproxy uses it', () => {
  it('100.64/10 and an allowed public /16 stay out of private-rdns-upstream (dnsproxy exits "reversed subnet … is not private" otherwise), but route in upstream', () => {
    const plan = testPlan({
      zones: [
        testRoute('cluster.local', 'k'),
        testRoute('21.172.in-addr.arpa', 'service CIDR 172.21.0.0/16'),
        testRoute('64.100.in-addr.arpa', 'pod CIDR 100.64.0.0/16'),
        testRoute('18.198.in-addr.arpa', 'pod CIDR 198.18.0.0/16 (allowed by the user)'),
      ],
    });
    const cfg = parse(renderDnsproxyConfig(plan)) as Record<string, unknown>;
    expect(cfg.upstream).toEqual([
      '[/cluster.local/21.172.in-addr.arpa/64.100.in-addr.arpa/18.198.in-addr.arpa/]172.21.0.10:53',
      '192.168.1.1:53',
    ]);
    expect(cfg['private-rdns-upstream']).toEqual(['[/21.172.in-addr.arpa/]172.21.0.10:53', '192.168.1.1:53']);
  });
});

describe('zones dnsproxy refuses at startup never reach it (checked with the real v0.83.1: exit 1)', () => {
  it('the policy refuses a top-level label with "_", edge hyphens or only digits, not allowable', async () => {
    const { zonesFromCorefile } = await import('./corefile');
    const out = zonesFromCorefile({
      corefile: '.:53 {\n  kubernetes cluster.local\n}\nfoo.my_tld:53 123:53 x.-lan:53 _x.lan:53 {\n  forward . 10.0.0.4\n}\n',
      kubeDnsIp: '172.21.0.10',
      serviceCidrs: ['172.21.0.0/16'],
      podCidrs: [],
      allowZones: ['foo.my_tld', '123', 'x.-lan'],
    });
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local', '_x.lan', '21.172.in-addr.arpa']);
    expect(out.refused.map((r) => [r.zone, r.allowable])).toEqual([['123', false], ['foo.my_tld', false], ['x.-lan', false]]);
    expect(out.refused[0]!.why).toContain('top-level label is not a host name label');
  });

  it('a plan built elsewhere with such a zone gets a message naming the fix, not dnsproxy\'s raw error', () => {
    expect(() => renderDnsproxyConfig(testPlan({ zones: [testRoute('foo.my_tld', 'x')] }))).toThrow(
      'Zone "foo.my_tld" cannot be routed by AdGuard dnsproxy: its last label must be a host name label with a letter (RFC 3696 §2); remove it from the Corefile or start with --engine dnsmasq.',
    );
  });
});
