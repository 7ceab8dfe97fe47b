import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { WebServer } from '../../electron/web/server';
import { serveFake } from './serve-fake';

/** Fake-data screenshots stay out of docs/ (the README's come from lifecycle.spec.ts on the test bed). */
const SHOTS = '.tmp/screenshots/fake';
let server: WebServer;
let context: BrowserContext;
let page: Page;
const cspErrors: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  server = await serveFake({ stepDelayMs: 100, logIntervalMs: 300 });
  // One context shared with the second-server test's tab: what the browser would send along.
  context = await browser.newContext();
  page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(server.url);
});

test.afterAll(async () => {
  await context.close();
  await server.close();
});

test('the address bar drops the #token fragment and the browser holds no cookie', async () => {
  await expect(page.getByTestId('cluster-state')).toHaveText('Reachable');
  expect(page.url()).toBe(server.url.replace(/#token=.*$/, ''));
  expect(await page.context().cookies()).toEqual([]);
});

// Regression: on main the token became a cookie for 127.0.0.1, which the browser
// also sent to any other server on 127.0.0.1 (cookies ignore ports, RFC 6265 §8.5).
test('a second local server on another port receives no usable credential after the app was opened', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const other = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<title>another local server</title>');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  const otherPort = (other.address() as AddressInfo).port;
  // The app page made its API calls (cluster panel filled) before the other server is visited.
  await expect(page.getByTestId('cluster-state')).toHaveText('Reachable');
  const visitor = await context.newPage();
  await visitor.goto(`http://127.0.0.1:${otherPort}/`);
  // A subresource request from that page too (an <img>: cookies go along with those as well).
  await visitor.setContent(`<img src="http://127.0.0.1:${otherPort}/pixel">`);
  await expect.poll(() => seen.length).toBeGreaterThanOrEqual(2);
  await visitor.close();
  await new Promise<void>((r) => other.close(() => r()));
  for (const h of seen) {
    expect(h.cookie).toBeUndefined();
    expect(h.authorization).toBeUndefined();
    expect(JSON.stringify(h)).not.toContain(server.token);
  }
});

test('cluster panel shows the fixture cluster', async () => {
  const panel = page.getByTestId('panel-cluster');
  await expect(panel.getByTestId('cluster-state')).toHaveText('Reachable');
  await expect(panel.getByTestId('cluster-version')).toHaveText('v1.33.3');
  await expect(panel.getByTestId('cluster-kubedns')).toHaveText('172.21.0.10');
  await expect(panel.getByTestId('cluster-nodes')).toContainText('k2s-host');
  await expect(panel.getByTestId('cluster-coredns').locator('tbody tr')).toHaveCount(2);
  await panel.screenshot({ path: `${SHOTS}/cluster.png` });
});

test('host DNS panel: stopped, Stop disabled with a visible reason', async () => {
  const panel = page.getByTestId('panel-hostdns');
  await expect(panel.getByTestId('dns-state')).toHaveText('stopped');
  await expect(panel.getByTestId('btn-stop')).toBeDisabled();
  await expect(panel.getByTestId('btn-stop')).toHaveAttribute('title', 'Nothing to stop: K2s DNS is not running and no resolver is saved.');
  await expect(panel.getByTestId('disabled-reasons')).toHaveText('Nothing to stop: K2s DNS is not running and no resolver is saved.');
});

test('Start runs the timeline to Ready', async () => {
  const panel = page.getByTestId('panel-hostdns');
  await panel.getByTestId('btn-start').click();
  await expect(panel.getByTestId('btn-start')).toBeDisabled();
  await expect(panel.getByTestId('step-ready')).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  for (const step of ['preflight', 'save', 'discover', 'config', 'service', 'activate', 'verify']) {
    await expect(panel.getByTestId(`step-${step}`)).toHaveAttribute('data-status', 'done');
  }
  await expect(panel.getByTestId('timeline-result')).toHaveText('K2s DNS is running: cluster names resolve on this host.');
  await expect(panel.getByTestId('dns-state')).toHaveText('running');
  await expect(panel.getByTestId('dns-listeners')).toHaveText('127.0.0.1:53');
  await expect(panel.getByTestId('dns-skipped')).toContainText('KubeSwitch address 172.19.1.1 is not assigned on this host');
  await expect(panel.getByTestId('dns-upstreams')).toHaveText('192.168.178.1');
  await expect(panel.getByTestId('btn-start')).toHaveAttribute('title', 'Already running: stop first to start again.');
  // Disabled looks disabled: grey (--neutral-bg), not the accent blue (walk 11 L11); its reason is
  // the line under the buttons, named by aria-describedby (a disabled button takes no focus).
  await expect(panel.getByTestId('btn-start')).toBeDisabled();
  await expect(panel.getByTestId('btn-start')).toHaveCSS('background-color', 'rgb(238, 240, 243)');
  await expect(panel.getByTestId('btn-stop')).toHaveCSS('background-color', 'rgb(37, 99, 235)');
  const why = await panel.getByTestId('btn-start').getAttribute('aria-describedby');
  await expect(page.locator(`[id="${why}"]`)).toHaveText('Already running: stop first to start again.');
  await panel.screenshot({ path: `${SHOTS}/host-dns.png` });
  await page.screenshot({ path: `${SHOTS}/overview.png`, fullPage: true });
});

test('zones table marks the cluster domain', async () => {
  await page.getByTestId('tab-zones').click();
  const panel = page.getByTestId('panel-zones');
  await expect(panel.locator('tbody tr')).toHaveCount(3);
  await expect(panel.getByTestId('zone-cluster.local')).toContainText('cluster.local');
  await expect(panel.getByTestId('zone-cluster.local').getByTestId('cluster-domain-mark')).toBeVisible();
  await expect(panel.getByTestId('zone-21.172.in-addr.arpa')).toContainText('service CIDR 172.21.0.0/16');
  await expect(panel.getByTestId('zone-20.172.in-addr.arpa')).toContainText('172.21.0.10');
  await panel.screenshot({ path: `${SHOTS}/zones.png` });
});

test('resolver diff: metadata changes, side by side and unified', async () => {
  await page.getByTestId('tab-diff').click();
  const panel = page.getByTestId('panel-diff');
  await expect(panel.getByTestId('diff-saved')).toHaveText('symlink → /run/NetworkManager/resolv.conf');
  await expect(panel.getByTestId('diff-changes')).toContainText('symlink → regular file');
  await expect(panel.getByTestId('diff-side')).toContainText('nameserver 127.0.0.1');
  await panel.screenshot({ path: `${SHOTS}/diff-side-by-side.png` });
  await panel.getByTestId('diff-view-unified').click();
  await expect(panel.getByTestId('diff-unified')).toContainText('-nameserver 192.168.178.1');
  await expect(panel.getByTestId('diff-unified')).toContainText('+nameserver 127.0.0.1');
  await panel.screenshot({ path: `${SHOTS}/diff-unified.png` });
});

test('logs: real engine lines, category and text filters (query view: query-log.spec.ts)', async () => {
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await panel.getByTestId('logs-view-raw').click();
  const rows = panel.getByTestId('log-row');
  // The fake's log holds the captured dnsproxy v0.83.1 and dnsmasq 2.90 runs (fixtures/logs/).
  await panel.getByTestId('logs-filter').fill('listening to udp');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('prefix=dnsproxy addr=127.0.0.1:15353');
  await panel.getByTestId('logs-filter').fill('exchange failed');
  await expect(rows.first()).toHaveClass(/level-ERROR/);
  // DEBUG start-up lines go with DEBUG; per-query lines stay (their own category).
  await panel.getByTestId('logs-level-DEBUG').uncheck();
  await panel.getByTestId('logs-filter').fill('upstream is reserved');
  await expect(rows).toHaveCount(0);
  await panel.getByTestId('logs-filter').fill('sending request');
  await expect(rows.first()).toBeVisible();
  await panel.getByTestId('logs-filter').fill('');
  await panel.getByTestId('logs-level-DEBUG').check();
  await panel.getByTestId('logs-pause').click();
  await panel.screenshot({ path: `${SHOTS}/logs.png` });
  await panel.getByTestId('logs-pause').click();
  await panel.getByTestId('logs-view-queries').click();
});

test('query tester: run, dig command, compare across targets', async () => {
  await page.getByTestId('tab-query').click();
  const panel = page.getByTestId('panel-query');
  await panel.getByTestId('query-target').selectOption('coredns');
  await panel.getByTestId('query-tcp').check();
  await panel.getByTestId('query-run').click();
  const result = panel.getByTestId('query-result');
  await expect(result.getByTestId('query-rcode')).toHaveText('NOERROR');
  await expect(result.getByTestId('query-answers')).toContainText('172.21.0.1');
  await expect(result.getByTestId('query-answers')).toContainText('30');
  await expect(result.getByTestId('query-dig')).toHaveText('dig @172.21.0.10 -p 53 kubernetes.default.svc.cluster.local A +tcp');
  await panel.getByTestId('query-compare').click();
  const cards = panel.getByTestId('query-compare-results').getByTestId('query-result');
  await expect(cards).toHaveCount(4);
  await expect(cards.nth(3).getByTestId('query-rcode')).toHaveText('NXDOMAIN');
  await panel.getByTestId('query-name').fill('bad name!');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-error')).toHaveText('“bad name!” contains a space: a DNS name is labels separated by dots, without spaces.');
  await panel.getByTestId('query-name').fill('kubernetes.default.svc.cluster.local');
  await panel.screenshot({ path: `${SHOTS}/query.png` });
});

test('topology: every hop green while running, skipped listener explained on click', async () => {
  await page.getByTestId('tab-topology').click();
  const panel = page.getByTestId('panel-topology');
  await panel.getByTestId('topology-probe').click();
  for (const id of ['system', 'resolver', 'listener:127.0.0.1:53', 'kube-dns', 'upstream:192.168.178.1']) {
    await expect(panel.getByTestId(`hop-${id}`)).toHaveAttribute('data-ok', 'true');
  }
  await panel.getByTestId('hop-listener:172.19.1.1').click();
  await expect(panel.getByTestId('hop-detail')).toHaveText('skipped listener 172.19.1.1: KubeSwitch address 172.19.1.1 is not assigned on this host');
  await panel.screenshot({ path: `${SHOTS}/topology.png` });
});

test('uninstall asks for confirmation, then restores', async () => {
  await page.getByTestId('tab-overview').click();
  const panel = page.getByTestId('panel-hostdns');
  await panel.getByTestId('btn-uninstall').click();
  await expect(panel.getByTestId('confirm-uninstall')).toBeVisible();
  // Hosts without systemd have no unit: the dialog names the service, the unit only for systemd hosts.
  await expect(panel.getByTestId('confirm-uninstall-text')).toContainText('stop the k2s-dnsproxy service (on systemd hosts also remove its unit)');
  await expect(panel.getByTestId('confirm-uninstall-text')).toContainText('the proxy log (/var/log/dnsproxy/dnsproxy.log) and the exact query log (/var/log/dnsproxy/queries.jsonl), each with its rotated copy');
  await panel.getByTestId('btn-cancel-uninstall').click();
  await expect(panel.getByTestId('dns-state')).toHaveText('running');
  await panel.getByTestId('btn-uninstall').click();
  await panel.getByTestId('btn-confirm-uninstall').click();
  await expect(panel.getByTestId('step-remove-files')).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await expect(panel.getByTestId('dns-state')).toHaveText('stopped');
  // Nothing runs and nothing is saved now: the dialog names no restore and no stop (walk 5 L8).
  await panel.getByTestId('btn-uninstall').click();
  await expect(panel.getByTestId('confirm-uninstall-text')).toHaveText(/^K2s DNS is not running and no original \/etc\/resolv\.conf is saved, so nothing is restored or stopped\. Remove the K2s-owned files that are left: /);
  await panel.getByTestId('btn-cancel-uninstall').click();
  await expect(panel.getByTestId('confirm-uninstall')).toBeHidden();
  expect(cspErrors).toEqual([]);
});

test('Windows/macOS read-only mode: lifecycle buttons disabled with the reason from app:info', async ({ browser }) => {
  const { createFakeBackend } = await import('../support/backend-fake');
  const { startWebServer } = await import('../../electron/web/server');
  const { RENDERER_DIR } = await import('./serve-fake');
  const reason = 'On Windows and macOS the host DNS flow belongs to K2s’s own tooling; this app is read-only here.';
  const fake = createFakeBackend();
  const readOnly = await startWebServer({
    backend: { ...fake, appInfo: async () => ({ platform: 'win32', lifecycleSupported: false, reason, version: '0.1.0' }) },
    staticDir: RENDERER_DIR,
  });
  const p = await browser.newPage();
  await p.goto(readOnly.url);
  const panel = p.getByTestId('panel-hostdns');
  for (const id of ['btn-start', 'btn-stop', 'btn-uninstall', 'engine-select']) await expect(panel.getByTestId(id)).toBeDisabled();
  await expect(panel.getByTestId('btn-start')).toHaveAttribute('title', reason);
  await expect(panel.getByTestId('disabled-reasons')).toHaveText(reason);
  // Read-only views still work: the cluster panel and the query tester.
  await expect(p.getByTestId('panel-cluster').getByTestId('cluster-state')).toHaveText('Reachable');
  await p.close();
  await readOnly.close();
});
