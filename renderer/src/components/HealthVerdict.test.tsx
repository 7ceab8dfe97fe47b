/**
 * The Overview's verdict line, rendered to markup with the stores mocked at the edge: what it says
 * for a stopped host whose /etc/resolv.conf a user may write (walk 12 L1), and that a drift verdict
 * refers to the banner for what happened instead of saying it again (walk 12 M3).
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { HostDnsStatus } from '../../../shared/types';
import type { HealthReport } from '../../../shared/health-report';

const dns = vi.hoisted(() => ({ status: null as unknown, busy: null, lost: null, networkChanges: [] as unknown[] }));
const health = vi.hoisted(() => ({ report: null as unknown, checking: false, error: null }));
vi.mock('../stores', () => ({
  useDns: (sel: (s: typeof dns) => unknown) => sel(dns),
  useHealth: (sel: (s: typeof health) => unknown) => sel(health),
  stores: {},
}));
const buttons = vi.hoisted(() => ({ start: { enabled: true, reason: null as string | null }, stop: { enabled: true, reason: null }, uninstall: { enabled: true, reason: null }, editable: true }));
vi.mock('./use-lifecycle-buttons', () => ({ useLifecycleButtons: () => buttons }));

import { HealthVerdict } from './HealthVerdict';
import { NO_KUBECONFIG_REASON } from '../lib/button-states';

const stopped = {
  state: 'stopped', engine: null, engineVersion: null, listeners: [], skippedListeners: [], resolverOwner: 'original',
  upstreams: [], clusterDomain: null, kubeDnsIp: null, savedAt: null, savedBy: null, pid: null, messages: [], operation: null,
} as unknown as HostDnsStatus;

/** A report whose verdict is `verdict` (no forStatus: it fits any status). */
const report = (verdict: Partial<HealthReport['verdict']>) => ({ checkedAt: Date.now(), hops: [], verdict: { level: 'off', resolves: false, hopId: null, ...verdict } }) as unknown as HealthReport;

/** The verdict line's text, tags and React's comment separators dropped. */
const text = (html: string) => /data-testid="verdict-text">(.*?)<\/span><button/s.exec(html)?.[1]?.replace(/<[^>]*>/g, '') ?? '';

describe('HealthVerdict', () => {
  it('walk 12 L1: stopped on a /etc/resolv.conf every user may write — the line says Start will warn and points at the Host DNS note', () => {
    dns.status = { ...stopped, resolverWritable: 'writable by every user (mode 0666)' };
    health.report = report({ cause: 'stopped', summary: 'Cluster names do not resolve on this host: K2s DNS is stopped', action: 'start' });
    expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below; /etc/resolv.conf is writable by every user (mode 0666): Start will warn (the note under Host DNS gives the fix)');
    // A file that passes: the line as it was.
    dns.status = stopped;
    expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — press Start in Host DNS below');
  });

  it('new-user walk: with no kubeconfig (Start is off for it) the line says to point the app at one first, not just "press Start"', () => {
    dns.status = stopped;
    health.report = report({ cause: 'stopped', summary: 'Cluster names do not resolve on this host: K2s DNS is stopped', action: 'start' });
    buttons.start = { enabled: false, reason: NO_KUBECONFIG_REASON };
    try {
      expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — point the app at a kubeconfig first (the Cluster card below says where it looked and how), then press Start in Host DNS below');
    } finally {
      buttons.start = { enabled: true, reason: null };
    }
  });
});
