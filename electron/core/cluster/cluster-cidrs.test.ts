import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseCidrs, ipv4Slash16, parseKubeadmNetworking } from './cluster-cidrs';

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/k8s/configmap-kubeadm-config.json', import.meta.url), 'utf8'),
) as { data: { ClusterConfiguration: string } };

describe('parseKubeadmNetworking', () => {
  it('reads the K2s ClusterConfiguration fixture', () => {
    expect(parseKubeadmNetworking(fixture.data.ClusterConfiguration)).toEqual({
      serviceCidrs: ['172.21.0.0/16'],
      podCidrs: ['172.20.0.0/16'],
      dnsDomain: 'cluster.local',
    });
  });

  it('splits dual-stack comma-separated subnets', () => {
    const yaml = 'networking:\n  serviceSubnet: "10.96.0.0/12, fd00:10:96::/108"\n  podSubnet: 10.244.0.0/16,fd00:10:244::/56\n';
    expect(parseKubeadmNetworking(yaml)).toEqual({
      serviceCidrs: ['10.96.0.0/12', 'fd00:10:96::/108'],
      podCidrs: ['10.244.0.0/16', 'fd00:10:244::/56'],
      dnsDomain: null,
    });
  });

  it('throws for text that is not one YAML document (the caller warns and falls back)', () => {
    expect(() => parseKubeadmNetworking('networking:\n  podSubnet: [10.244.0.0/16\n')).toThrow();
    expect(() => parseKubeadmNetworking('networking: {}\n---\nnetworking: {}\n')).toThrow(/single document/);
    expect(() => parseKubeadmNetworking('networking:\n  podSubnet: 10.0.0.0/8\n  podSubnet: 10.0.0.0/8\n')).toThrow(/duplicated mapping key/);
  });

  it('reads aliases and ignores a document that is no mapping or a subnet that is no string', () => {
    expect(parseKubeadmNetworking('x: &s 10.96.0.0/12\nnetworking:\n  serviceSubnet: *s\n  podSubnet: 10\n')).toEqual({ serviceCidrs: ['10.96.0.0/12'], podCidrs: [], dnsDomain: null });
    expect(parseKubeadmNetworking('- a\n- b\n')).toEqual({ serviceCidrs: [], podCidrs: [], dnsDomain: null });
    expect(parseKubeadmNetworking('')).toEqual({ serviceCidrs: [], podCidrs: [], dnsDomain: null });
  });

  it('rejects a subnet that is not a CIDR, naming the key', () => {
    expect(() => parseKubeadmNetworking('networking:\n  podSubnet: 172.20.0.0\n')).toThrow(/networking.podSubnet: "172.20.0.0" is not a CIDR/);
  });
});

describe('chooseCidrs', () => {
  it('uses kubeadm-config when it has both subnets, without warnings', () => {
    expect(
      chooseCidrs({
        kubeadm: { serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], dnsDomain: null },
        nodePodCidrs: ['172.20.0.0/24'],
        kubeDnsIp: '172.21.0.10',
      }),
    ).toEqual({ serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], cidrSource: 'kubeadm-config', warnings: [] });
  });

  it('falls back to node podCIDRs and the K2s service CIDR when it contains kube-dns', () => {
    const c = chooseCidrs({ kubeadm: null, nodePodCidrs: ['172.20.0.0/24'], kubeDnsIp: '172.21.0.10' });
    expect(c.serviceCidrs).toEqual(['172.21.0.0/16']);
    expect(c.podCidrs).toEqual(['172.20.0.0/24']);
    expect(c.cidrSource).toBe('node-podcidr');
    expect(c.warnings).toEqual([
      'No serviceSubnet in kube-system/kubeadm-config: using the K2s default service CIDR 172.21.0.0/16 (stated fallback; it contains the kube-dns ClusterIP 172.21.0.10).',
      "No podSubnet in kube-system/kubeadm-config: using the nodes' podCIDRs 172.20.0.0/24.",
    ]);
  });

  it('uses the /16 around a non-K2s kube-dns ClusterIP and the K2s pod default as stated fallbacks', () => {
    const c = chooseCidrs({ kubeadm: null, nodePodCidrs: [], kubeDnsIp: '10.96.0.10' });
    expect(c).toMatchObject({ serviceCidrs: ['10.96.0.0/16'], podCidrs: ['172.20.0.0/16'], cidrSource: 'fallback' });
    expect(c.warnings[0]).toContain('assuming service CIDR 10.96.0.0/16, the /16 around the kube-dns ClusterIP 10.96.0.10 (stated fallback');
    expect(c.warnings[1]).toContain('using the K2s default pod CIDR 172.20.0.0/16 (stated fallback)');
  });

  it('ipv4Slash16 gives null for IPv6', () => {
    expect(ipv4Slash16('fd00:10:96::a')).toBeNull();
    expect(ipv4Slash16('172.21.0.10')).toBe('172.21.0.0/16');
  });
});
