import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { goDuration, renderDnsproxyArgs, renderDnsproxyConfig } from './dnsproxy-config';
import { testPlan, testRoute } from '../e2e/support/test-plan';

describe('renderDnsproxyConfig', () => {
  it('renders the exact config for the K2s defaults', () => {
    expect(parse(renderDnsproxyConfig(testPlan()))).toEqual({
      'listen-addrs': ['127.0.0.1', '172.19.1.1'],
      'listen-ports': [53],
      // glibc order: the first nameserver, the second only when it gives no reply;
      // the cluster zones stay on kube-dns in the fallback list too.
      upstream: ['[/cluster.local/consul.internal/20.172.in-addr.arpa/21.172.in-addr.arpa/]172.21.0.10:53', '192.168.1.1:53'],
      fallback: ['[/cluster.local/consul.internal/20.172.in-addr.arpa/21.172.in-addr.arpa/]172.21.0.10:53', '[fe80::1%wlp2s0]:53'],
      'upstream-mode': 'load_balance',
      'use-private-rdns': true,
      'private-rdns-upstream': ['[/20.172.in-addr.arpa/21.172.in-addr.arpa/]172.21.0.10:53', '192.168.1.1:53'],
      cache: true,
      // Half of the plan's 10 s: dnsproxy asks a silent upstream twice (upstream/plain.go).
      timeout: '5s',
      'hosts-file-enabled': false,
      dnssec: false,
    });
  });

  it('starts with a header and explains each zone in a comment', () => {
    const text = renderDnsproxyConfig(testPlan());
    expect(text.split('\n')[0]).toBe('# Written by k2s-dns (K2s host DNS) from the cluster it discovered; rewritten on every start,');
    expect(text).toContain('  # cluster.local: Corefile server block ".:53", plugin "kubernetes"\n');
    expect(text).toContain('  # 21.172.in-addr.arpa: service CIDR 172.21.0.0/16\n');
    expect(text).toContain('# upstream/fallback (glibc order)');
  });

  it('groups zones by upstream and keeps plain defaults last', () => {
    const plan = testPlan({
      zones: [
        testRoute('cluster.local', 'k'),
        testRoute('mesh.local', 'm', '172.19.1.100:8600'),
        testRoute('21.172.in-addr.arpa', 's'),
      ],
      upstreams: ['10.0.0.1', '10.0.0.1', '2001:db8::53'],
      timeoutMs: 2500,
    });
    const cfg = parse(renderDnsproxyConfig(plan)) as Record<string, unknown>;
    expect(cfg.upstream).toEqual(['[/cluster.local/21.172.in-addr.arpa/]172.21.0.10:53', '[/mesh.local/]172.19.1.100:8600', '10.0.0.1:53']);
    expect(cfg.fallback).toEqual(['[/cluster.local/21.172.in-addr.arpa/]172.21.0.10:53', '[/mesh.local/]172.19.1.100:8600', '[2001:db8::53]:53']);
    expect(cfg['private-rdns-upstream']).toEqual(['[/21.172.in-addr.arpa/]172.21.0.10:53', '10.0.0.1:53']);
    expect(cfg.timeout).toBe('1250ms');
    expect(parse(renderDnsproxyConfig(testPlan({ timeoutMs: 1000 }))).timeout).toBe('1s'); // at least 1 s
    expect(parse(renderDnsproxyConfig(testPlan({ timeoutMs: 400 }))).timeout).toBe('400ms');
  });

  it('with options rotate keeps every nameserver in upstream (load_balance) and sets no fallback', () => {
    const cfg = parse(renderDnsproxyConfig(testPlan({ zones: [testRoute('cluster.local', 'k')], upstreams: ['10.0.0.1', '10.0.0.2'], order: 'rotate' }))) as Record<string, unknown>;
    expect(cfg.upstream).toEqual(['[/cluster.local/]172.21.0.10:53', '10.0.0.1:53', '10.0.0.2:53']);
    expect(cfg.fallback).toBeUndefined();
    expect(cfg['private-rdns-upstream']).toEqual(['10.0.0.1:53', '10.0.0.2:53']);
  });

  it('sets no fallback with one nameserver', () => {
    const cfg = parse(renderDnsproxyConfig(testPlan({ upstreams: ['10.0.0.1'] }))) as Record<string, unknown>;
    expect(cfg.fallback).toBeUndefined();
  });

  it('keeps private-rdns on with only the defaults when there are no reverse zones', () => {
    const cfg = parse(renderDnsproxyConfig(testPlan({ zones: [testRoute('cluster.local', 'k')] }))) as Record<string, unknown>;
    expect(cfg['use-private-rdns']).toBe(true);
    expect(cfg['private-rdns-upstream']).toEqual(['192.168.1.1:53']);
  });

  it('throws on plans it cannot render safely', () => {
    expect(() => renderDnsproxyConfig(testPlan({ upstreams: [] }))).toThrow('The proxy has no default upstream');
    expect(() =>
      renderDnsproxyConfig(testPlan({ listeners: [{ address: '127.0.0.1', port: 53 }, { address: '::1', port: 5353 }] })),
    ).toThrow('Listeners use different ports (53 and 5353)');
    expect(() => renderDnsproxyConfig(testPlan({ zones: [testRoute('evil/]8.8.8.8', 'x')] }))).toThrow('is not a plain domain name');
    expect(() => renderDnsproxyConfig(testPlan({ upstreams: ['8.8.8.8\n- 6.6.6.6'] }))).toThrow('is not an IP address or IP:port');
    expect(() => renderDnsproxyConfig(testPlan({ timeoutMs: 0 }))).toThrow('is not a positive whole number');
  });
});

describe('goDuration / renderDnsproxyArgs', () => {
  it('formats Go durations', () => {
    expect([goDuration(10000), goDuration(1500), goDuration(1000)]).toEqual(['10s', '1500ms', '1s']);
  });

  it('renders argv without --output', () => {
    expect(renderDnsproxyArgs('/etc/k2s/dnsproxy.yaml', false)).toEqual(['--config-path=/etc/k2s/dnsproxy.yaml']);
    expect(renderDnsproxyArgs('/etc/k2s/dnsproxy.yaml', true)).toEqual(['--config-path=/etc/k2s/dnsproxy.yaml', '-v']);
    expect(() => renderDnsproxyArgs('etc/k2s/x.yaml', false)).toThrow('must be an absolute plain path');
    expect(() => renderDnsproxyArgs('/etc/k2s/x y.yaml', false)).toThrow('must be an absolute plain path');
  });
});
