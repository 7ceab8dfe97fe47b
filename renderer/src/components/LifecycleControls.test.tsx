/**
 * The Host DNS card's buttons during drift: with a choice to make, Stop points at the banner
 * ("Stop… (choose at the top)"); with /etc/resolv.conf deleted there is none, so the card shows the
 * plain Stop that status's note names ("press Stop to end it", walk 12 M2). Rendered to markup
 * with the stores mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { HostDnsStatus } from '../../../shared/types';

const dns = vi.hoisted(() => ({ status: null as unknown, info: { platform: 'linux', lifecycleSupported: true, reason: null, version: '0.1.0' }, busy: null, lost: null, start: async () => {}, stop: async () => {}, uninstall: async () => {} }));
const cluster = vi.hoisted(() => ({ status: null as unknown, lastReachable: null }));
const diag = vi.hoisted(() => ({ findings: [] as unknown[], forResolver: null, running: false }));
vi.mock('../stores', () => ({
  useDns: (sel: (s: typeof dns) => unknown) => sel(dns),
  useCluster: (sel: (s: typeof cluster) => unknown) => sel(cluster),
  useDiagnostics: (sel: (s: typeof diag) => unknown) => sel(diag),
  useZones: (sel: (s: { allowZones: [] }) => unknown) => sel({ allowZones: [] }),
  stores: { diagnostics: { getState: () => ({ run: async () => {} }) } },
}));

import { LifecycleControls } from './LifecycleControls';

const degraded = {
  state: 'degraded', engine: 'adguard', engineVersion: null, listeners: [], skippedListeners: [], resolverOwner: 'foreign',
  upstreams: ['192.0.2.53'], clusterDomain: 'cluster.local', kubeDnsIp: null, savedAt: '2026-12-05T04:25:59.000Z', savedBy: null, pid: 4242, messages: [], operation: null,
} as unknown as HostDnsStatus;

/** The markup's text, tags dropped. */
const text = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

describe('LifecycleControls during drift', () => {
  it('another program\'s file: Stop points at the banner\'s choice, and the reasons line does not restate what happened (walk 12 M3)', () => {
    dns.status = degraded;
    const html = renderToStaticMarkup(<LifecycleControls />);
    expect(html).toContain('data-testid="btn-stop-drift"');
    expect(html).not.toContain('data-testid="btn-stop"');
    expect(text(html)).toContain('Start and Uninstall wait for the choice in the banner at the top.');
    expect(text(html)).not.toMatch(/another program/i);
  });
  it('walk 12 M2: a deleted file has nothing to choose: the plain Stop, and the reasons line names Stop, not a choice', () => {
    dns.status = { ...degraded, driftGone: 'deleted' };
    const html = renderToStaticMarkup(<LifecycleControls />);
    expect(html).toMatch(/data-testid="btn-stop">Stop<\/button>/);
    expect(html).not.toContain('choose at the top');
    expect(text(html)).toContain('Start and Uninstall wait until you press Stop (the banner at the top says why).');
    expect(text(html)).not.toMatch(/make the choice|wait for that choice/);
  });
});

describe('LifecycleControls with only a root-only kubeconfig (ClusterStatus.startKubeconfig)', () => {
  it('the line under Start shows the path as one code span, a path holding backticks included (it was prose: its backticks made spans of their own)', () => {
    dns.status = { ...degraded, state: 'stopped', resolverOwner: null, pid: null };
    cluster.status = { state: 'no-kubeconfig', startKubeconfig: '/srv/k`8`s/admin.conf' };
    const html = renderToStaticMarkup(<LifecycleControls />);
    const line = html.match(/<p[^>]*data-testid="start-kubeconfig-root"[^>]*>(.*?)<\/p>/)?.[1];
    expect(line).toBe('Start reads the kubeconfig <code>/srv/k`8`s/admin.conf</code> as root; this user cannot read it, so the Cluster card cannot show the cluster.');
    cluster.status = null;
  });
});

describe('LifecycleControls on a host without K2s DNS (status ownedFilesLeft)', () => {
  const nothing = { ...degraded, state: 'stopped', resolverOwner: 'original', savedAt: null, pid: null } as HostDnsStatus;
  const uninstallButton = (html: string) => html.match(/<button[^>]*data-testid="btn-uninstall"[^>]*>/)?.[0] ?? '';

  it('nothing runs, nothing is saved, no file of its is here: Uninstall is off, and its title and the reasons line say why (new-user walk: it asked for root to remove nothing)', () => {
    dns.status = { ...nothing, ownedFilesLeft: false };
    const html = renderToStaticMarkup(<LifecycleControls />);
    expect(uninstallButton(html)).toContain('disabled=""');
    expect(uninstallButton(html)).toContain('title="Nothing to uninstall: K2s DNS is not running, no resolver is saved and none of its files is on this host."');
    expect(text(html)).toContain('Nothing to uninstall: K2s DNS is not running, no resolver is saved and none of its files is on this host.');
  });

  it('files left (after a Stop) or not known (a user under root\'s 0700 directory): Uninstall stays on', () => {
    for (const ownedFilesLeft of [true, undefined]) {
      dns.status = { ...nothing, ...(ownedFilesLeft === undefined ? {} : { ownedFilesLeft }) };
      const button = uninstallButton(renderToStaticMarkup(<LifecycleControls />));
      expect(button).not.toContain('disabled');
      expect(button).toContain('title="Restore, then remove K2s DNS files"');
    }
  });
});

describe('LifecycleControls: the Engine select while K2s DNS runs (new user: "Automatic" beside a CLI start --engine adguard)', () => {
  const running = { ...degraded, state: 'running', resolverOwner: 'k2s', engine: 'adguard' } as HostDnsStatus;
  const select = (html: string) => html.match(/<select[^>]*data-testid="engine-select"[^>]*>.*?<\/select>/)?.[0] ?? '';
  it('shows the running engine, labelled as running, from the first paint; also when the checks find no dnsproxy where they look (started with --dnsproxy PATH)', () => {
    dns.status = running;
    diag.findings = [{ id: 'dnsproxy-version', severity: 'warn', title: '', detail: { engine: 'dnsmasq', binary: '/opt/k2s/bin/dnsproxy' } }];
    const html = select(renderToStaticMarkup(<LifecycleControls />));
    expect(html).toMatch(/<option value="adguard" data-testid="engine-option-adguard" selected="">AdGuard dnsproxy — running<\/option>/);
    expect(html).toContain('title="K2s DNS runs with AdGuard dnsproxy; stop it to choose the engine of the next Start"');
    expect(html).toContain('disabled=""');
    diag.findings = [];
  });
  it('stopped: the choice (Automatic), no running label', () => {
    dns.status = { ...running, state: 'stopped', resolverOwner: 'original', savedAt: null, pid: null };
    const html = select(renderToStaticMarkup(<LifecycleControls />));
    expect(html).toMatch(/<option value="auto" selected="">Automatic<\/option>/);
    expect(html).not.toContain('— running');
  });
});

