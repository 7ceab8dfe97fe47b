/**
 * Regression: the Zones panel showed cluster-supplied text raw (a U+202E reversed the cell, a
 * Cyrillic gооgle.com looked like google.com). Rendered to markup with the store mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ClusterDiscovery } from '../../../shared/types';

const state = vi.hoisted(() => ({ discovery: null as unknown, error: null, allowZones: [], setAllowed: async () => undefined }));
vi.mock('../stores', () => ({ useZones: (sel: (s: typeof state) => unknown) => sel(state), useDns: (sel: (s: { status: null }) => unknown) => sel({ status: null }) }));

import { ZonesPanel } from './ZonesPanel';

const RLO = '\u202e';
const discovery = {
  clusterDomain: 'cluster.local',
  kubeDnsIp: '172.21.0.10',
  kubernetesServiceIp: '172.21.0.1',
  serviceCidrs: ['172.21.0.0/16'],
  podCidrs: ['172.20.0.0/16'],
  cidrSource: 'kubeadm-config',
  apiServer: 'https://127.0.0.1:6443',
  kubeconfigPath: '/etc/kubernetes/admin.conf',
  context: 'admin',
  zones: [
    { zone: 'cluster.local', upstream: '172.21.0.10', source: 'corefile', reason: 'cluster domain', clusterDomain: true, reverse: false },
    { zone: `evil${RLO}moc.example`, upstream: '172.21.0.10', source: 'corefile', reason: `stub${'\u200b'}domain`, clusterDomain: false, reverse: false },
    { zone: 'gооgle.com', upstream: '172.21.0.10', source: 'corefile', reason: 'stub domain', clusterDomain: false, reverse: false },
  ],
  refusedZones: [{ zone: 'аpple.com', why: `public suffix${RLO}`, reason: 'Corefile', allowable: true }],
  warnings: [`warning with ${'\u2066'}isolate`],
} as unknown as ClusterDiscovery;

describe('ZonesPanel shows cluster text visibly', () => {
  it('escapes bidi/zero-width characters and puts the punycode beside a non-ASCII zone name', () => {
    state.discovery = discovery;
    const html = renderToStaticMarkup(<ZonesPanel />);
    // What people see or hear: the text and the aria-labels (test ids are not shown).
    const shown = html.replace(/<[^>]*>/g, ' ') + [...html.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]).join(' ');
    expect(shown).not.toMatch(/[\u202e\u200b\u2066]/);
    expect(html).toContain('aria-label="Allow аpple.com (xn--pple-43d.com)"');
    expect(html).toContain('evil\\u202emoc.example');
    expect(html).toContain('stub\\u200bdomain');
    expect(html).toContain('gооgle.com (xn--ggle-55da.com)');
    expect(html).toContain('аpple.com (xn--pple-43d.com)');
    expect(html).toContain('public suffix\\u202e');
    expect(html).toContain('warning with \\u2066isolate');
    // An ASCII name is shown as it is, without a punycode twin.
    expect(html).toContain('<span data-testid="zone-name">cluster.local</span>');
  });
});
