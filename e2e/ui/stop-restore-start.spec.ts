/**
 * Issue #20 in the window, on the fake backend in Debian's Chromium: after a followed headerless
 * file, the Host DNS card names its writer ("another program (the file does not say which)", never "by
 * k2s-dns"), and while the file from before Start is kept one control beside Stop — the *Stop
 * puts back* select — chooses which saved copy Stop restores; the newest stays the default.
 */
import { expect, test } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import type { NetworkChangeView } from '../../shared/types';
import { RENDERER_DIR } from './serve-fake';

const servers: WebServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A running fake whose saved original is a followed headerless file, with the file from before Start kept; records stop inputs. */
async function serveFollowed(stops: unknown[], drift = false): Promise<WebServer> {
  const fake = createFakeBackend({ stepDelayMs: 50, logIntervalMs: 3_600_000, running: true });
  const startedAt = new Date(Date.now() - 60_000).toISOString();
  const change: NetworkChangeView = { at: new Date().toISOString(), outcome: 'followed', writer: 'an unknown program', evidence: '', how: '/etc/resolv.conf replaced by a regular file', from: ['192.0.2.53'], to: ['192.0.2.88'] };
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => {
      const s = await fake.dnsStatus(i);
      return s.state === 'running' ? { ...s, ...(drift ? { resolverOwner: 'foreign' as const } : {}), savedAt: change.at, savedBy: 'k2s-dns', networkChange: change, followedChange: change, startCopy: { savedAt: startedAt } } : s;
    },
    dnsStop: async (i) => {
      stops.push(i);
      return fake.dnsStop(i);
    },
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  servers.push(server);
  return server;
}

test('Saved original names the unknown writer; Stop puts back the newest by default', async ({ page }) => {
  const stops: unknown[] = [];
  const server = await serveFollowed(stops);
  await page.goto(server.url);
  const card = page.getByTestId('panel-hostdns');
  await expect(card.getByTestId('dns-saved')).toHaveText(/^written by another program \(the file does not say which\) at \d\d:\d\d:\d\d, followed while K2s DNS ran$/, { timeout: 15_000 });
  const select = card.getByTestId('stop-restore-select');
  await expect(select).toHaveValue('newest');
  await expect(select.locator('option')).toHaveText(['the newest file (the default)', /^the file from before Start \(\d\d:\d\d:\d\d\)$/]);
  await card.getByTestId('btn-stop').click();
  await expect.poll(() => stops).toEqual([{}]);
});

test('choosing "the file from before Start" makes Stop send restore: start', async ({ page }) => {
  const stops: unknown[] = [];
  const server = await serveFollowed(stops);
  await page.goto(server.url);
  const card = page.getByTestId('panel-hostdns');
  const select = card.getByTestId('stop-restore-select');
  await expect(select).toBeVisible({ timeout: 15_000 });
  await select.selectOption('start');
  await card.getByTestId('btn-stop').click();
  await expect.poll(() => stops).toEqual([{ restore: 'start' }]);
  // Stopped: no copy is kept any more, so the control is gone.
  await expect(select).toHaveCount(0, { timeout: 15_000 });
});

test('with drift the same select decides what the banner\'s restore puts back, and names it (walk 7 M2)', async ({ page }) => {
  const stops: unknown[] = [];
  const server = await serveFollowed(stops, true);
  await page.goto(server.url);
  const card = page.getByTestId('panel-hostdns');
  const select = card.getByTestId('stop-restore-select');
  await expect(page.getByTestId('drift-banner')).toBeVisible({ timeout: 15_000 });
  // Named after what it puts back (walk 7 M2), never "Restore my original" once a follow replaced it.
  const restore = page.getByTestId('drift-restore');
  await expect(restore).toHaveText(/^Restore the saved file from \d\d:\d\d:\d\d…$/);
  await select.selectOption('start');
  await expect(restore).toHaveText(/^Restore the file from before Start \(\d\d:\d\d:\d\d\)…$/);
  await restore.click();
  await expect(page.getByTestId('confirm-restore')).toContainText(/with the file from before Start \(\d\d:\d\d:\d\d\)/);
  await expect(page.locator('#confirm-drift-title')).toHaveText(/^Restore the file from before Start \(\d\d:\d\d:\d\d\)\?$/);
  await expect(page.getByTestId('btn-confirm-restore')).toHaveText(/^Restore the file from before Start \(\d\d:\d\d:\d\d\)$/);
  await page.getByTestId('btn-confirm-restore').click();
  await expect.poll(() => stops).toEqual([{ onDrift: 'restore', restore: 'start' }]);
});

test('with drift and the newest chosen, the banner\'s restore names and sends the saved (followed) file, not the file from before Start (walk 7 M2)', async ({ page }) => {
  const stops: unknown[] = [];
  const server = await serveFollowed(stops, true);
  await page.goto(server.url);
  await expect(page.getByTestId('drift-banner')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('panel-hostdns').getByTestId('stop-restore-select')).toHaveValue('newest');
  const restore = page.getByTestId('drift-restore');
  await expect(restore).toHaveText(/^Restore the saved file from \d\d:\d\d:\d\d…$/);
  await restore.click();
  await expect(page.locator('#confirm-drift-title')).toHaveText(/^Restore the saved file from \d\d:\d\d:\d\d\?$/);
  await expect(page.getByTestId('confirm-restore')).toContainText(/with the file another program \(the file does not say which\) wrote at \d\d:\d\d:\d\d \(followed while K2s DNS ran\)/);
  await page.getByTestId('btn-confirm-restore').click();
  await expect.poll(() => stops).toEqual([{ onDrift: 'restore' }]);
});
