/**
 * Issue 20, H1 on the fake backend: Diagnostics taken while a CLI start runs (the window follows it
 * from the status's journal) say so — the busy verdict, K2s DNS's own proxy "during a k2s-dns
 * start" with no fix — and are replaced by a fresh check by themselves once the status shows the
 * start ended, with no click on Check again.
 */
import { expect, test } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import type { DoctorFinding } from '../../shared/doctor';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { RENDERER_DIR } from './serve-fake';

let server: WebServer | undefined;
test.afterAll(async () => {
  await server?.close();
});

/** The CLI's start as the status reads it from the journal (electron/core/lifecycle/status.ts). */
const OPERATION = { op: 'start' as const, step: 'verify', pid: 11321, startedAt: new Date().toISOString() };

/** What the real doctor says mid-start (electron/core/doctor/health.ts, port53.ts), in the app's words. */
const MID_START: DoctorFinding[] = [
  { id: 'health', severity: 'warn', title: 'K2s DNS is starting; the path is checked again when it is done', meaning: 'The path of kubernetes.default.svc.cluster.local: not probed while K2s DNS is starting.', fix: null, remedy: { action: null, gui: 'Wait until it is done.', cli: 'wait' }, detail: { verdict: { level: 'warn', cause: 'busy', summary: 'K2s DNS is starting; the path is checked again when it is done' } } },
  {
    id: 'port-53',
    severity: 'info',
    title: '127.0.0.1:53 is held by k2s-dnsproxy (ours) during a k2s-dns start',
    meaning: 'A k2s-dns start (PID 11321, step "verify") is changing K2s DNS right now; K2s DNS\'s own proxy (/opt/k2s/bin/dnsproxy --config-path=/etc/k2s/dnsproxy.yaml, PID 11370) holds 127.0.0.1:53/udp meanwhile. The checks run again by themselves when it is done.',
    fix: null,
    detail: { proto: 'udp', pid: 11370, ours: true, operation: { op: 'start', step: 'verify', pid: 11321 } },
  },
];

test('a result taken during a CLI start is replaced by a fresh check when the start ends', async ({ page }) => {
  const host = { running: true };
  const cli = { starting: true, doctorRuns: 0 };
  const fake = createFakeBackend({ stepDelayMs: 50, host });
  const patch: Partial<AppBackend> = {
    dnsStatus: async (input) => {
      const s = await fake.dnsStatus(input);
      return cli.starting ? { ...s, state: 'starting', operation: OPERATION } : s;
    },
    doctorRun: async (input) => {
      cli.doctorRuns++;
      const base = await fake.doctorRun(input);
      return cli.starting ? [...MID_START, ...base.filter((f) => f.id !== 'port-53')] : base;
    },
  };
  server = await startWebServer({ backend: { ...fake, ...patch }, staticDir: RENDERER_DIR });
  await page.goto(server.url);
  await page.getByTestId('tab-diagnostics').click();
  const panel = page.getByTestId('panel-diagnostics');
  await expect(panel.getByTestId('finding-health')).toContainText('K2s DNS is starting; the path is checked again when it is done');
  await expect(panel.getByTestId('finding-port-53')).toContainText('held by k2s-dnsproxy (ours) during a k2s-dns start');
  await expect(panel.getByTestId('finding-port-53')).toContainText('The checks run again by themselves when it is done.');
  // No fix for K2s DNS's own proxy (the walk's window said "Stop dnsproxy (PID 11370)").
  await expect(panel.getByTestId('finding-port-53-fix')).toHaveCount(0);
  const runsWhileStarting = cli.doctorRuns;

  // The CLI's start ends: its journal is gone from the next status read.
  cli.starting = false;
  await expect(panel.getByTestId('finding-health')).toHaveCount(0, { timeout: 15_000 });
  await expect(panel.getByTestId('finding-port-53')).toContainText('127.0.0.1:53 is held by k2s-dnsproxy (ours)');
  await expect(panel.getByTestId('finding-port-53')).not.toContainText('during');
  await expect(panel.getByTestId('diagnostics-run')).toHaveText('Check again');
  expect(cli.doctorRuns).toBeGreaterThan(runsWhileStarting);
  // The window followed the start from its journal (stores/dns.ts journalEvents) and said it ended.
  await page.getByTestId('tab-overview').click();
  await expect(page.getByTestId('dns-state')).toHaveText('running');
});
