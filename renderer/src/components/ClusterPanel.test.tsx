/**
 * Issue 20 (M2), every view live or labelled: a window opened while the Kubernetes API does not
 * answer has no nodes or pods to show. The card said "Nodes (0/0 Ready)", "CoreDNS pods (0/0
 * ready)" and "kube-dns ClusterIP —" while the proxy forwarded to 172.21.0.10; it must say the
 * counts are not known and show the address the running proxy forwards to, labelled as such.
 * With last-known data it keeps saying "last known at HH:MM:SS". Stores mocked at the edge.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ClusterStatus, HostDnsStatus } from '../../../shared/types';
import { fakeClusterStatus, fakeUnreachableCluster } from '../../../e2e/support/backend-fake-data';

const state = vi.hoisted(() => ({
  cluster: { status: null as unknown, error: null as string | null, lastReachable: null as unknown, refresh: async () => undefined },
  dns: { status: null as unknown },
  health: { report: null },
}));
vi.mock('../stores', () => ({
  useCluster: (sel: (s: unknown) => unknown) => sel(state.cluster),
  useDns: (sel: (s: unknown) => unknown) => sel(state.dns),
  useHealth: (sel: (s: unknown) => unknown) => sel(state.health),
}));
vi.mock('../lib/use-poll', () => ({ usePoll: () => undefined }));

import { ClusterPanel } from './ClusterPanel';

/** The card's text as shown (markup stripped). */
const shown = () => renderToStaticMarkup(<ClusterPanel />).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
const running = { state: 'running', kubeDnsIp: '172.21.0.10' } as HostDnsStatus;

describe('Cluster card while the API does not answer', () => {
  beforeEach(() => {
    state.cluster.status = fakeUnreachableCluster();
    state.cluster.lastReachable = null;
    state.dns.status = running;
  });
  it('opened while it is down: counts not known (never 0/0), kube-dns is the address the running proxy forwards to', () => {
    const text = shown();
    expect(text).not.toContain('0/0');
    expect(text).toContain('Nodes (not known: the API server does not answer)');
    expect(text).toContain('CoreDNS pods (not known: the API server does not answer)');
    expect(text).toContain('kube-dns ClusterIP 172.21.0.10 (the address the running proxy forwards to; the API does not answer)');
    expect(renderToStaticMarkup(<ClusterPanel />)).not.toContain('data-testid="cluster-nodes"');
  });
  it('K2s DNS stopped: no proxy address to show, the ClusterIP is not known either', () => {
    state.dns.status = { ...running, state: 'stopped', kubeDnsIp: null };
    const text = shown();
    expect(text).toContain('kube-dns ClusterIP not known: the API server does not answer');
    expect(text).not.toContain('0/0');
  });
  it('with last-known data: its counts, labelled "last known at HH:MM:SS"', () => {
    state.cluster.lastReachable = { status: fakeClusterStatus() as ClusterStatus, at: Date.UTC(2026, 11, 4, 13, 5, 9) };
    const text = shown();
    expect(text).toMatch(/Nodes \(1\/1 Ready\) — last known at \d\d:\d\d:\d\d/);
    expect(text).toMatch(/CoreDNS pods \(2\/2 ready\) — last known at \d\d:\d\d:\d\d/);
    expect(text).toContain('kube-dns ClusterIP 172.21.0.10 ');
    expect(text).not.toContain('not known');
  });
  it('reachable: the counts as read', () => {
    state.cluster.status = fakeClusterStatus();
    expect(shown()).toContain('Nodes (1/1 Ready)');
  });
});
