/**
 * Issue 20 (M2): the Zones tab opened while the API does not answer showed only the error. It
 * shows the zones the running proxy routes (HostDnsStatus.zonesInUse, its saved plan), labelled
 * as such. Stores mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { HostDnsStatus } from '../../../shared/types';
import { fakeDiscovery } from '../../../e2e/support/backend-fake-data';

const state = vi.hoisted(() => ({
  zones: { discovery: null, error: 'Cannot reach the Kubernetes API at https://172.19.1.100:6443: connect ECONNREFUSED.', allowZones: [], fetchedAt: null, setAllowed: async () => undefined, refresh: async () => undefined },
  dns: { status: null as unknown },
}));
vi.mock('../stores', () => ({
  useZones: (sel: (s: unknown) => unknown) => sel(state.zones),
  useDns: (sel: (s: unknown) => unknown) => sel(state.dns),
  stores: { zones: { getState: () => state.zones } },
}));
vi.mock('../lib/use-poll', () => ({ usePoll: () => undefined }));

import { ZonesPanel } from './ZonesPanel';

const shown = () => renderToStaticMarkup(<ZonesPanel />).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

describe('Zones tab while the API does not answer and nothing was read', () => {
  it('shows the zones the running proxy routes, labelled as such, beside the error', () => {
    state.dns.status = { state: 'running', zonesInUse: fakeDiscovery().zones } as unknown as HostDnsStatus;
    const text = shown();
    expect(text).toContain('Cannot reach the Kubernetes API');
    expect(text).toContain('Zones in use by the running proxy (the API does not answer)');
    expect(text).toContain('cluster.local');
    expect(text).toContain('172.21.0.10');
  });
  it('K2s DNS stopped: only the error (no proxy routes anything)', () => {
    state.dns.status = { state: 'stopped', zonesInUse: fakeDiscovery().zones } as unknown as HostDnsStatus;
    expect(shown()).not.toContain('in use by the running proxy');
  });
});
