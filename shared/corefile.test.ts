import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zonesFromCorefile } from './corefile';

const dir = join(import.meta.dirname, '..', 'fixtures', 'corefiles');
const expected = JSON.parse(readFileSync(join(dir, 'expected-zones.json'), 'utf8')) as {
  cidrs: { service: string; pod: string };
} & Record<string, { clusterDomain: string; forward: string[] }>;
const fixtureNames = Object.keys(expected).filter((k) => k.endsWith('.Corefile'));

const run = (corefile: string, extra: Partial<Parameters<typeof zonesFromCorefile>[0]> = {}) =>
  zonesFromCorefile({
    corefile,
    kubeDnsIp: '172.21.0.10',
    serviceCidrs: [expected.cidrs.service],
    podCidrs: [expected.cidrs.pod],
    ...extra,
  });

describe('zonesFromCorefile on fixtures/corefiles', () => {
  it.each(fixtureNames)('%s gives exactly the expected zones', (name) => {
    const out = run(readFileSync(join(dir, name), 'utf8'));
    expect(out.clusterDomain).toBe(expected[name]!.clusterDomain);
    expect(out.zones.map((z) => z.zone)).toEqual(expected[name]!.forward);
    expect(new Set(out.zones.map((z) => z.upstream))).toEqual(new Set(['172.21.0.10']));
  });

  it('explains every kubeadm-default zone', () => {
    const out = run(readFileSync(join(dir, 'kubeadm-default.Corefile'), 'utf8'));
    expect(out.zones).toEqual([
      { zone: 'cluster.local', upstream: '172.21.0.10', source: 'corefile', reason: 'Corefile server block ".:53", plugin "kubernetes"', clusterDomain: true, reverse: false },
      { zone: '20.172.in-addr.arpa', upstream: '172.21.0.10', source: 'cidr', reason: 'pod CIDR 172.20.0.0/16', clusterDomain: false, reverse: true },
      { zone: '21.172.in-addr.arpa', upstream: '172.21.0.10', source: 'cidr', reason: 'service CIDR 172.21.0.0/16', clusterDomain: false, reverse: true },
    ]);
    expect(out.warnings).toEqual([]);
  });

  it('names server blocks and plugins in custom-server-blocks reasons', () => {
    const out = run(readFileSync(join(dir, 'custom-server-blocks.Corefile'), 'utf8'));
    const reasons = Object.fromEntries(out.zones.map((z) => [z.zone, z.reason]));
    expect(reasons['consul.internal']).toBe('Corefile server block "consul.internal:53", plugin "forward"');
    // Internet names under ICANN suffixes: refused (zone policy), with the same reason and why.
    const refused = Object.fromEntries(out.refused.map((z) => [z.zone, [z.reason, z.why]]));
    expect(refused['example.org']).toEqual(['Corefile server block "example.org:53 lab.example.net", plugin "file"', 'an Internet name under the public suffix .org: as a route it would send all of example.org to the cluster']);
    expect(refused['lab.example.net']?.[0]).toBe('Corefile server block "example.org:53 lab.example.net", plugin "file"');
    expect(run(readFileSync(join(dir, 'custom-server-blocks.Corefile'), 'utf8'), { allowZones: ['example.org'] }).zones.map((z) => z.zone)).toContain('example.org');
    expect(reasons['mesh.local']).toBe('Corefile server block "dns://mesh.local:53", plugin "forward"');
  });

  it('folds etcd cluster.local and hosts entries under cluster.local (k2s-windows-host)', () => {
    const out = run(readFileSync(join(dir, 'k2s-windows-host.Corefile'), 'utf8'));
    expect(out.zones[0]).toMatchObject({ zone: 'cluster.local', clusterDomain: true, reason: 'Corefile server block ".:53", plugin "kubernetes"' });
    expect(out.zones.filter((z) => z.zone.includes('k2s'))).toEqual([]);
  });
});

describe('zonesFromCorefile rules', () => {
  it('reads the cluster domain from the kubernetes plugin, never assuming cluster.local', () => {
    const out = run('.:53 {\n  kubernetes k8s.corp in-addr.arpa ip6.arpa\n  forward . /etc/resolv.conf\n}\n');
    expect(out.clusterDomain).toBe('k8s.corp');
    expect(out.zones.map((z) => z.zone)).toEqual(['k8s.corp', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
  });

  it('uses the block key as zone when kubernetes has no arguments', () => {
    const out = run('cluster.example:53 {\n  kubernetes\n}\n.:53 {\n  forward . 1.1.1.1\n}\n', { podCidrs: [] });
    expect(out.clusterDomain).toBe('cluster.example');
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.example', '21.172.in-addr.arpa']);
  });

  it('adds hosts entries of the root block outside routed zones, and IPv6 CIDR reverse zones', () => {
    const corefile = '.:53 {\n  kubernetes cluster.local\n  hosts {\n    10.0.0.7 registry.corp.example\n    10.0.0.8 api.cluster.local\n    fallthrough\n  }\n}\n';
    const out = run(corefile, { serviceCidrs: ['fd00:10:96::/112'], podCidrs: [] });
    expect(out.zones.map((z) => [z.zone, z.reason])).toEqual([
      ['cluster.local', 'Corefile server block ".:53", plugin "kubernetes"'],
      ['registry.corp.example', 'Corefile server block ".:53", plugin "hosts", entry 10.0.0.7'],
      ['0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.6.9.0.0.0.1.0.0.0.0.d.f.ip6.arpa', 'service CIDR fd00:10:96::/112'],
    ]);
  });

  it('never forwards all of in-addr.arpa, even from a server block key', () => {
    const out = run('.:53 {\n  kubernetes cluster.local\n}\nin-addr.arpa:53 {\n  forward . 10.1.1.1\n}\n');
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local', '20.172.in-addr.arpa', '21.172.in-addr.arpa']);
    expect(out.refused).toEqual([
      { zone: 'in-addr.arpa', reason: 'Corefile server block "in-addr.arpa:53", plugin "forward"', why: "all of in-addr.arpa: LAN PTR lookups would go to the cluster; only the cluster CIDRs' reverse zones are forwarded", allowable: false },
    ]);
  });

  it('skips blocks on another port than the kubernetes block', () => {
    const out = run('.:53 {\n  kubernetes cluster.local\n}\nmetrics.internal:1053 {\n  whoami\n}\n', { serviceCidrs: [], podCidrs: [] });
    expect(out.zones.map((z) => z.zone)).toEqual(['cluster.local']);
    expect(out.warnings[0]).toContain('key "metrics.internal:1053" listens on dns://…:1053');
  });

  it('resolves k3s-style imports of coredns-custom *.server files and reports {$ENV} placeholders', () => {
    const corefile = '.:53 {\n  kubernetes cluster.local {$EXTRA_ZONE}\n  import /etc/coredns/custom/*.override\n}\nimport /etc/coredns/custom/*.server\n';
    const out = run(corefile, {
      serviceCidrs: [],
      podCidrs: [],
      extraFiles: { 'corp.server': 'corp.example:53 {\n  forward . 10.9.9.9\n}\n', 'log.override': 'log\n' },
    });
    expect(out.zones.map((z) => [z.zone, z.reason])).toEqual([
      ['cluster.local', 'Corefile server block ".:53", plugin "kubernetes"'],
      ['corp.example', 'Corefile server block "corp.example:53", plugin "forward"'],
    ]);
    expect(out.warnings).toEqual([
      'Corefile line 2: environment placeholder {$EXTRA_ZONE} is kept as text; its value in the CoreDNS pod is unknown here.',
    ]);
  });

  it('warns about imports it cannot resolve', () => {
    const out = run('.:53 {\n  import missing-snippet\n  kubernetes cluster.local\n}\nimport /etc/coredns/custom/*.server\n', { serviceCidrs: [], podCidrs: [] });
    expect(out.warnings).toEqual([
      'Corefile line 2: "import missing-snippet" names no snippet or file known here; zones it defines are missing.',
      'Corefile line 5: "import /etc/coredns/custom/*.server" reads files that were not provided (coredns-custom ConfigMap?); zones they define are missing.',
    ]);
  });

  it('rejects a Corefile without kubernetes plugin, unbalanced braces and a bad kube-dns IP', () => {
    expect(() => run('.:53 {\n  forward . 8.8.8.8\n}\n')).toThrow('has no kubernetes plugin, so the cluster domain is unknown');
    expect(() => run('.:53 {\n  kubernetes cluster.local {\n    pods insecure\n}\n')).toThrow('line 1: a block opened here is never closed');
    expect(() => run('.:53 {\n kubernetes cluster.local\n}\n', { kubeDnsIp: 'kube-dns' })).toThrow('is not an IP address; check the kube-dns Service');
  });
});
