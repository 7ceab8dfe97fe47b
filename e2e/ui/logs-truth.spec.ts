/**
 * First-user report 4 and 7 on the fake backend in Debian's Chromium: the app's own health
 * probes (asked as KUBERNETES.DEFAULT.svc.…) are hidden from the query log by default, with a
 * toggle and a count; the raw view counts lines and queries; the Logs panel empties after
 * Uninstall removed the log, also in a window other than the one that ran it, and holds only
 * the new log's lines after the next Start (walk H1); the system resolver's answers show TTL "—" (getaddrinfo has none).
 */
import { expect, test, type Page } from '@playwright/test';
import { createFakeBackend } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { RENDERER_DIR } from './serve-fake';
import { buildQueryLog } from '../../shared/query-log';

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
  // Rows show the name as the packet spelled it (the probes': KUBERNETES.DEFAULT.svc…, shared/health-probe.ts).
  const visibleNamed = async () => (await panel.getByTestId('q-name').allInnerTexts()).filter((n) => n.toLowerCase() === NAME).length;
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
  const probesInLabel = async () => Number(/\((\d+) quer(?:y|ies)(?: of the exact query log)?\)$/.exec(await panel.getByTestId('logs-probes-label').innerText())![1]);
  const hiddenText = await count.innerText();
  const shownOff = Number(/^(\d+) queries/.exec(hiddenText)![1]);
  await toggle.check();
  await expect.poll(async () => Number(/^(\d+) queries$/.exec(await count.innerText())?.[1] ?? -1) - (await probesInLabel())).toBe(shownOff);
  expect(await probesInLabel()).toBeGreaterThan(0);
  expect(await visibleNamed()).toBeGreaterThan(before + 1);
  // The engine's log keeps the probe's spelling, and the row shows it (tidy30: it was lower-cased).
  expect(await panel.getByTestId('q-name').allInnerTexts()).toContain('KUBERNETES.DEFAULT.svc.cluster.local');
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
  await expect(panel.getByTestId('logs-cleared')).toHaveText('Uninstall removed the proxy log (/var/log/dnsproxy/dnsproxy.log) and the exact query log (/var/log/dnsproxy/queries.jsonl).');
  await expect(panel.getByTestId('query-row')).toHaveCount(0);
});

const CLEARED = 'Uninstall removed the proxy log (/var/log/dnsproxy/dnsproxy.log) and the exact query log (/var/log/dnsproxy/queries.jsonl).';

/** Runs Uninstall → "Yes, uninstall" in `page` and waits for its end. */
async function uninstallIn(page: Page): Promise<void> {
  await page.getByTestId('tab-overview').click();
  await page.getByTestId('btn-uninstall').click();
  await page.getByTestId('btn-confirm-uninstall').click();
  await expect(page.getByTestId('dns-state')).toHaveText('stopped');
}

/** The Logs panel of `page` says the log was removed and holds nothing, in the open view. */
async function expectCleared(page: Page): Promise<void> {
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-empty')).toBeVisible();
  await expect(panel.getByTestId('logs-cleared')).toHaveText(CLEARED);
  await expect(panel.getByTestId('query-row')).toHaveCount(0);
  await expect(panel.getByTestId('log-row')).toHaveCount(0);
}

test('walk H1: Uninstall in another window empties this window\'s Logs panel (Raw and Queries); after the next Start it holds only the new lines', async ({ browser }) => {
  const backend = createFakeBackend({ stepDelayMs: 20, logIntervalMs: 3_600_000, running: true });
  const server = await startWebServer({ backend, staticDir: RENDERER_DIR });
  servers.push(server);
  const watcher = await browser.newPage();
  const actor = await browser.newPage();
  try {
    // The watching window stays on Logs → Raw log with the old file's lines.
    await watcher.goto(server.url);
    await expect(watcher.getByTestId('verdict')).toHaveAttribute('data-level', 'ok');
    await watcher.getByTestId('tab-logs').click();
    const panel = watcher.getByTestId('panel-logs');
    await panel.getByTestId('logs-view-raw').click();
    await expect(panel.getByTestId('logs-count')).toHaveText(/[1-9]\d* lines \([1-9]\d* queries\)/);
    // The other window uninstalls (its own panel is covered by the one-window test above).
    await actor.goto(server.url);
    await uninstallIn(actor);
    // Raw view, never touched: the removed log's lines are gone and it says why.
    await expectCleared(watcher);
    await expect(panel.getByTestId('logs-count')).toHaveCount(0);
    await panel.getByTestId('logs-view-queries').click();
    await expectCleared(watcher);
    await expect(panel.getByTestId('logs-query-count')).toHaveCount(0);
    // The next Start (in the other window) writes a new log: the watcher holds its lines only,
    // exactly the lines of the backend's log now (a window opened now could miss lines pushed
    // before its event channel opened, so the file itself is the reference).
    await actor.getByTestId('btn-start').click();
    await expect(actor.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
    await expect(actor.getByTestId('verdict')).toHaveAttribute('data-level', 'ok');
    await panel.getByTestId('logs-view-raw').click();
    const file = async () => (await backend.logsPage({ lines: 5000 })).lines;
    // "N lines (…)" or "M of N lines (…) · K health probe lines hidden": N, the lines held.
    const held = async () => Number(/(\d+) lines/.exec(await panel.getByTestId('logs-count').innerText())![1]);
    const same = (a: number, b: number, what: string) => (a === b ? 'same' : `${a} ${what} ≠ ${b} in the file`);
    await expect.poll(async () => same(await held(), (await file()).length, 'lines held')).toBe('same');
    // The old file was a dnsmasq run (e2e/support/backend-fake-logs.ts): none of its lines at the top.
    await panel.getByTestId('logs-list').evaluate((el) => (el.scrollTop = 0));
    await expect(panel.getByTestId('log-row').first()).toBeVisible();
    await expect(panel.locator('[data-testid="log-row"][title*="dnsmasq["]')).toHaveCount(0);
    // Queries view: the rows of the new file (shown + probes hidden), none of the old file's.
    await panel.getByTestId('logs-view-queries').click();
    const rows = async () => { const m = /^(\d+) queries · (\d+) health probes? hidden$/.exec(await panel.getByTestId('logs-query-count').innerText()); return m ? Number(m[1]) + Number(m[2]) : -1; };
    await expect.poll(async () => same(await rows(), buildQueryLog(await file()).length, 'rows held')).toBe('same');
    await panel.getByTestId('logs-query-list').evaluate((el) => (el.scrollTop = 0));
    await expect(panel.getByTestId('query-row').first()).toBeVisible();
    await expect(panel.locator('[data-testid="query-row"][data-engine="dnsmasq"]')).toHaveCount(0);
  } finally {
    await watcher.close();
    await actor.close();
  }
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
