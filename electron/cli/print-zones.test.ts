import { describe, expect, it } from 'vitest';
import { zonesFromCorefile } from '../../shared/corefile';
import type { ClusterDiscovery } from '../../shared/types';
import { formatZones, MAX_WARNING, MAX_ZONE_ROWS } from './print-zones';

function discovery(corefile: string, allowZones?: string[]): ClusterDiscovery {
  const z = zonesFromCorefile({ corefile, kubeDnsIp: '172.21.0.10', serviceCidrs: ['172.21.0.0/16'], podCidrs: ['172.20.0.0/16'], ...(allowZones ? { allowZones } : {}) });
  return {
    kubeconfigPath: '/home/u/.kube/config',
    context: 'k2s',
    apiServer: 'https://172.19.1.100:6443',
    kubeDnsIp: '172.21.0.10',
    kubernetesServiceIp: '172.21.0.1',
    clusterDomain: z.clusterDomain,
    serviceCidrs: ['172.21.0.0/16'],
    podCidrs: ['172.20.0.0/16'],
    cidrSource: 'kubeadm-config',
    zones: z.zones,
    warnings: z.warnings,
    refusedZones: z.refused,
    allowedZones: z.allowed,
    corefileSource: 'kube-system/coredns',
  };
}

describe('k2s-dns zones output', () => {
  it('lists refused zones with why and names the API server and ConfigMap used', () => {
    const text = formatZones(discovery('.:53 {\n  kubernetes cluster.local\n}\ntest:53 {\n  forward . 10.0.0.4\n}\n'));
    expect(text).toContain('Not forwarded (zone policy; --allow-zone ZONE on start forwards one marked allowable):');
    expect(text).toMatch(/\ntest {2}allowable {2}a top-level domain: every name under it would go to the cluster — Corefile server block "test:53", plugin "forward"\n/);
    expect(text).toContain('API server https://172.19.1.100:6443 · kubeconfig /home/u/.kube/config (context k2s) · Corefile from ConfigMap kube-system/coredns');
  });

  it('caps the rows of a 700-zone plan and the 256 refused /8 reverse zones', () => {
    const keys = Array.from({ length: 700 }, (_, i) => `k${i}.lan`).join(' ');
    const text = formatZones(discovery(`.:53 {\n  kubernetes cluster.local\n}\n${keys} 0.0.0.0/1:53 128.0.0.0/1:53 {\n  forward . 10.0.0.4\n}\n`));
    expect(text).toContain(`… ${703 - MAX_ZONE_ROWS} more (npx k2s-dns zones --json lists all)`);
    expect(text).toContain(`… ${256 - MAX_ZONE_ROWS} more (npx k2s-dns zones --json lists all)`);
    expect(text.length).toBeLessThan(120_000);
  });

  it('escapes control characters from cluster data', () => {
    const d = discovery('.:53 {\n  kubernetes cluster.local\n}\n');
    d.warnings = ['bad \u001b]0;pwned\u0007 name'];
    expect(formatZones(d)).toContain('warning: bad \\x1b]0;pwned\\x07 name');
  });

  it('prints an unused --allow-zone warning whole, never cut mid-sentence (new-user walk: `(check the spelling against…`)', () => {
    const d = discovery('.:53 {\n  kubernetes cluster.local\n}\n', ['exmaple.test']);
    expect(formatZones(d).split('\n').at(-1)).toBe('warning: Allowed zone exmaple.test changed nothing: no zone the Corefile serves was refused by that name, so none is forwarded because of it (check the spelling against the zones listed).');
    // Still bounded: cluster data in a warning is cut at MAX_WARNING characters.
    d.warnings = ['x'.repeat(5000)];
    expect(formatZones(d).split('\n').at(-1)).toBe(`warning: ${'x'.repeat(MAX_WARNING - 1)}…`);
  });
});
