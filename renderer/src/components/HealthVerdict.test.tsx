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

import { HealthVerdict, lastKnownVerdictText } from './HealthVerdict';
import { noKubeconfigReason } from '../lib/button-states';
import { portBlock, startBlock } from '../lib/start-gates';
import type { DoctorFinding } from '../../../shared/doctor';

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
    buttons.start = { enabled: false, reason: noKubeconfigReason('k2s-dns app --kubeconfig PATH') };
    try {
      expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — point the app at a kubeconfig first (the Cluster card below says where it looked and how), then press Start in Host DNS below');
    } finally {
      buttons.start = { enabled: true, reason: null };
    }
  });

  it('Start off for a Diagnostics finding (port 53 held, an immutable file) or a restart under way: the line gives the Start button\'s reason, never "press Start"', () => {
    dns.status = stopped;
    health.report = report({ cause: 'stopped', summary: 'Cluster names do not resolve on this host: K2s DNS is stopped', action: 'start' });
    const port: DoctorFinding = { id: 'port-53', severity: 'error', title: '127.0.0.1:53 is held by dnsmasq (PID 812)', meaning: '', fix: null, detail: { proto: 'udp', pid: 812, command: '/usr/sbin/dnsmasq --conf-file=/etc/x', ours: false } };
    const immutable: DoctorFinding = { id: 'resolv-immutable', severity: 'error', title: '/etc/resolv.conf is immutable (chattr +i)', meaning: '', fix: null };
    try {
      buttons.start = { enabled: false, reason: portBlock([port]) };
      expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — Start in Host DNS below is off: 127.0.0.1:53 held by dnsmasq (PID 812): stop it, then press Check again');
      buttons.start = { enabled: false, reason: startBlock([immutable]) };
      expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('Cluster names do not resolve on this host: K2s DNS is stopped — Start in Host DNS below is off: /etc/resolv.conf is immutable (chattr +i): Start would be refused; see Diagnostics for the fix, then press Check again');
      // Nothing answering on 127.0.0.1:53 while the watchdog brings the proxy back: wait, not Start.
      health.report = report({ cause: 'proxy-down', summary: 'No names resolve on this host: nothing answers on 127.0.0.1:53', action: 'start' });
      buttons.start = { enabled: false, reason: 'Wait: the watchdog is restarting k2s-dnsproxy (restart 1 of 6, 1 s after the exit).' };
      expect(text(renderToStaticMarkup(<HealthVerdict />))).toBe('No names resolve on this host: nothing answers on 127.0.0.1:53 — Start in Host DNS below is off: Wait: the watchdog is restarting k2s-dnsproxy (restart 1 of 6, 1 s after the exit)');
    } finally {
      buttons.start = { enabled: true, reason: null };
    }
  });

  it("new-user finding: a report marked rechecking (older than the cadence, a new check runs) reads as last known with its time and age, in no verdict's colour — never as current", () => {
    dns.status = { ...stopped, state: 'running' };
    const at = Date.now() - 35_000;
    health.report = { ...report({ level: 'ok', resolves: true, cause: 'ok', summary: 'kubernetes.default.svc.cluster.local resolves via k2s-dnsproxy (127.0.0.1:53)' }), checkedAt: at, rechecking: true };
    try {
      const html = renderToStaticMarkup(<HealthVerdict />);
      expect(html).toContain('data-level="unknown"');
      expect(html).toContain('data-cause="last-known"');
      expect(text(html)).toBe(lastKnownVerdictText('kubernetes.default.svc.cluster.local resolves via k2s-dnsproxy (127.0.0.1:53)', at, Date.now()));
      expect(text(html)).toMatch(/^Last known at \d\d:\d\d:\d\d \(3[56] s ago\): kubernetes\.default\.svc\.cluster\.local resolves via k2s-dnsproxy \(127\.0\.0\.1:53\); checking again…$/);
    } finally {
      health.report = null;
    }
  });
});
