/** Loop check by address semantics for every upstream, kube-dns included. */
import { describe, expect, it } from 'vitest';
import type { ResolvConf } from '../../../shared/types';
import { kubeDnsLoop, loopReason, pickUpstreams } from './upstreams';

const LISTENERS = [
  { address: '127.0.0.1', port: 53 },
  { address: '172.19.1.1', port: 53 },
];
const HOST = ['127.0.0.1', '::1', '192.168.1.20', 'fd00::20', '172.19.1.1'];
const SERVICE_CIDRS = ['172.21.0.0/16'];
const conf = (...nameservers: string[]): ResolvConf => ({ nameservers, search: [], options: [], sortlist: [], unknown: [] });

describe('kube-dns ClusterIP loop check', () => {
  it.each([
    ['0.0.0.0', 'is the unspecified address (this host itself)'],
    ['::', 'is the unspecified address (this host itself)'],
    ['::ffff:0.0.0.0', 'is the unspecified address (this host itself)'],
    ['::ffff:127.0.0.1', 'is a loopback address'],
    ['::ffff:7f00:1', 'is a loopback address'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'is a loopback address'],
    ['127.0.0.53', 'is a loopback address'],
    ['0:0:0:0:0:0:0:1', 'is a loopback address'],
    ['::ffff:ac13:101', "is the proxy's own listener 172.19.1.1:53"],
    ['192.168.1.20', 'is an address of this host outside the service CIDRs (172.21.0.0/16)'],
    ['fd00:0:0:0:0:0:0:20', 'is an address of this host outside the service CIDRs (172.21.0.0/16)'],
  ])('refuses %s', (ip, why) => {
    expect(kubeDnsLoop(ip, LISTENERS, HOST, SERVICE_CIDRS)).toBe(
      `The kube-dns ClusterIP ${ip} ${why}: forwarding the cluster zones there would send them back into this host's proxy (a loop); check the cluster DNS Service (\`kubectl -n kube-system get svc -l k8s-app=kube-dns -o wide\`).`,
    );
  });

  it('accepts a real ClusterIP, also when IPVS put it on a host interface (kube-ipvs0)', () => {
    expect(kubeDnsLoop('172.21.0.10', LISTENERS, HOST, SERVICE_CIDRS)).toBeNull();
    expect(kubeDnsLoop('172.21.0.10', LISTENERS, [...HOST, '172.21.0.10'], SERVICE_CIDRS)).toBeNull();
  });
});

describe('default upstream loop check', () => {
  it("refuses the unspecified address; this host's own address only loops into a wildcard listener", () => {
    const r = pickUpstreams({ resolvConf: conf('192.168.1.20', '[fd00::20]:53', '::ffff:0:0', '192.168.1.1'), listeners: LISTENERS, hostAddresses: HOST });
    // A local resolver with its own upstreams on a LAN address is legitimate (router-like hosts).
    expect(r.upstreams).toEqual(['192.168.1.20', 'fd00::20', '192.168.1.1']);
    expect(r.dropped.map((d) => [d.server, d.kind, d.reason])).toEqual([
      ['::ffff:0:0', 'loop', "it reaches the proxy's own listener 127.0.0.1:53; forwarding there would loop"],
    ]);
    expect(loopReason('192.168.1.20', [{ address: '0.0.0.0', port: 53 }], HOST)).toBe("it is this host's own address 192.168.1.20, where the proxy's wildcard listener 0.0.0.0:53 answers");
  });

  it('keeps a resolver on another port of this host (e.g. 192.168.1.20:5353)', () => {
    expect(loopReason('192.168.1.20:5353', LISTENERS, HOST)).toBeNull();
    expect(loopReason('[::]:5353', LISTENERS, HOST)).toBe('it is the unspecified address, which means this host itself');
  });
});
