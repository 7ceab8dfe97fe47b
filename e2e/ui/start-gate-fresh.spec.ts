/**
 * Start is gated on fresh facts, on the fake backend in Debian's Chromium: a Diagnostics finding
 * that refuses Start ("Original resolver has no nameserver line") stops gating it as soon as the
 * host status shows /etc/resolv.conf changed (its resolverStamp), the checks run again by
 * themselves, and Start is enabled without "Check again" — also while that re-run is still on
 * its way (a finding older than the last resolver change never disables Start).
 */
import { expect, test } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import type { DoctorFinding } from '../../shared/doctor';
import { createFakeBackend } from '../support/backend-fake';
import { fakeDoctorFindings } from '../support/backend-fake-doctor';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { RENDERER_DIR } from './serve-fake';

const servers: WebServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const NO_NAMESERVER: DoctorFinding = {
  id: 'nameserver-loop',
  severity: 'error',
  title: 'Original resolver has no nameserver line',
  meaning: 'The original resolv.conf has no nameserver line, which means 127.0.0.1 (resolv.conf(5)), the proxy itself, so start refuses with NO_UPSTREAM.',
  fix: null,
};

/** The host's resolver as the fake sees it, and a gate that holds doctor runs back while closed. */
interface Host {
  fixed: boolean;
  doctorRuns: number;
  hold: Promise<void> | null;
}

async function serve(host: Host): Promise<WebServer> {
  const fake = createFakeBackend({ stepDelayMs: 30, logIntervalMs: 500 });
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => ({ ...(await fake.dnsStatus(i)), resolverStamp: host.fixed ? 'fixed0000000000' : 'broken000000000' }),
    doctorRun: async () => {
      host.doctorRuns += 1;
      // What the file was when the run began: a run that is held back reports it late.
      const fixed = host.fixed;
      if (host.hold) await host.hold;
      const ok = fakeDoctorFindings(false);
      return fixed ? ok : ok.map((f) => (f.id === 'nameserver-loop' ? NO_NAMESERVER : f));
    },
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  servers.push(server);
  return server;
}

test('a fixed resolver re-runs the checks by itself and enables Start without "Check again"', async ({ page }) => {
  const host: Host = { fixed: false, doctorRuns: 0, hold: null };
  const server = await serve(host);
  await page.goto(server.url);
  const start = page.getByTestId('btn-start');
  await expect(start).toBeDisabled({ timeout: 15_000 });
  await expect(start).toHaveAttribute('title', /Original resolver has no nameserver line: Start would be refused/);
  const runsBefore = host.doctorRuns;
  host.fixed = true;
  await expect(start).toBeEnabled({ timeout: 10_000 });
  expect(host.doctorRuns).toBeGreaterThan(runsBefore);
  // Diagnostics shows the fresh finding too, without "Check again".
  await page.getByTestId('tab-diagnostics').click();
  await expect(page.getByTestId('finding-nameserver-loop')).toContainText('ok');
});

test('a finding older than the last resolver change never disables Start, even while the re-run is on its way', async ({ page }) => {
  const host: Host = { fixed: false, doctorRuns: 0, hold: null };
  const server = await serve(host);
  await page.goto(server.url);
  const start = page.getByTestId('btn-start');
  await expect(start).toBeDisabled({ timeout: 15_000 });
  // The next doctor run takes as long as the test wants.
  let release = () => {};
  host.hold = new Promise<void>((r) => (release = r));
  host.fixed = true;
  await expect(start).toBeEnabled({ timeout: 10_000 });
  await expect(page.getByTestId('lifecycle-controls')).not.toContainText('Start would be refused');
  release();
  host.hold = null;
});
