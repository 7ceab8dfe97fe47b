/**
 * The Overview's first screen (drift banner, verdict, Host DNS card with its buttons) while
 * another program's NUL-byte file stands in /etc/resolv.conf and K2s DNS runs (walk 12 M3): what
 * happened is said once, in the banner's title; the verdict, the card's note and the buttons'
 * reasons refer to it, and the rows keep their terse values. Rendered to markup, stores mocked.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { HostDnsStatus, NetworkChangeView } from '../../../shared/types';
import type { HealthReport } from '../../../shared/health-report';
import { describeNetworkChange, notResolverFileRefusal } from '../../../shared/network-writer';

const dns = vi.hoisted(() => ({ status: null as unknown, info: { platform: 'linux', lifecycleSupported: true, reason: null, version: '0.1.0' }, busy: null, lost: null, error: null, networkChanges: [] as unknown[], start: async () => {}, stop: async () => {}, uninstall: async () => {} }));
const health = vi.hoisted(() => ({ report: null as unknown, checking: false, error: null }));
vi.mock('../stores', () => ({
  useDns: (sel: (s: typeof dns) => unknown) => sel(dns),
  useHealth: (sel: (s: typeof health) => unknown) => sel(health),
  useDiff: (sel: (s: { diff: null }) => unknown) => sel({ diff: null }),
  useCluster: (sel: (s: { status: null; lastReachable: null }) => unknown) => sel({ status: null, lastReachable: null }),
  useDiagnostics: (sel: (s: { findings: []; forResolver: null; running: false }) => unknown) => sel({ findings: [], forResolver: null, running: false }),
  useZones: (sel: (s: { allowZones: [] }) => unknown) => sel({ allowZones: [] }),
  stores: { diff: { getState: () => ({ refresh: async () => {} }) }, diagnostics: { getState: () => ({ run: async () => {} }) } },
}));
vi.mock('./TimelineView', () => ({ TimelineView: () => null }));

import { DriftBanner } from './DriftBanner';
import { HealthVerdict } from './HealthVerdict';
import { HostDnsPanel } from './HostDnsPanel';

const theirs = 'nameserver 10.9.9.9\n\0\0x';
const refusal = notResolverFileRefusal(Buffer.from(theirs))!;
const change = { at: '2026-12-05T04:30:00.000Z', outcome: 'drift', writer: 'an unknown program', evidence: 'no header', how: '/etc/resolv.conf rewritten in place', reason: refusal, from: ['192.0.2.53'], to: [] } as unknown as NetworkChangeView;
const status = {
  state: 'degraded', engine: 'adguard', engineVersion: 'v0.83.1', listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [], resolverOwner: 'foreign',
  upstreams: ['192.0.2.53'], clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10', savedAt: '2026-12-05T04:25:59.000Z', savedBy: null, pid: 4242, operation: null,
  onNetworkChange: 'follow', networkChange: change, driftFileRefusal: refusal, resolverStamp: 'theirs-1',
  driftRoute: { nameservers: ['10.9.9.9'], implicit: false, viaK2s: false, keepLeavesNone: false },
  // status.ts's window notes for this file: the drift note and the follower's.
  messages: ['The drift in the banner at the top: Resolver diff shows how.', describeNetworkChange(change)],
} as unknown as HostDnsStatus;
// The verdict as shared/health.ts healthVerdict makes it for this file (status and doctor print this summary).
const report = {
  checkedAt: Date.now(), hops: [], forResolver: 'theirs-1',
  verdict: { level: 'error', resolves: false, cause: 'drift', hopId: null, summary: 'Cluster names do not resolve on this host: /etc/resolv.conf was changed by another program, so host apps bypass K2s DNS', action: 'restore', keepRisk: { words: 'x', short: "it leaves a file that is no resolver file as this host's resolver", stopRestores: true, gone: null, refused: 'it is not text', startRefuses: true } },
} as unknown as HealthReport;

/** The markup's visible text: tags dropped, the closed <dialog> left out. */
const text = (html: string) => html.replace(/<dialog[\s\S]*?<\/dialog>/g, '').replace(/<[^>]*>/g, ' ').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ');

describe('Overview during a NUL-byte drift (walk 12 M3)', () => {
  it('"another program rewrote/changed /etc/resolv.conf" once: the banner\'s title; the verdict, note and reasons refer to the banner', () => {
    dns.status = status;
    health.report = report;
    const html = renderToStaticMarkup(
      <>
        <DriftBanner />
        <HealthVerdict />
        <HostDnsPanel />
      </>,
    );
    const words = text(html);
    expect(words).toContain('Another program rewrote /etc/resolv.conf while K2s DNS was running.');
    expect(words.match(/another program (rewrote|changed|edited)|changed by another program|by another program while/gi)).toHaveLength(1);
    expect(words).toContain('Cluster names do not resolve on this host: host apps bypass K2s DNS (the banner at the top says what changed)');
    expect(words).toContain('The drift in the banner at the top: Resolver diff shows how.');
    expect(words).toContain('Start and Uninstall wait for the choice in the banner at the top.');
    // The rows keep their terse values.
    expect(words).toContain('another program, since K2s DNS started');
  });
});
