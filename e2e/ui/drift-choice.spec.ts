/**
 * The drift choice, on the fake backend in Debian's Chromium:
 * one place to choose (the drift banner), one name per choice, and both choices ask first in a
 * modal <dialog> that takes focus and that Escape cancels (walk 5 M4: Keep acted in one click). Also: the one Start button
 * uses the Engine select (report 8), and a green Start result does not stay green under the
 * drift's amber verdict.
 */
import { expect, test, type Page } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { healthVerdict } from '../../shared/health';
import { RENDERER_DIR } from './serve-fake';

const servers: WebServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Every lifecycle call the page made, with its input. */
type Calls = { op: string; input: unknown }[];

/** A running fake whose /etc/resolv.conf was rewritten by NetworkManager; records stop/start calls. */
async function serveDrift(calls: Calls, opts: { running?: boolean; drift?: boolean; stepDelayMs?: number; driftNow?: { on: boolean } } = {}): Promise<WebServer> {
  const fake = createFakeBackend({ stepDelayMs: opts.stepDelayMs ?? 50, logIntervalMs: 500, running: opts.running ?? true });
  // `driftNow` lets a test rewrite the file later (NetworkManager after the start).
  const now = opts.driftNow ?? { on: opts.drift ?? true };
  const patched: AppBackend = {
    ...fake,
    dnsStatus: async (i) => {
      const s = await fake.dnsStatus(i);
      return now.on && s.state === 'running' ? { ...s, resolverOwner: 'foreign', messages: ['/etc/resolv.conf was changed by someone else while K2s ran (NetworkManager or a DHCP client?); Resolver diff shows how.'] } : s;
    },
    healthCheck: async (i) => {
      const r = await fake.healthCheck(i);
      if (!now.on || !(await fake.dnsStatus({})).state.startsWith('running')) return r;
      const hops = r.hops.map((h) => (h.kind === 'resolver' ? { ...h, outcome: 'foreign' as const, ok: false, answers: ['192.168.178.1'], reason: '/etc/resolv.conf was rewritten by another program' } : h));
      return { ...r, hops, verdict: healthVerdict({ hops, state: 'running', interrupted: false }) };
    },
    dnsStop: async (i) => {
      calls.push({ op: 'stop', input: i });
      return fake.dnsStop(i);
    },
    dnsStart: async (i) => {
      calls.push({ op: 'start', input: i });
      return fake.dnsStart(i);
    },
  };
  const server = await startWebServer({ backend: patched, staticDir: RENDERER_DIR });
  servers.push(server);
  return server;
}

/** Buttons anywhere in the window whose accessible name is `name`. */
const buttons = (page: Page, name: RegExp) => page.getByRole('button', { name });

test('one place for the drift choice, one name per choice, no "Put my original back"', async ({ page }) => {
  const calls: Calls = [];
  const server = await serveDrift(calls);
  await page.goto(server.url);
  const banner = page.getByTestId('drift-banner');
  await expect(banner).toBeVisible();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'drift');
  // The verdict names the choice and points at the banner; it has no restore button of its own.
  await expect(page.getByTestId('verdict-text')).toContainText('Choose "Keep their file" or "Restore my original" in the banner at the top');
  await expect(page.getByTestId('verdict-action')).toHaveCount(0);
  // The Host DNS card no longer offers a second pair.
  await expect(page.getByTestId('btn-stop-keep')).toHaveCount(0);
  await expect(page.getByTestId('btn-stop-restore')).toHaveCount(0);
  await expect(buttons(page, /Keep their file/)).toHaveCount(1);
  await expect(buttons(page, /Restore my original/)).toHaveCount(1);
  for (const id of ['overview', 'topology', 'diagnostics']) {
    await page.getByTestId(`tab-${id}`).click();
    expect(await page.locator('body').innerText()).not.toContain('Put my original back');
  }
  // The card's Stop leads to the banner, it does not stop by itself.
  await page.getByTestId('tab-overview').click();
  await page.getByTestId('btn-stop-drift').click();
  await expect(banner).toBeFocused();
  expect(calls).toEqual([]);
});

test('Restore my original asks first: the dialog takes focus, Escape and Cancel change nothing, confirm restores', async ({ page }) => {
  const calls: Calls = [];
  const server = await serveDrift(calls);
  await page.goto(server.url);
  const dialog = page.getByTestId('confirm-restore');
  await page.getByTestId('drift-restore').click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This replaces the /etc/resolv.conf the other program wrote with the original saved when K2s DNS started');
  await expect(page.getByTestId('btn-cancel-restore')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByTestId('drift-restore').click();
  await page.getByTestId('btn-cancel-restore').click();
  await expect(dialog).toBeHidden();
  expect(calls).toEqual([]);
  await expect(page.getByTestId('dns-state')).toHaveText('running');
  await page.getByTestId('drift-restore').click();
  await page.getByTestId('btn-confirm-restore').click();
  await expect(page.getByTestId('dns-state')).toHaveText('stopped');
  expect(calls).toEqual([{ op: 'stop', input: { onDrift: 'restore' } }]);
  await expect(page.getByTestId('drift-banner')).toHaveCount(0);
});

test('Keep their file asks first too (it discards the saved copy): focus on Cancel, Escape and Cancel change nothing, confirm stops with onDrift keep', async ({ page }) => {
  const calls: Calls = [];
  const server = await serveDrift(calls);
  await page.goto(server.url);
  await expect(page.getByTestId('drift-keep')).toHaveText('Keep their file… (default)');
  const dialog = page.getByTestId('confirm-keep');
  await page.getByTestId('drift-keep').click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Keep their file?');
  await expect(dialog).toContainText('This stops K2s DNS and leaves the /etc/resolv.conf the other program wrote. The original saved at start is then discarded: K2s DNS cannot put it back afterwards.');
  await expect(page.getByTestId('btn-cancel-keep')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByTestId('drift-keep').click();
  await page.getByTestId('btn-cancel-keep').click();
  await expect(dialog).toBeHidden();
  expect(calls).toEqual([]);
  await expect(page.getByTestId('dns-state')).toHaveText('running');
  await page.getByTestId('drift-keep').click();
  await page.getByTestId('btn-confirm-keep').click();
  await expect(page.getByTestId('dns-state')).toHaveText('stopped');
  expect(calls).toEqual([{ op: 'stop', input: { onDrift: 'keep' } }]);
});

test("one Start in the window: the verdict points at the card's, which uses the Engine select; starting at once, then running", async ({ page }) => {
  const calls: Calls = [];
  const server = await serveDrift(calls, { running: false, drift: false, stepDelayMs: 400 });
  await page.goto(server.url);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-cause', 'stopped');
  await expect(page.getByTestId('verdict-text')).toContainText('press Start in Host DNS below');
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toHaveCount(1);
  await page.getByTestId('engine-select').selectOption('dnsmasq');
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('dns-state')).toHaveText('starting');
  await expect(page.getByTestId('dns-state')).toHaveText('running');
  expect(calls[0]).toEqual({ op: 'start', input: { engine: 'dnsmasq' } });
});

test('a green Start result does not stay green under the drift\'s amber verdict', async ({ page }) => {
  const calls: Calls = [];
  const driftNow = { on: false };
  const server = await serveDrift(calls, { running: false, driftNow });
  await page.goto(server.url);
  await page.getByTestId('btn-start').click();
  const result = page.getByTestId('timeline-result');
  await expect(result).toHaveText('K2s DNS is running: cluster names resolve on this host.', { timeout: 15_000 });
  await expect(result).toHaveClass(/ok-text/);
  driftNow.on = true;
  await page.getByTestId('verdict-recheck').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-level', 'warn', { timeout: 15_000 });
  await expect(result).toHaveAttribute('data-stale', 'true');
  await expect(result).not.toHaveClass(/ok-text/);
  await expect(result).toContainText('— no longer so: see the verdict above.');
});
