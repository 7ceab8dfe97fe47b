import { describe, expect, it } from 'vitest';
import { corednsForwardLoop, forwardReachesProxy, forwardTargetAddress, loopRefusalWhy } from './coredns-loop';
import { LIVE_LOOP_FIX } from './live-loop';
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

describe('forwardTargetAddress / forwardReachesProxy: forward targets normalised before comparing', () => {
  it('reads every spelling of the KubeSwitch listener on port 53 as 172.19.1.1', () => {
    for (const t of ['172.19.1.1', '172.19.1.1:53', '172.19.1.1:053', 'dns://172.19.1.1', 'DNS://172.19.1.1:53', '::ffff:172.19.1.1', '[::ffff:172.19.1.1]:53', '[::ffff:ac13:101]:53', '::FFFF:AC13:101', 'dns://[::ffff:ac13:101]']) {
      expect(forwardTargetAddress(t), t).toBe('172.19.1.1');
      expect(forwardReachesProxy(t, LISTENERS), t).toBe(true);
    }
  });
  it('loopback in any spelling reaches the proxy; another port, protocol, a file, a name or a LAN nameserver does not', () => {
    for (const t of ['127.0.0.1', '127.0.0.53:53', '::1', '[::1]:53', '::ffff:127.0.0.1', '0.0.0.0']) expect(forwardReachesProxy(t, LISTENERS), t).toBe(true);
    for (const t of ['172.19.1.1:5353', '[::ffff:ac13:101]:5353', '172.19.1.1:53x', 'tls://172.19.1.1', 'grpc://172.19.1.1', '/etc/resolv.conf', 'dns.example', '192.168.1.1', '[192.168.1.1]:53', '172.19.1.10']) {
      expect(forwardReachesProxy(t, LISTENERS), t).toBe(false);
    }
    expect(forwardTargetAddress('172.19.1.1:5353')).toBeNull();
  });
});

describe('zonesFromCorefile refuses zones CoreDNS forwards back to this host', () => {
  const MAIN = corefile('192.168.1.1');
  const input = (extra: string, main = MAIN, allowZones: string[] = []) => ({ corefile: main + extra, kubeDnsIp: '172.21.0.10', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], proxyListeners: LISTENERS, allowZones });
  const refusedOf = (out: ReturnType<typeof zonesFromCorefile>) => out.refused.map((r) => [r.zone, r.allowable, r.why]);
  const why = (targets: string, line: number, part?: string) =>
    `${part ? `CoreDNS forwards ${part}, a part of it,` : 'CoreDNS forwards it'} to ${targets} (Corefile line ${line}), this host's proxy: routing it to CoreDNS would loop; forward it in CoreDNS to the nameserver that serves it (\`forward .\` followed by its IP address), not to this host, to route it`;

  it('a server block `corp.internal:53 { forward . <listener> }`, in each spelling of the target: refused, not allowable, even with --allow-zone', () => {
    for (const t of ['172.19.1.1', '::ffff:172.19.1.1', '[::ffff:ac13:101]:53', '172.19.1.1:053', 'dns://172.19.1.1', '127.0.0.1', '[::1]:53']) {
      const out = zonesFromCorefile(input(`corp.internal:53 {\n  errors\n  prometheus :9153\n  forward . ${t}\n}\n`, MAIN, ['corp.internal']));
      expect(out.zones.map((z) => z.zone), t).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
      expect(refusedOf(out), t).toEqual([['corp.internal', false, why(t, 15)]]);
      expect(out.allowed).toEqual([]);
      expect(out.warnings.filter((w) => w.includes('would loop'))).toEqual([`CoreDNS forwards corp.internal to ${t} (Corefile line 15), this host's proxy: it is not routed to CoreDNS (that would loop), so the host resolves it through its own nameservers.`]);
    }
  });
  it('the same block forwarding to another port, a LAN nameserver or tls:// is routed as before', () => {
    for (const t of ['172.19.1.1:5353', '192.168.1.1', 'tls://172.19.1.1']) {
      expect(zonesFromCorefile(input(`corp.internal:53 {\n  forward . ${t}\n}\n`)).zones.map((z) => z.zone), t).toContain('corp.internal');
    }
  });
  it('`forward corp.internal <listener>` inside the main block: refused; forward . to a LAN nameserver stays', () => {
    const main = corefile('192.168.1.1').replace('  forward . 192.168.1.1\n', '  forward corp.internal 172.19.1.1\n  forward . 192.168.1.1\n');
    const out = zonesFromCorefile(input('', main));
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(refusedOf(out)).toEqual([['corp.internal', false, why('172.19.1.1', 8)]]);
  });
  it('a separate `20.172.in-addr.arpa:53 { forward . <listener> }` block: that cluster reverse zone is refused, the other stays', () => {
    const out = zonesFromCorefile(input('20.172.in-addr.arpa:53 {\n  forward . 172.19.1.1\n}\n', MAIN, ['20.172.in-addr.arpa']));
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local', '21.172.in-addr.arpa']);
    expect(refusedOf(out)).toEqual([['20.172.in-addr.arpa', false, why('172.19.1.1', 13)]]);
  });
  it('a block for part of a routed zone (99.20.172.in-addr.arpa) refuses the routed zone, naming the part', () => {
    const out = zonesFromCorefile(input('99.20.172.in-addr.arpa:53 {\n  forward . dns://172.19.1.1:53\n}\n'));
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local', '21.172.in-addr.arpa']);
    expect(refusedOf(out)).toEqual([
      ['20.172.in-addr.arpa', false, why('dns://172.19.1.1:53', 13, '99.20.172.in-addr.arpa')],
      ['99.20.172.in-addr.arpa', false, why('dns://172.19.1.1:53', 13)],
    ]);
  });
  it('a zone a plugin of the block answers itself (file, hosts without fallthrough) is no loop: forward never sees it', () => {
    expect(zonesFromCorefile(input('corp.internal:53 {\n  file db.corp\n  forward . 172.19.1.1\n}\n')).zones.map((z) => z.zone)).toContain('corp.internal');
    const out = zonesFromCorefile(input('corp.internal:53 {\n  hosts {\n    10.0.0.1 a.corp.internal\n    fallthrough\n  }\n  forward . 172.19.1.1\n}\n'));
    expect(out.refused.map((r) => r.zone)).toEqual(['corp.internal']);
  });
});

// Walk 7 M4: no `forward . <nameserver>` to paste into a Corefile; the LAN's addresses are the user's, said in prose.
describe('the Corefile fix names no placeholder', () => {
  it('the reverse-zone refusal and the live loop\'s fix say `forward .` followed by the addresses', () => {
    expect(loopRefusalWhy({ targets: ['172.19.1.1'], fallthrough: ['in-addr.arpa', 'ip6.arpa'], where: 'Corefile line 8' })).toBe(
      "CoreDNS falls through it (fallthrough in-addr.arpa ip6.arpa) and forwards to 172.19.1.1 (Corefile line 8), this host's proxy: routing it to CoreDNS would loop; forward CoreDNS to the LAN nameservers (`forward .` followed by their IP addresses) or drop in-addr.arpa ip6.arpa from the fallthrough to route it",
    );
    expect(LIVE_LOOP_FIX.gui).toBe("Make CoreDNS forward to the LAN nameservers instead of the KubeSwitch address (Corefile `forward .` followed by their IP addresses), or drop `in-addr.arpa ip6.arpa` from the kubernetes plugin's fallthrough; then Stop and Start K2s DNS: start keeps such zones off the host routes.");
    expect(LIVE_LOOP_FIX.cli).not.toContain('<');
  });
});
