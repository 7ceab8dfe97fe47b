/**
 * First-user report 4 and 7 on the fake backend in Debian's Chromium: the app's own health
 * probes (asked as KUBERNETES.DEFAULT.svc.…) are hidden from the query log by default, with a
 * toggle and a count; the raw view counts lines and queries; the Logs panel empties after
 * Uninstall removed the log; the system resolver's answers show TTL "—" (getaddrinfo has none).
 */
import { expect, test } from '@playwright/test';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { RENDERER_DIR } from './serve-fake';

const servers: WebServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A running fake (its health checks go through the proxy and are logged), no timed log lines. */
async function serveRunning(): Promise<WebServer> {
  const server = await startWebServer({ backend: createFakeBackend({ stepDelayMs: 20, logIntervalMs: 3_600_000, running: true }), staticDir: RENDERER_DIR });
  servers.push(server);
  return server;
}

test('health probes are hidden by default, counted, and shown by the toggle; a tester query is never hidden', async ({ page }) => {
  const server = await serveRunning();
  await page.goto(server.url);
  // The verdict's check ran through the proxy: its probes are in the log.
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-level', 'ok');
  const panel = page.getByTestId('panel-logs');
  const toggle = panel.getByTestId('logs-show-probes');
  const count = panel.getByTestId('logs-query-count');
  const NAME = 'kubernetes.default.svc.cluster.local';
  const visibleNamed = async () => (await panel.getByTestId('q-name').allInnerTexts()).filter((n) => n === NAME).length;
  await page.getByTestId('tab-logs').click();
  await expect(toggle).not.toBeChecked();
  await expect(count).toHaveText(/^\d+ queries · [1-9]\d* health probes? hidden$/);
  const before = await visibleNamed(); // the captured dnsproxy run's own queries of that name
  // A query from the tester is real traffic: one more visible row, never hidden.
  await page.getByTestId('tab-query').click();
  await page.getByTestId('query-name').fill(NAME);
  await page.getByTestId('query-target').selectOption('proxy');
  await page.getByTestId('query-run').click();
  await expect(page.getByTestId('query-rcode')).toHaveText('NOERROR');
  await page.getByTestId('tab-logs').click();
  await expect.poll(visibleNamed).toBe(before + 1);
  // Toggle on: the probes join the list; the count and the toggle's number agree.
  const probesInLabel = async () => Number(/\((\d+)\)$/.exec(await panel.getByTestId('logs-probes-label').innerText())![1]);
  const hiddenText = await count.innerText();
  const shownOff = Number(/^(\d+) queries/.exec(hiddenText)![1]);
  await toggle.check();
  await expect.poll(async () => Number(/^(\d+) queries$/.exec(await count.innerText())?.[1] ?? -1) - (await probesInLabel())).toBe(shownOff);
  expect(await probesInLabel()).toBeGreaterThan(0);
  expect(await visibleNamed()).toBeGreaterThan(before + 1);
  // Raw view: lines, and the queries they hold.
  await panel.getByTestId('logs-view-raw').click();
  await expect(panel.getByTestId('logs-count')).toHaveText(/^\d+ lines \(\d+ queries\)$/);
});

test('after Uninstall the Logs panel is empty and says the log was removed', async ({ page }) => {
  const server = await serveRunning();
  await page.goto(server.url);
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('query-row').first()).toBeVisible();
  await page.getByTestId('tab-overview').click();
  await page.getByTestId('btn-uninstall').click();
  await page.getByTestId('btn-confirm-uninstall').click();
  await expect(page.getByTestId('dns-state')).toHaveText('stopped');
  await page.getByTestId('tab-logs').click();
  await expect(panel.getByTestId('logs-empty')).toBeVisible();
  await expect(panel.getByTestId('logs-cleared')).toHaveText('Uninstall removed the proxy log (/var/log/dnsproxy/dnsproxy.log).');
  await expect(panel.getByTestId('query-row')).toHaveCount(0);
});

test('the system resolver (getaddrinfo) shows TTL "—", a DNS server its TTL', async ({ page }) => {
  const server = await serveRunning();
  await page.goto(server.url);
  await page.getByTestId('tab-query').click();
  await page.getByTestId('query-name').fill('kubernetes.default.svc.cluster.local');
  await page.getByTestId('query-target').selectOption('system');
  await page.getByTestId('query-run').click();
  await expect(page.getByTestId('answer-ttl')).toHaveText('—');
  await expect(page.getByTestId('answer-ttl')).toHaveAttribute('title', 'getaddrinfo returns no TTL');
  await page.getByTestId('query-target').selectOption('proxy');
  await page.getByTestId('query-run').click();
  await expect(page.getByTestId('answer-ttl')).toHaveText('30');
});
