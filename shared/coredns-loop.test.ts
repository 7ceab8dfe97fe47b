import { describe, expect, it } from 'vitest';
import { corednsForwardLoop } from './coredns-loop';
import { zonesFromCorefile } from './corefile';

const corefile = (forward: string, fallthrough = 'fallthrough in-addr.arpa ip6.arpa') =>
  `.:53 {\n  errors\n  kubernetes cluster.local in-addr.arpa ip6.arpa {\n    pods insecure\n    ${fallthrough}\n    ttl 30\n  }\n  forward . ${forward}\n  cache 30\n  loop\n}\n`;
const LISTENERS = ['127.0.0.1', '172.19.1.1'];

describe('corednsForwardLoop', () => {
  it('finds forward . to the KubeSwitch listener with reverse fallthrough, in any spelling of the target', () => {
    const cases: [string, string][] = [
      ['172.19.1.1', '172.19.1.1'],
      ['172.19.1.1:53', '172.19.1.1:53'],
      ['dns://172.19.1.1', 'dns://172.19.1.1'],
      ['dns://172.19.1.1:53', 'dns://172.19.1.1:53'],
      ['192.168.1.1 172.19.1.1', '172.19.1.1'],
    ];
    for (const [forward, target] of cases) {
      expect(corednsForwardLoop(corefile(forward), undefined, LISTENERS, '20.172.in-addr.arpa'), forward).toEqual({ targets: [target], fallthrough: ['in-addr.arpa', 'ip6.arpa'], where: 'Corefile line 8' });
    }
  });
  it('a bare fallthrough covers every zone; another port, TLS, a LAN nameserver or /etc/resolv.conf is no proxy loop', () => {
    expect(corednsForwardLoop(corefile('172.19.1.1', 'fallthrough'), undefined, LISTENERS, '21.172.in-addr.arpa')?.fallthrough).toEqual([]);
    for (const t of ['172.19.1.1:5353', 'tls://172.19.1.1', '192.168.1.1', '/etc/resolv.conf']) expect(corednsForwardLoop(corefile(t), undefined, LISTENERS), t).toBeNull();
  });
  it('no loop without a fallthrough of the reverse zones', () => {
    expect(corednsForwardLoop(corefile('172.19.1.1', 'fallthrough example.org'), undefined, LISTENERS, '20.172.in-addr.arpa')).toBeNull();
    expect(corednsForwardLoop(corefile('172.19.1.1', 'ttl 5'), undefined, LISTENERS)).toBeNull();
  });
});

describe('zonesFromCorefile keeps the looping reverse zones off the host routes', () => {
  const input = (forward: string) => ({ corefile: corefile(forward), kubeDnsIp: '172.21.0.10', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], proxyListeners: LISTENERS });
  it('refuses 20/21.172.in-addr.arpa with cause and fix, not allowable, and warns once', () => {
    const out = zonesFromCorefile(input('172.19.1.1'));
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local']);
    expect(out.refused.map((r) => [r.zone, r.allowable])).toEqual([
      ['20.172.in-addr.arpa', false],
      ['21.172.in-addr.arpa', false],
    ]);
    expect(out.refused[0]!.why).toContain('forwards to 172.19.1.1 (Corefile line 8), this host\'s proxy: routing it to CoreDNS would loop');
    expect(out.warnings.filter((w) => w.includes('would loop'))).toHaveLength(1);
  });
  it('routes them as before when CoreDNS forwards to a LAN nameserver', () => {
    expect(zonesFromCorefile(input('192.168.1.1')).zones.map((z) => z.zone)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
  });
});
