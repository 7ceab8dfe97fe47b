import { describe, expect, it } from 'vitest';
import { checkListeners, checkPlan, checkZoneName, commentSafe, parseUpstream, upstreamPortProblem } from './proxy-upstream';
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
    '"1.1.1.1"',
    '/zone/1.1.1.1',
  ])('rejects %j', (text) => {
    expect(() => parseUpstream(text)).toThrow('is not an IP address or IP:port');
  });
  it.each([
    ['1.1.1.1:0', '0'],
    ['1.1.1.1:70000', '70000'],
    ['1.1.1.1:999999', '999999'],
    ['[fd00::53]:0', '0'],
  ])('mend30: %j is refused for its port, naming the range', (text, port) => {
    expect(() => parseUpstream(text)).toThrow(`Upstream "${text}" has port ${port}, outside 1–65535: give a port from 1 to 65535, or leave it out for 53`);
  });
  it('upstreamPortProblem: null for a good port or a text that is no IP:PORT', () => {
    expect(upstreamPortProblem('1.1.1.1:53')).toBeNull();
    expect(upstreamPortProblem('dns.google:0')).toBeNull();
    expect(upstreamPortProblem('[1.1.1.1]:0')).toBeNull();
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
    // By address, not text: mapped spellings and loopback to a wildcard listener loop; the
    // unspecified address (this host) is no nameserver at all.
    for (const up of ['::ffff:127.0.0.1', '[::ffff:7f00:1]:53']) {
      expect(() => checkPlan(plan({ upstreams: [up] })), up).toThrow("is one of the proxy's own listeners, which would loop");
    }
    expect(() => checkPlan(plan({ upstreams: ['0.0.0.0'] }))).toThrow('Upstream 0.0.0.0:53 is the unspecified address (this host itself), not a nameserver');
    expect(() => checkPlan(plan({ upstreams: ['::'] }))).toThrow('Upstream [::]:53 is the unspecified address');
    // A wildcard IPv4 listener does not receive ::1 (an IPv6 socket on ::1 is another server).
    expect(checkPlan(plan({ listeners: [{ address: '0.0.0.0', port: 53 }], upstreams: ['::1'] })).upstreams).toEqual([{ family: 6, ip: '::1', port: 53 }]);
    expect(() => checkPlan(plan({ listeners: [{ address: '0.0.0.0', port: 53 }], upstreams: ['127.0.0.53'] }))).toThrow('would loop');
    const withKubeSwitch = [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }];
    expect(() => checkPlan(plan({ listeners: withKubeSwitch, upstreams: ['[0:0:0:0:0:ffff:ac13:101]:53'] }))).toThrow('Upstream [::ffff:ac13:101]:53 is one of');
    expect(() => checkPlan(plan({ zones: [{ zone: 'cluster.local', upstream: '::ffff:127.0.0.1', source: 'corefile', reason: 'r', clusterDomain: true, reverse: false }] }))).toThrow(
      "Upstream of zone cluster.local [::ffff:7f00:1]:53 is one of the proxy's own listeners",
    );
    // 127.0.0.53 (systemd-resolved) is another socket when the proxy binds 127.0.0.1 only.
    expect(checkPlan(plan({ upstreams: ['127.0.0.53'] })).upstreams).toEqual([{ family: 4, ip: '127.0.0.53', port: 53 }]);
    // Same address on another port is a different server (e.g. a local resolver on 5353).
    expect(checkPlan(plan({ upstreams: ['127.0.0.1:5353'] })).upstreams).toEqual([{ family: 4, ip: '127.0.0.1', port: 5353 }]);
  });

  it('strips control characters from comments', () => {
    expect(commentSafe('a\nserver=/x/1.1.1.1\r\tb')).toBe('a server=/x/1.1.1.1 b');
  });
});
