/**
 * Zone policy gaps an adversarial review found after the 9.2 merge: cluster CIDRs bypassed the
 * policy, and server block keys with a port or scheme, names under the host's search domains
 * and extra zones on the `kubernetes` line slipped past it.
 */
import { describe, expect, it } from 'vitest';
import { zonesFromCorefile, type CorefileZonesInput } from './corefile';
import { cidrRefusal, CLUSTER_CIDR_SPACE, MIN_CLUSTER_PREFIX } from './corefile-policy';

const KUBE = '.:53 {\n  kubernetes cluster.local in-addr.arpa ip6.arpa\n  forward . /etc/resolv.conf\n}\n';
const run = (corefile: string, extra: Partial<CorefileZonesInput> = {}) =>
  zonesFromCorefile({ corefile, kubeDnsIp: '172.21.0.10', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], ...extra });
const forwarded = (out: ReturnType<typeof run>) => out.zones.map((z) => z.zone);

describe('cluster CIDRs go through the zone policy (kubeadm-config podSubnet/serviceSubnet, node podCIDRs)', () => {
  it('a podSubnet 0.0.0.0/1 routes none of its 128 /8 reverse zones; each is refused with the size why', () => {
    const out = run(KUBE, { podCidrs: ['0.0.0.0/1'] });
    expect(forwarded(out)).toEqual(['cluster.local', '21.172.in-addr.arpa']);
    expect(out.refused).toHaveLength(128);
    expect(out.refused.find((r) => r.zone === '10.in-addr.arpa')).toEqual({
      zone: '10.in-addr.arpa',
      reason: 'pod CIDR 0.0.0.0/1',
      why: 'cluster CIDR 0.0.0.0/1 is a /1, larger than any cluster network (at most /8 for IPv4, /48 for IPv6): PTR lookups of other networks would go to the cluster',
      allowable: true,
    });
  });

  it('a public serviceSubnet (8.8.0.0/16) is refused as not private; --allow-zone forwards it', () => {
    const out = run(KUBE, { serviceCidrs: ['8.8.0.0/16'] });
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa']);
    expect(out.refused).toEqual([
      {
        zone: '8.8.in-addr.arpa',
        reason: 'service CIDR 8.8.0.0/16',
        why: 'cluster CIDR 8.8.0.0/16 is not private address space (RFC 1918, RFC 6598 100.64/10, ULA fd00::/8): PTR lookups of those addresses would go to the cluster',
        allowable: true,
      },
    ]);
    const allowed = run(KUBE, { serviceCidrs: ['8.8.0.0/16'], allowZones: ['8.8.in-addr.arpa'] });
    expect(forwarded(allowed)).toEqual(['cluster.local', '20.172.in-addr.arpa', '8.8.in-addr.arpa']);
    expect(allowed.allowed).toEqual(['8.8.in-addr.arpa']);
  });

  it('a refused CIDR does not make a served key under it acceptable ("inside the cluster CIDRs")', () => {
    const out = run(`${KUBE}4.4.8.8.in-addr.arpa:53 {\n  forward . 10.0.0.4\n}\n`, { podCidrs: ['8.8.0.0/16'] });
    expect(forwarded(out)).toEqual(['cluster.local', '21.172.in-addr.arpa']);
    expect(out.refused.map((r) => r.zone).sort()).toEqual(['4.4.8.8.in-addr.arpa', '8.8.in-addr.arpa']);
  });

  it('private space is forwarded: RFC 1918, RFC 6598 100.64/10, ULA /48 and longer', () => {
    const out = run(KUBE, { serviceCidrs: ['10.96.0.0/12', 'fd00:10:96::/112'], podCidrs: ['100.64.0.0/16', '192.168.0.0/16', 'fd00:10:244::/56'] });
    expect(out.refused).toEqual([]);
    expect(forwarded(out)).toEqual([
      'cluster.local',
      '0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa',
      '0.0.4.4.2.0.0.1.0.0.0.0.d.f.ip6.arpa',
      '100.10.in-addr.arpa', '101.10.in-addr.arpa', '102.10.in-addr.arpa', '103.10.in-addr.arpa',
      '104.10.in-addr.arpa', '105.10.in-addr.arpa', '106.10.in-addr.arpa', '107.10.in-addr.arpa',
      '108.10.in-addr.arpa', '109.10.in-addr.arpa', '110.10.in-addr.arpa', '111.10.in-addr.arpa',
      '168.192.in-addr.arpa', '64.100.in-addr.arpa',
      '96.10.in-addr.arpa', '97.10.in-addr.arpa', '98.10.in-addr.arpa', '99.10.in-addr.arpa',
    ]);
  });

  it('loopback, link-local, a /0, a too-short IPv6 prefix and non-CIDR text are never routed', () => {
    const out = run(KUBE, { serviceCidrs: ['127.0.0.0/8', '169.254.0.0/16'], podCidrs: ['0.0.0.0/0', 'fd00::/8', 'not-a-cidr'] });
    expect(forwarded(out)).toEqual(['cluster.local']);
    expect(out.refused.map((r) => [r.zone, r.allowable])).toEqual([
      ['127.in-addr.arpa', true],
      ['254.169.in-addr.arpa', true],
      ['d.f.ip6.arpa', true],
      ['in-addr.arpa', false],
    ]);
    expect(out.warnings).toEqual(['pod CIDR skipped: cluster CIDR "not-a-cidr" is not a CIDR.']);
  });

  it("a forwarded cluster CIDR that holds the host's nameserver (Calico 192.168.0.0/16 on a home LAN) is warned about", () => {
    const out = run(KUBE, { podCidrs: ['192.168.0.0/16'], nameservers: ['192.168.1.1', '[fd00::53]:53', '10.0.0.1:5353'] });
    expect(forwarded(out)).toContain('168.192.in-addr.arpa');
    expect(out.warnings).toEqual([
      "Cluster CIDR 192.168.0.0/16 holds this host's nameserver 192.168.1.1: the cluster overlaps the LAN, so PTR lookups of LAN addresses in it go to CoreDNS instead of that nameserver; check the cluster's pod and service CIDRs.",
    ]);
    // Refused CIDRs route nothing, so they need no warning.
    expect(run(KUBE, { podCidrs: ['8.8.0.0/16'], nameservers: ['8.8.8.8'] }).warnings).toEqual([]);
  });

  it('cidrRefusal states its limits: the space list and /8, /48', () => {
    expect(CLUSTER_CIDR_SPACE).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fd00::/8']);
    expect(MIN_CLUSTER_PREFIX).toEqual({ 4: 8, 6: 48 });
    expect(cidrRefusal('10.0.0.0/8')).toBeNull();
    expect(cidrRefusal('172.16.0.0/12')).toBeNull();
    expect(cidrRefusal('172.15.0.0/16')?.why).toContain('not private address space');
    expect(cidrRefusal('100.128.0.0/16')?.why).toContain('not private address space');
    expect(cidrRefusal('fd12:3456:789a::/48')).toBeNull();
    expect(cidrRefusal('fd12:3456::/47')?.why).toContain('is a /47');
    expect(cidrRefusal('fc00:1::/48')?.why).toContain('not private address space');
  });
});

describe('server blocks are normalised (scheme, port, trailing dot, case) before the policy judges them', () => {
  const HOSTILE = (key: string) => `${KUBE}${key} {\n  forward . 10.0.0.4\n}\n`;

  it.each([
    ['google.com:53', 'google.com'],
    ['dns://google.com', 'google.com'],
    ['dns://Google.COM.:53', 'google.com'],
    ['google.com.', 'google.com'],
    ['COM.:53', 'com'],
  ])('key %s is judged as %s and refused', (key, zone) => {
    const out = run(HOSTILE(key));
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused.map((r) => [r.zone, r.allowable])).toEqual([[zone, true]]);
  });

  it('an Internet name as a key is refused like a hosts entry (it would route all of google.com)', () => {
    const out = run(HOSTILE('google.com:53'));
    expect(out.refused[0]?.why).toBe('an Internet name under the public suffix .com: as a route it would send all of google.com to the cluster');
    expect(forwarded(run(HOSTILE('google.com:53'), { allowZones: ['google.com'] }))).toContain('google.com');
  });

  it("names under, equal to or above the host's search domains are refused", () => {
    const out = run(HOSTILE('printer.corp.lan:53 corp.lan:53 lan:53 other.lan:53'), { searchDomains: ['corp.lan'] });
    expect(out.refused.map((r) => [r.zone, r.why])).toEqual([
      ['corp.lan', "one of this host's own search domains"],
      ['lan', 'a top-level domain: every name under it would go to the cluster'],
      ['printer.corp.lan', "under this host's search domain corp.lan: the host's own names there would go to the cluster"],
    ]);
    expect(forwarded(out)).toContain('other.lan');
  });

  it('extra zones on the kubernetes line go through the policy; only the cluster domain is exempt', () => {
    const out = run('.:53 {\n  kubernetes cluster.local google.com corp.lan com in-addr.arpa\n  forward . /etc/resolv.conf\n}\n', { searchDomains: ['corp.lan'] });
    expect(out.clusterDomain).toBe('cluster.local');
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused.map((r) => r.zone)).toEqual(['com', 'corp.lan', 'google.com']);
    // Keys of a kubernetes block without arguments are the plugin's zones too.
    const keys = run('cluster.local:53 google.com:53 {\n  kubernetes\n}\n');
    expect(forwarded(keys)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
  });

  it('an Internet name is not the cluster domain unless the user allows it', () => {
    expect(run('google.com:53 cluster.local:53 {\n  kubernetes\n}\n').clusterDomain).toBe('cluster.local');
    expect(() => run('.:53 {\n  kubernetes google.com\n}\n')).toThrow('if this cluster really serves it, start with --allow-zone google.com');
    expect(run('.:53 {\n  kubernetes k8s.mycorp.com\n}\n', { allowZones: ['k8s.mycorp.com'] }).clusterDomain).toBe('k8s.mycorp.com');
  });
});
