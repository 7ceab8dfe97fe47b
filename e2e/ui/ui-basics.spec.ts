/**
 * The GUI words and desktop basics on the fake backend in Debian's Chromium: GUI words (no CLI talk, one name
 * per drift choice, options that will fail disabled with why), desktop basics (OS dark mode,
 * 900 px, WAI-ARIA tabs, modal dialog, live region, axe-core over every panel in light and dark)
 * and the query tester's edges. Dark-mode screenshots go to docs/screenshots for the README.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createFakeBackend, type FakeBackendOptions } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';
import type { DoctorFinding } from '../../shared/doctor';
import { RENDERER_DIR } from './serve-fake';
import { TABS } from '../../renderer/src/lib/ui-state';
import { MANAGED_NOTE } from '../../shared/k2s-paths';

const DOCS = 'docs/screenshots';
const SHOTS = '.tmp/screenshots/ui-basics';
const servers: WebServer[] = [];

/** Serves the renderer with a fake backend, some calls replaced. */
async function serve(opts: FakeBackendOptions, patch: (fake: AppBackend) => Partial<AppBackend> = () => ({})): Promise<WebServer> {
  const fake = createFakeBackend({ stepDelayMs: 50, logIntervalMs: 500, ...opts });
  const server = await startWebServer({ backend: { ...fake, ...patch(fake) }, staticDir: RENDERER_DIR });
  servers.push(server);
  return server;
}

/** A page in `scheme` at `width` px, with the clipboard allowed; console errors collected. */
async function open(browser: Browser, url: string, scheme: 'light' | 'dark' = 'light', width = 1280): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 860 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  await expect(page.getByTestId('dns-state')).toBeVisible();
  return { page, errors };
}

/** The visible text of the whole window. */
const windowText = (page: Page) => page.locator('body').innerText();

/** CLI words that must never reach the GUI. */
const CLI_TALK = /k2s-dns (start|stop|diff|doctor|recover)|--on-drift|--dnsproxy|--engine|--kubeswitch|`/;

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

test('dark mode follows the OS: different pixels, expected colours, screenshots for the README', async ({ browser }) => {
  const server = await serve({ running: true });
  const light = await open(browser, server.url, 'light');
  const dark = await open(browser, server.url, 'dark');
  const bg = (p: Page) => p.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const panelBg = (p: Page) => p.getByTestId('panel-hostdns').evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(await bg(light.page)).toBe('rgb(245, 246, 248)');
  expect(await bg(dark.page)).toBe('rgb(13, 17, 23)');
  expect(await panelBg(dark.page)).toBe('rgb(22, 27, 34)');
  expect(await dark.page.getByTestId('panel-hostdns').evaluate((e) => getComputedStyle(e).color)).toBe('rgb(230, 237, 243)');
  await expect(dark.page.getByTestId('dns-state')).toHaveText('running');
  const a = await light.page.screenshot();
  const b = await dark.page.screenshot({ path: `${DOCS}/dark-overview.png` });
  expect(a.equals(b)).toBe(false);
  for (const id of ['query', 'diff', 'diagnostics'] as const) {
    await dark.page.getByTestId(`tab-${id}`).click();
    if (id === 'query') {
      await dark.page.getByTestId('query-run').click();
      await expect(dark.page.getByTestId('query-rcode')).toHaveText('resolved');
    }
    if (id === 'diagnostics') await expect(dark.page.getByTestId('diagnostics-summary')).toBeVisible();
    await dark.page.screenshot({ path: `${DOCS}/dark-${id}.png` });
  }
  expect(dark.errors).toEqual([]);
  await light.page.context().close();
  await dark.page.context().close();
});

test('axe-core: every panel, light and dark, no serious or critical violation', async ({ browser }) => {
  // 14 axe runs on a shared 2-core host: minutes, not the default minute.
  test.setTimeout(300_000);
  const server = await serve({ running: true });
  const bad: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    const { page } = await open(browser, server.url, scheme);
    for (const t of TABS) {
      await page.getByTestId(`tab-${t.id}`).click();
      await expect(page.getByTestId(`tabpanel-${t.id}`)).toBeVisible();
      if (t.id === 'query') {
        await page.getByTestId('query-compare').click();
        await expect(page.getByTestId('query-compare-results')).toBeVisible();
      }
      if (t.id === 'diagnostics') await expect(page.getByTestId('diagnostics-summary')).toBeVisible();
      if (t.id === 'topology') await expect(page.getByTestId('panel-topology')).toBeVisible();
      const r = await new AxeBuilder({ page }).analyze();
      bad.push(...r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme}/${t.id}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      expect(r.passes.length).toBeGreaterThan(10);
    }
    await page.context().close();
  }
  expect(bad).toEqual([]);
});

test('900 px: no panel scrolls the window sideways', async ({ browser }) => {
  const server = await serve({ running: true });
  const { page } = await open(browser, server.url, 'light', 900);
  for (const t of TABS) {
    await page.getByTestId(`tab-${t.id}`).click();
    await expect(page.getByTestId(`tabpanel-${t.id}`)).toBeVisible();
    if (t.id === 'diff') await expect(page.getByTestId('diff-side')).toBeVisible();
    if (t.id === 'query') {
      await page.getByTestId('query-compare').click();
      await expect(page.getByTestId('query-compare-results')).toBeVisible();
    }
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(`${t.id}: ${scroll}`).toBe(`${t.id}: ${client}`);
  }
  await page.screenshot({ path: `${SHOTS}/900-query.png`, fullPage: true });
  await page.context().close();
});

test('tabs: arrow keys, Home/End, aria-selected, aria-controls and tabpanels', async ({ browser }) => {
  const server = await serve({});
  const { page } = await open(browser, server.url);
  const tab = (id: string) => page.getByTestId(`tab-${id}`);
  await tab('overview').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab('zones')).toBeFocused();
  await expect(tab('zones')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('overview')).toHaveAttribute('aria-selected', 'false');
  await expect(tab('overview')).toHaveAttribute('tabindex', '-1');
  await expect(tab('zones')).toHaveAttribute('aria-controls', 'tabpanel-zones');
  await expect(page.getByRole('tabpanel', { name: 'Zones' })).toBeVisible();
  await expect(page.getByTestId('tabpanel-overview')).toBeHidden();
  await page.keyboard.press('End');
  await expect(tab('diagnostics')).toBeFocused();
  await expect(page.getByTestId('panel-diagnostics')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(tab('overview')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tab('diagnostics')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(tab('overview')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tablist')).toHaveCount(1);
  await expect(page.getByRole('tab')).toHaveCount(TABS.length);
  await page.context().close();
});

test('Uninstall dialog takes focus, Escape cancels and changes nothing', async ({ browser }) => {
  const server = await serve({ running: true });
  const { page } = await open(browser, server.url);
  await page.getByTestId('btn-uninstall').click();
  const dialog = page.getByRole('dialog', { name: 'Uninstall K2s DNS?' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('btn-cancel-uninstall')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('dns-state')).toHaveText('running');
  await expect(page.getByTestId('timeline')).toHaveCount(0);
  await page.context().close();
});

test('live region announces results and state changes', async ({ browser }) => {
  const server = await serve({});
  const { page } = await open(browser, server.url);
  const live = page.getByRole('status').and(page.getByTestId('live-region'));
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await page.getByTestId('btn-start').click();
  await expect(live).toHaveText('Start done: K2s DNS is running: cluster names resolve on this host.', { timeout: 15_000 });
  await page.getByTestId('tab-query').click();
  await page.getByTestId('query-run').click();
  await expect(live).toHaveText('kubernetes.default.svc.cluster.local A: NOERROR, 1 answer, 3 ms.');
  await page.context().close();
});

test('GUI words: no CLI talk, one name per drift choice, code as <code>', async ({ browser }) => {
  const drift = (fake: AppBackend): Partial<AppBackend> => ({
    dnsStatus: async () => ({ ...(await fake.dnsStatus({})), resolverOwner: 'foreign', messages: ['/etc/resolv.conf was changed by someone else while K2s ran (NetworkManager or a DHCP client?); Resolver diff shows how.'] }),
    doctorRun: async () => [
      ...(await fake.doctorRun({})).filter((f) => f.id !== 'lifecycle-state' && f.id !== 'port-53'),
      { id: 'lifecycle-state', severity: 'warn', title: 'K2s DNS state: /etc/resolv.conf changed by another program', meaning: 'x', fix: 'See what changed with `k2s-dns diff`, then run `k2s-dns stop --on-drift keep`', remedy: { action: 'show-diff', gui: 'Open Resolver diff to see what changed, then choose Keep their file or Restore my original on the Overview.', cli: 'k2s-dns diff' } },
      { id: 'port-53', severity: 'error', title: '127.0.0.1:53 is held by named (PID 77)', meaning: '127.0.0.1:53/udp is held by /usr/sbin/named -u bind (PID 77).', fix: 'Stop that process (e.g. `systemctl stop named`)', remedy: { action: 'run-checks', gui: 'Stop named (PID 77) or make it listen elsewhere (e.g. `systemctl stop named` in a terminal), then Check again and press Start.', cli: 'x' }, detail: { pid: 77, command: '/usr/sbin/named -u bind', ours: false } },
    ] as DoctorFinding[],
  });
  const server = await serve({ running: true }, drift);
  const { page, errors } = await open(browser, server.url);
  await expect(page.getByTestId('drift-banner')).toBeVisible();
  await expect(page.getByTestId('drift-keep')).toHaveText('Keep their file… (default)');
  await expect(page.getByTestId('drift-restore')).toHaveText('Restore my original…');
  // One place for the choice: the Host DNS card points at the banner (e2e/ui/drift-choice.spec.ts).
  await expect(page.getByTestId('btn-stop-keep')).toHaveCount(0);
  await expect(page.getByTestId('btn-stop-drift')).toHaveText('Stop… (choose at the top)');
  for (const t of TABS) {
    await page.getByTestId(`tab-${t.id}`).click();
    if (t.id === 'diagnostics') await expect(page.getByTestId('finding-port-53-fix')).toBeVisible();
    if (t.id === 'topology') await expect(page.getByTestId('panel-topology')).toBeVisible();
    // The K2s-owned file's own comment (MANAGED_NOTE names `k2s-dns stop` for whoever reads the file) is file content
    // the diff shows verbatim, not words of the window.
    const words = (await windowText(page)).split(MANAGED_NOTE).join('');
    expect(`${t.id}: ${words.match(CLI_TALK)?.[0] ?? 'clean'}`).toBe(`${t.id}: clean`);
  }
  await page.getByTestId('tab-diagnostics').click();
  await expect(page.getByTestId('finding-port-53-fix').locator('code')).toHaveText('systemctl stop named');
  await page.getByTestId('finding-lifecycle-state-action').click();
  await expect(page.getByTestId('tab-diff')).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
  await page.context().close();
});

test('options that will fail are disabled before the click, with why', async ({ browser }) => {
  const findings = (fake: AppBackend): Partial<AppBackend> => ({
    doctorRun: async () =>
      (await fake.doctorRun({})).map((f): DoctorFinding => {
        if (f.id === 'dnsproxy-version') return { ...f, severity: 'info', title: 'AdGuard dnsproxy not installed; the dnsmasq engine will be used', detail: { binary: '/opt/k2s/bin/dnsproxy', engine: 'dnsmasq' } };
        if (f.id === 'port-53') return { ...f, severity: 'error', title: '127.0.0.1:53 is held by dnsmasq (PID 812)', detail: { proto: 'udp', pid: 812, command: '/usr/sbin/dnsmasq --keep-in-foreground', ours: false } };
        return f;
      }),
  });
  const server = await serve({}, findings);
  const { page } = await open(browser, server.url);
  await expect(page.getByTestId('engine-option-adguard')).toBeDisabled();
  await expect(page.getByTestId('engine-option-adguard')).toHaveText('AdGuard dnsproxy — not installed (no dnsproxy at /opt/k2s/bin/dnsproxy)');
  await expect(page.getByTestId('engine-option-dnsmasq')).toBeEnabled();
  await expect(page.getByTestId('btn-start')).toBeDisabled();
  await expect(page.getByTestId('btn-start')).toHaveAttribute('title', '127.0.0.1:53 held by dnsmasq (PID 812): stop it, then press Check again.');
  await expect(page.getByTestId('disabled-reasons')).toContainText('127.0.0.1:53 held by dnsmasq (PID 812)');
  await expect(page.getByTestId('btn-check-port')).toBeVisible();
  await page.context().close();
});

test('query tester: system resolver default, validation, PTR refusal, in flight, short names, Copied, history re-run', async ({ browser }) => {
  const server = await serve({ running: true });
  const { page, errors } = await open(browser, server.url);
  await page.getByTestId('tab-query').click();
  const panel = page.getByTestId('panel-query');
  await expect(panel.getByTestId('query-target')).toHaveValue('system');
  // Readable validation, before anything is sent.
  await panel.getByTestId('query-name').fill('');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-error')).toHaveText('Enter a name to look up, e.g. kubernetes.default.svc.cluster.local.');
  await expect(panel.getByTestId('query-name')).toHaveAttribute('aria-invalid', 'true');
  await panel.getByTestId('query-name').fill('kubernetes.default');
  await panel.getByTestId('query-type').selectOption('PTR');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-error')).toHaveText('PTR finds the name behind an IP address, so it takes an address such as 172.21.0.10, not the hostname “kubernetes.default”. To find the address of kubernetes.default, choose type A or AAAA.');
  // In flight: hold the request until the indicator has been seen.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/query:run', async (route) => {
    await held;
    await route.continue();
  });
  await panel.getByTestId('query-type').selectOption('A');
  await panel.getByTestId('query-name').fill('kubernetes.default.svc.cluster.local');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-inflight')).toHaveText('Asking System resolver (getaddrinfo) for kubernetes.default.svc.cluster.local A…');
  await expect(panel.getByTestId('query-run')).toHaveText('Querying…');
  await expect(panel).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(panel.getByTestId('query-rcode')).toHaveText('resolved');
  await expect(panel.getByTestId('query-inflight')).toHaveCount(0);
  await page.unroute('**/api/query:run');
  // Copied feedback, and the clipboard holds the command.
  await panel.getByTestId('query-copy').click();
  await expect(panel.getByTestId('query-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('getent ahosts kubernetes.default.svc.cluster.local');
  await expect(panel.getByTestId('query-copy')).toHaveText('Copy as getent command', { timeout: 5000 });
  // Short name: the K2s-owned resolv.conf keeps `search fritz.box`, ndots 1.
  await panel.getByTestId('query-name').fill('kubernetes');
  await panel.getByTestId('query-run').click();
  const short = panel.getByTestId('query-short-name');
  await expect(short).toContainText('kubernetes has fewer dots than glibc\'s default ndots:1 (no ndots option in /etc/resolv.conf), so it is a short name: host apps (glibc) try the search list fritz.box in order');
  await expect(short.getByTestId('query-candidate')).toHaveText(['kubernetes.fritz.box — NXDOMAIN', 'kubernetes — NXDOMAIN']);
  await expect(short.getByTestId('query-short-none')).toHaveText('None of them resolves: the search list has no domain under which kubernetes exists. Cluster names need their full form here, e.g. kubernetes.default.svc.cluster.local.');
  // History: re-run the CoreDNS row with its own target and transport.
  await panel.getByTestId('query-target').selectOption('coredns');
  await panel.getByTestId('query-tcp').check();
  await panel.getByTestId('query-name').fill('kube-dns.kube-system.svc.cluster.local');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-answers')).toContainText('172.21.0.10');
  await panel.getByTestId('query-target').selectOption('system');
  await panel.getByTestId('query-name').fill('www.example.test');
  await panel.getByTestId('query-run').click();
  await expect(panel.getByTestId('query-history-row')).toHaveCount(4);
  await panel.getByTestId('query-history-row').nth(1).getByTestId('query-history-rerun').click();
  await expect(panel.getByTestId('query-target')).toHaveValue('coredns');
  await expect(panel.getByTestId('query-name')).toHaveValue('kube-dns.kube-system.svc.cluster.local');
  await expect(panel.getByTestId('query-dig')).toHaveText('dig @172.21.0.10 -p 53 kube-dns.kube-system.svc.cluster.local A +tcp');
  await expect(panel.getByTestId('query-history-row')).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/query.png`, fullPage: true });
  // An Internet name gets no cluster form (the CLI's rule, shared/internet-suffix.ts; its chunk loads on demand).
  await panel.getByTestId('query-target').selectOption('system');
  await panel.getByTestId('query-name').fill('nothing.com');
  await panel.getByTestId('query-run').click();
  await expect(short.getByTestId('query-candidate')).toHaveText(['nothing.com — NXDOMAIN', 'nothing.com.fritz.box — NXDOMAIN']);
  await expect(short.getByTestId('query-short-none')).toHaveText('None of them resolves: the search list has no domain under which nothing.com exists. nothing.com is an Internet name (under the public suffix .com), not a cluster one, and the nameserver says it does not exist (NXDOMAIN).');
  expect(errors).toEqual([]);
  await page.context().close();
});
