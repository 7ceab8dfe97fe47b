import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_LISTENERS, dnsmasqConfigFacts, dnsproxyConfigFacts } from './proxy-config-facts';
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
  it('a hand-edited listen-addrs × listen-ports past MAX_CONFIG_LISTENERS names no listener (30,000 of each fit the 1 MiB read: 9e8 objects)', () => {
    const addrs = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(',');
    const ports = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
    expect(MAX_CONFIG_LISTENERS).toBe(1024);
    const atCap = dnsproxyConfigFacts(`listen-addrs: [${addrs(32)}]\nlisten-ports: [${ports(32)}]\nupstream: ["192.0.2.53:53"]\n`);
    expect(atCap?.listeners).toHaveLength(1024);
    expect(atCap?.listeners[1023]).toEqual({ address: '10.0.0.31', port: 32 });
    const past = dnsproxyConfigFacts(`listen-addrs: [${addrs(1025)}]\nlisten-ports: [53]\nupstream: ["192.0.2.53:53"]\n`);
    expect(past).toEqual({ listeners: [], upstreams: ['192.0.2.53'], zones: [] });
  });
});
