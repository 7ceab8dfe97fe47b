import { describe, expect, it } from 'vitest';
import { MAX_COREFILE_BYTES, MAX_ZONES_PER_PLAN, zonesFromCorefile, type CorefileZonesInput } from './corefile';
import { MAX_REASON_LENGTH, zoneRefusal } from './corefile-policy';
import { routingDomains } from './resolved-link';
import { renderDnsproxyConfig } from './dnsproxy-config';
import { renderDnsmasqConfig } from './dnsmasq-config';
import type { ProxyPlan } from './types';

const KUBE = '.:53 {\n  kubernetes cluster.local in-addr.arpa ip6.arpa\n  forward . /etc/resolv.conf\n}\n';
const run = (corefile: string, extra: Partial<CorefileZonesInput> = {}) =>
  zonesFromCorefile({ corefile, kubeDnsIp: '172.21.0.10', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], ...extra });
const forwarded = (out: ReturnType<typeof run>) => out.zones.map((z) => z.zone);

describe('one zone-label rule for the policy and resolved routing domains', () => {
  it('-corp.lan and corp-.lan are refused at discovery (not allowable), with the label named; a-b.lan and _tcp.lan are forwarded', () => {
    const out = run(`${KUBE}-corp.lan:53 team.corp-.lan:53 a-b.lan:53 _tcp.lan:53 {\n  forward . 10.0.0.4\n}\n`);
    expect(forwarded(out)).toContain('a-b.lan');
    expect(forwarded(out)).toContain('_tcp.lan');
    expect(out.refused.map((r) => [r.zone, r.why, r.allowable])).toEqual([
      ['-corp.lan', 'its label "-corp" starts or ends with a hyphen (RFC 952, RFC 1123 §2.1 host name labels), which systemd-resolved\'s routing domains and the proxy\'s zone rules do not take; rename the zone in the Corefile', false],
      ['team.corp-.lan', 'its label "corp-" starts or ends with a hyphen (RFC 952, RFC 1123 §2.1 host name labels), which systemd-resolved\'s routing domains and the proxy\'s zone rules do not take; rename the zone in the Corefile', false],
    ]);
    // Every zone the policy forwards is one resolved can route (no late throw at activate).
    expect(routingDomains(forwarded(out))).toHaveLength(forwarded(out).length);
    expect(() => routingDomains(['-corp.lan'])).toThrow('Zone "-corp.lan" is not a plain domain name');
  });
  it('the hyphen rule refuses even when the user allows the zone', () => {
    const out = run(`${KUBE}-corp.lan:53 {\n  forward . 10.0.0.4\n}\n`, { allowZones: ['-corp.lan'] });
    expect(forwarded(out)).not.toContain('-corp.lan');
  });
});

describe('zone policy: cluster data cannot hijack host names (reproductions)', () => {
  it('a server block "test:53" (a whole TLD) is refused with why, and forwarded once the user allows it', () => {
    const corefile = `${KUBE}test:53 {\n  forward . 10.0.0.4\n}\n`;
    const out = run(corefile);
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused).toEqual([
      { zone: 'test', reason: 'Corefile server block "test:53", plugin "forward"', why: 'a top-level domain: every name under it would go to the cluster', allowable: true },
    ]);
    const allowed = run(corefile, { allowZones: ['TEST.'] });
    expect(forwarded(allowed)).toEqual(['cluster.local', 'test', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(allowed.zones[1]!.reason).toBe('Corefile server block "test:53", plugin "forward" (allowed by the user)');
    expect(allowed.allowed).toEqual(['test']);
    expect(allowed.refused).toEqual([]);
  });

  it('a multi-label public suffix (co.uk, github.io) is refused, a name under one too; a name under an unlisted TLD is forwarded', () => {
    const out = run(`${KUBE}co.uk:53 github.io:53 team.example.org:53 team.github.io:53 team.corp:53 {\n  forward . 10.0.0.4\n}\n`);
    expect(out.refused.map((r) => [r.zone, r.why.split(' (')[0]!.split(':')[0]])).toEqual([
      ['co.uk', 'a public suffix'],
      ['github.io', 'a public suffix'],
      ['team.example.org', 'an Internet name under the public suffix .org'],
      ['team.github.io', 'an Internet name under the public suffix .github.io'],
    ]);
    expect(forwarded(out)).toContain('team.corp');
  });

  it('a root-block hosts entry for an Internet name (some-name.com) is not a route; a cluster-private one is', () => {
    const out = run('.:53 {\n  hosts {\n    10.0.0.4 some-name.com\n    10.0.0.5 registry.k2s.lan\n    fallthrough\n  }\n  kubernetes cluster.local\n}\n');
    expect(forwarded(out)).toEqual(['cluster.local', 'registry.k2s.lan', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused).toEqual([
      { zone: 'some-name.com', reason: 'Corefile server block ".:53", plugin "hosts", entry 10.0.0.4', why: 'an Internet name under the public suffix .com: as a route it would send all of some-name.com to the cluster', allowable: true },
    ]);
  });

  it('keys 0.0.0.0/1:53 128.0.0.0/1:53 do not route the 256 /8 reverse zones (LAN PTRs stay on the host upstreams)', () => {
    const out = run(`${KUBE}0.0.0.0/1:53 128.0.0.0/1:53 {\n  forward . 10.0.0.4\n}\n`);
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused).toHaveLength(256);
    expect(out.refused.find((r) => r.zone === '192.in-addr.arpa')).toEqual({
      zone: '192.in-addr.arpa',
      reason: 'Corefile server block "0.0.0.0/1:53 128.0.0.0/1:53", plugin "forward"',
      why: 'a reverse zone outside the cluster CIDRs: PTR lookups of those addresses (the LAN) would go to the cluster',
      allowable: true,
    });
  });

  it('a reverse zone inside a cluster CIDR is forwarded; one outside is refused', () => {
    const out = run(`${KUBE}5.21.172.in-addr.arpa:53 168.192.in-addr.arpa:53 {\n  file db.ptr\n}\n`);
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused.map((r) => r.zone)).toEqual(['168.192.in-addr.arpa']);
  });

  it("one of the host's search domains (or its parent) is refused unless allowed", () => {
    const corefile = `${KUBE}corp.example:53 example.net:53 {\n  forward . 10.0.0.4\n}\n`;
    const out = run(corefile, { searchDomains: ['corp.example', 'lab.example.net.'] });
    expect(out.refused.map((r) => [r.zone, r.why])).toEqual([
      ['corp.example', "one of this host's own search domains"],
      ['example.net', "a parent of this host's search domain lab.example.net"],
    ]);
    expect(forwarded(run(corefile, { searchDomains: ['corp.example'], allowZones: ['corp.example'] }))).toContain('corp.example');
  });

  it('the cluster domain is never a placeholder (.svc) or a CHAOS name (hostname.bind)', () => {
    const out = run('.:53 {\n  kubernetes .svc hostname.bind cluster.local\n}\nversion.bind:53 {\n  chaos v1\n  whoami\n}\n');
    expect(out.clusterDomain).toBe('cluster.local');
    expect(forwarded(out)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused.map((r) => [r.zone, r.allowable])).toEqual([
      ['.svc', false],
      ['hostname.bind', false],
      ['version.bind', false],
    ]);
    expect(() => run('.:53 {\n  kubernetes .svc\n}\n')).toThrow('names no cluster zone (it names ".svc", none a usable cluster zone)');
    expect(() => run('.:53 {\n  kubernetes com\n}\n')).toThrow('names no cluster zone');
  });

  it('a non-allowable refusal stays refused even when allowed', () => {
    expect(zoneRefusal('in-addr.arpa', 'served', [], { allowZones: ['in-addr.arpa'] })?.allowable).toBe(false);
    const out = run(`${KUBE}in-addr.arpa:53 {\n  forward . 10.0.0.4\n}\n`, { allowZones: ['in-addr.arpa'] });
    expect(out.refused.map((r) => r.zone)).toEqual(['in-addr.arpa']);
  });

  it('rewrite and template in a served block warn about the names the host cannot resolve', () => {
    const out = run('.:53 {\n  rewrite name exact s3.zenko.local zenko.default.svc.cluster.local\n  rewrite name suffix .cluster.local .cluster.local\n  template IN A example.lan {\n    answer "{{ .Name }} 60 IN A 10.0.0.1"\n  }\n  kubernetes cluster.local\n}\n');
    expect(out.warnings).toEqual([
      'Corefile server block ".:53", plugin "rewrite" answers "s3.zenko.local" in pods, but the host sends it to its own upstreams (not a forwarded zone), so it does not resolve from the host the same way.',
      'Corefile server block ".:53", plugin "template" answers "example.lan" in pods, but the host sends it to its own upstreams (not a forwarded zone), so it does not resolve from the host the same way.',
    ]);
  });
});

describe('bounds', () => {
  it('the 369 KB, 19,980-key Corefile is refused with a clear message, fast, without a RangeError', () => {
    const keys = Array.from({ length: 19_980 }, (_, i) => `z${String(i).padStart(5, '0')}.bulk.lan:53`);
    const corefile = `${KUBE}${keys.join(' ')} {\n  forward . 10.0.0.4\n}\n`;
    expect(corefile.length).toBeGreaterThan(369_000);
    const t0 = Date.now();
    expect(() => run(corefile)).toThrow(`more than the ${MAX_COREFILE_BYTES} bytes (256 KiB) K2s DNS reads`);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('19,980 keys under the byte cap are refused by the zone cap, not built into a plan', () => {
    const keys = Array.from({ length: 19_980 }, (_, i) => `z${i.toString(36)}.lan`);
    const corefile = `${KUBE}${keys.join(' ')} {\n  forward . 10.0.0.4\n}\n`;
    expect(corefile.length).toBeLessThan(MAX_COREFILE_BYTES);
    expect(() => run(corefile)).toThrow(`more than the ${MAX_ZONES_PER_PLAN} K2s DNS forwards`);
  });

  it('a reason names at most 4 keys of a block and stays under the length cap', () => {
    const keys = Array.from({ length: 900 }, (_, i) => `k${i}.lan`);
    const out = run(`${KUBE}${keys.join(' ')} {\n  forward . 10.0.0.4\n}\n`);
    expect(out.zones).toHaveLength(903);
    expect(out.zones[1]!.reason).toBe('Corefile server block "k0.lan k1.lan k2.lan k3.lan (+896 more keys)", plugin "forward"');
    for (const z of out.zones) expect(z.reason.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
  });

  it('the largest plan the caps let through renders in both engines quickly and small (the RangeError input is refused before)', () => {
    const keys = Array.from({ length: 990 }, (_, i) => `z${String(i).padStart(5, '0')}.bulk.lan`);
    const out = run(`${KUBE}${keys.join(' ')} {\n  forward . 10.0.0.4\n}\n`);
    const plan: ProxyPlan = {
      engine: 'adguard',
      listeners: [{ address: '127.0.0.1', port: 53 }],
      zones: out.zones,
      upstreams: ['192.0.2.53'],
      clusterCidrs: ['172.21.0.0/16', '172.20.0.0/16'],
      logFile: '/var/log/k2s-dns/proxy.log',
      timeoutMs: 5000,
      verbose: false,
    };
    const t0 = Date.now();
    const adguard = renderDnsproxyConfig(plan);
    const dnsmasq = renderDnsmasqConfig({ ...plan, engine: 'dnsmasq' });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(adguard).toContain('/z00989.bulk.lan/');
    expect(dnsmasq).toContain('server=/z00989.bulk.lan/172.21.0.10');
    expect(adguard.length + dnsmasq.length).toBeLessThan(1_000_000);
  });
});
