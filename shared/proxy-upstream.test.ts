import { describe, expect, it } from 'vitest';
import { checkListeners, checkPlan, checkZoneName, commentSafe, parseUpstream } from './proxy-upstream';
import type { ProxyPlan } from './types';

describe('parseUpstream', () => {
  it.each([
    ['192.168.1.1', { family: 4, ip: '192.168.1.1', port: 53 }],
    ['10.0.0.2:5353', { family: 4, ip: '10.0.0.2', port: 5353 }],
    ['2001:DB8:0:0::53', { family: 6, ip: '2001:db8::53', port: 53 }],
    ['fe80::1%wlp2s0', { family: 6, ip: 'fe80::1%wlp2s0', port: 53 }],
    ['[fd00::53]:5353', { family: 6, ip: 'fd00::53', port: 5353 }],
  ])('%s', (text, want) => {
    expect(parseUpstream(text)).toEqual(want);
  });

  it.each([
    'dns.google',
    'udp://1.1.1.1',
    '1.1.1.1 #x',
    '1.1.1.1\nserver=6.6.6.6',
    '[1.1.1.1]:53',
    '1.1.1.1:0',
    '1.1.1.1:70000',
    '"1.1.1.1"',
    '/zone/1.1.1.1',
  ])('rejects %j', (text) => {
    expect(() => parseUpstream(text)).toThrow('is not an IP address or IP:port');
  });
});

describe('checkZoneName', () => {
  it('lower-cases hostname-only zones and rejects anything else', () => {
    expect(checkZoneName('Cluster.Local')).toBe('cluster.local');
    expect(checkZoneName('_tcp.consul')).toBe('_tcp.consul');
    for (const bad of ['', '.', 'cluster.local.', 'a..b', 'a/b', 'a b', 'x]1.1.1.1', 'a\n']) {
      expect(() => checkZoneName(bad)).toThrow('is not a plain domain name');
    }
  });
});

describe('checkListeners / checkPlan', () => {
  const plan = (over: Partial<ProxyPlan>): ProxyPlan => ({
    engine: 'adguard',
    listeners: [{ address: '127.0.0.1', port: 53 }],
    zones: [],
    upstreams: ['192.168.1.1'],
    clusterCidrs: [],
    logFile: '/var/log/dnsproxy/dnsproxy.log',
    timeoutMs: 10000,
    verbose: false,
    ...over,
  });

  it('requires one shared port', () => {
    expect(checkListeners([{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }])).toEqual({
      addresses: ['127.0.0.1', '172.19.1.1'],
      port: 53,
    });
    expect(() => checkListeners([{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 5353 }])).toThrow(
      'Listeners use different ports (53 and 5353)',
    );
    expect(() => checkListeners([])).toThrow('has no listener');
  });

  it('refuses an empty upstream list and an upstream that is the proxy itself', () => {
    expect(() => checkPlan(plan({ upstreams: [] }))).toThrow('The proxy has no default upstream');
    expect(() => checkPlan(plan({ upstreams: ['127.0.0.1'] }))).toThrow(
      "Upstream 127.0.0.1:53 is one of the proxy's own listeners, which would loop",
    );
    // Same address on another port is a different server (e.g. a local resolver on 5353).
    expect(checkPlan(plan({ upstreams: ['127.0.0.1:5353'] })).upstreams).toEqual([{ family: 4, ip: '127.0.0.1', port: 5353 }]);
  });

  it('strips control characters from comments', () => {
    expect(commentSafe('a\nserver=/x/1.1.1.1\r\tb')).toBe('a server=/x/1.1.1.1 b');
  });
});
