import { describe, expect, it } from 'vitest';
import { dnsmasqConfigFacts, dnsproxyConfigFacts } from './proxy-config-facts';
import { renderDnsproxyConfig } from './dnsproxy-config';
import { renderDnsmasqConfig } from './dnsmasq-config';
import { testPlan } from '../e2e/support/test-plan';

/** testPlan's zones as the configs route them: all to kube-dns at 172.21.0.10 (port 53). */
const ZONES = ['cluster.local', 'consul.internal', '20.172.in-addr.arpa', '21.172.in-addr.arpa'].map((zone) => ({ zone, upstream: '172.21.0.10' }));

describe('proxy config facts: the listeners and default upstreams a written config names', () => {
  for (const order of ['ordered', 'rotate'] as const) {
    it(`dnsproxy (${order}): the plan's listeners and default upstreams back, the [/zone/] routes not among them`, () => {
      const plan = testPlan({ order });
      expect(dnsproxyConfigFacts(renderDnsproxyConfig(plan))).toEqual({ listeners: plan.listeners, upstreams: plan.upstreams, zones: ZONES });
    });
  }
  it('dnsmasq: the upstreams from the plain server= lines, no listeners (they are on its command lines, maybe split over two units)', () => {
    const plan = testPlan({ engine: 'dnsmasq', upstreams: ['192.168.1.1', '192.0.2.9:5353'] });
    expect(dnsmasqConfigFacts(renderDnsmasqConfig(plan))).toEqual({ listeners: [], upstreams: plan.upstreams, zones: ZONES });
    expect(dnsmasqConfigFacts('port=5353\nserver=/cluster.local/a.b/172.21.0.10#5353\n')).toEqual({ listeners: [], upstreams: [], zones: [{ zone: 'cluster.local', upstream: '172.21.0.10:5353' }, { zone: 'a.b', upstream: '172.21.0.10:5353' }] });
  });
  it('a file that is no YAML mapping, or an alias, reads as none', () => {
    expect(dnsproxyConfigFacts('listen-addrs: [127.0.0.1\n')).toBeNull();
    expect(dnsproxyConfigFacts('- a\n')).toBeNull();
    expect(dnsproxyConfigFacts('a: &x [1]\nb: *x\n')).toBeNull();
    expect(dnsproxyConfigFacts('listen-addrs: 7\nupstream: ["https://dns.example/dns-query", "[/x/]1.2.3.4:53"]\n')).toEqual({ listeners: [], upstreams: [], zones: [{ zone: 'x', upstream: '1.2.3.4' }] });
  });
});
