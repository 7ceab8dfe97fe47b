/**
 * The Logs panel's query view on real engine lines: the fake backend's log holds the captured
 * dnsmasq 2.90 run (log-queries=extra) and, after Start, the captured AdGuard dnsproxy v0.83.1 -v
 * run (fixtures/logs/, via e2e/support/backend-fake-logs.ts). Asserts the cells of rows from both
 * engines, the filters, the raw view's run separators and categories, and the empty state.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';
import { serveFake } from './serve-fake';

const SHOTS = '.tmp/screenshots/fake';
let page: Page;
// A long log interval: only the captured lines (and the query tester's) are in the log.
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000 }, (p) => (page = p));

/** The cells of a query row as [name, type, route, upstream, answer, rcode, engine]. */
async function cells(row: Locator): Promise<string[]> {
  const t = (id: string) => row.getByTestId(id).innerText();
  return [await t('q-name'), await t('q-type'), await t('q-route'), await t('q-upstream'), await t('q-answer'), await t('q-rcode'), (await row.getAttribute('data-engine')) ?? ''];
}

test('query view: rows from the real dnsmasq run, then from the real dnsproxy run after Start', async () => {
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-view-queries')).toHaveAttribute('aria-pressed', 'true');
  const rows = panel.getByTestId('query-row');
  await expect(panel.getByTestId('logs-query-count')).toHaveText('13 queries');
  // dnsmasq learnt the cluster zones from its `using nameserver … for domain` lines.
  expect(await cells(rows.nth(1))).toEqual(['kubernetes.default.svc.cluster.local', 'A', 'cluster zone cluster.local', '127.0.0.1:15354', '172.21.0.1', 'NOERROR', 'dnsmasq']);
  expect(await cells(rows.nth(2))).toEqual(['kubernetes.default.svc.cluster.local', 'A', 'cache', '—', '172.21.0.1', 'NOERROR', 'dnsmasq']);
  expect(await cells(rows.nth(4))).toEqual(['nothere.default.svc.cluster.local', 'A', 'cluster zone cluster.local', '127.0.0.1:15354', '', 'NXDOMAIN', 'dnsmasq']);
  expect(await cells(rows.nth(6))).toEqual(['20.1.168.192.in-addr.arpa', 'PTR', 'upstream', '127.0.0.1:15355', 'printer.lan', 'NOERROR', 'dnsmasq']);
  await expect(rows.nth(1).getByTestId('q-time')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  await expect(rows.nth(1).getByTestId('q-client')).toHaveText(/^127\.0\.0\.1:\d+$/);
  // Problems are highlighted; a forwarded query that never got a reply says so.
  await expect(rows.nth(4)).toHaveClass(/problem/);
  await expect(rows.nth(1)).not.toHaveClass(/problem/);
  await expect(rows.nth(11).getByTestId('q-rcode')).toHaveText('no reply');

  await page.getByTestId('tab-overview').click();
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('step-ready')).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await page.getByTestId('tab-logs').click();
  // 13 captured dnsproxy queries after the 13 dnsmasq ones (the app's own checks may add more after them).
  await expect(panel.getByTestId('logs-query-count')).toHaveText(/^(2[6-9]|[3-9]\d) queries( · \d+ health probes? hidden)?$/);
  expect(await cells(rows.nth(13 + 3))).toEqual(['broken.default.svc.cluster.local', 'A', 'cluster zone cluster.local', '127.0.0.1:15354', '', 'SERVFAIL', 'adguard']);
  expect(await cells(rows.nth(13 + 5))).toEqual(['10.0.21.172.in-addr.arpa', 'PTR', 'cluster zone 21.172.in-addr.arpa', '127.0.0.1:15354', 'kube-dns.kube-system.svc.cluster.local.', 'NOERROR', 'adguard']);
  expect(await cells(rows.nth(13 + 11))).toEqual(['slow.timeout.test', 'A', 'upstream', '127.0.0.1:15356', 'i/o timeout', 'SERVFAIL', 'adguard']);
  await expect(rows.nth(13 + 1).getByTestId('q-time')).toHaveText(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
  await expect(rows.nth(13 + 1).getByTestId('q-latency')).toHaveText(/^\d+\.\d+ ms$/);
  await expect(rows.nth(13 + 11).getByTestId('q-latency')).toHaveText(/^4\.\d\d s$/);
  await panel.screenshot({ path: `${SHOTS}/query-log.png` });
});

test('query view filters by name, rcode and route', async () => {
  const panel = page.getByTestId('panel-logs');
  const rows = panel.getByTestId('query-row');
  await panel.getByTestId('logs-query-filter').fill('example.org');
  await expect(panel.getByTestId('logs-query-count')).toHaveText(/^6 of \d+ queries( · \d+ health probes? hidden)?$/);
  await panel.getByTestId('logs-rcode').selectOption('NXDOMAIN');
  await expect(rows).toHaveCount(2);
  for (const i of [0, 1]) expect(await cells(rows.nth(i))).toEqual(['nx.example.org', 'A', 'upstream', '127.0.0.1:15355', '', 'NXDOMAIN', i === 0 ? 'dnsmasq' : 'adguard']);
  await panel.getByTestId('logs-query-filter').fill('');
  await panel.getByTestId('logs-rcode').selectOption('');
  await panel.getByTestId('logs-route').selectOption('cache');
  await expect(rows).toHaveCount(4);
  await expect(rows.getByTestId('q-route')).toHaveText(['cache', 'cache', 'cache', 'cache']);
  await panel.getByTestId('logs-route').selectOption('');
  await panel.getByTestId('logs-rcode').selectOption('problems');
  await expect(rows.getByTestId('q-rcode')).toHaveText(['SERVFAIL', 'NXDOMAIN', 'NXDOMAIN', 'REFUSED', 'no reply', 'no reply', 'SERVFAIL', 'NXDOMAIN', 'NXDOMAIN', 'REFUSED', 'SERVFAIL', 'SERVFAIL']);
  await panel.getByTestId('logs-rcode').selectOption('');
});

test('raw view: a separator per run, queries apart from DEBUG, full messages', async () => {
  const panel = page.getByTestId('panel-logs');
  await panel.getByTestId('logs-view-raw').click();
  // Separators stay while the lines around them are filtered out.
  await panel.getByTestId('logs-filter').fill('listening to udp');
  await expect(panel.getByTestId('log-run')).toHaveCount(2);
  await expect(panel.getByTestId('log-run').first()).toContainText('dnsmasq run (started, version 2.90)');
  await expect(panel.getByTestId('log-run').last()).toContainText('AdGuard dnsproxy run (v0.83.1)');
  await expect(panel.getByTestId('log-row')).toHaveText([/^\d{2}:\d{2}:\d{2}\.\d{3}INFOlistening to udp {2}prefix=dnsproxy addr=127\.0\.0\.1:15353$/]);
  await panel.getByTestId('logs-filter').fill('exchange failed');
  const row = panel.getByTestId('log-row');
  await expect(row).toHaveCount(2);
  await expect(row.first()).toHaveClass(/level-ERROR/);
  await expect(row.first()).toContainText('err="exchanging with 127.0.0.1:15356 over udp: read udp 127.0.0.1:');
  await expect(row.first()).toContainText('i/o timeout"');
  await panel.getByTestId('logs-filter').fill('');
  // Unticking DEBUG keeps the DNS traffic; unticking queries hides it.
  await panel.getByTestId('logs-level-DEBUG').uncheck();
  await panel.getByTestId('logs-filter').fill('reply error is SERVFAIL');
  await expect(row).toHaveCount(1);
  await panel.getByTestId('logs-level-QUERY').uncheck();
  await expect(row).toHaveCount(0);
  await panel.getByTestId('logs-level-QUERY').check();
  await panel.getByTestId('logs-level-DEBUG').check();
  await panel.getByTestId('logs-filter').fill('');
  await panel.screenshot({ path: `${SHOTS}/logs-raw.png` });
});

test('empty log: the panel says what to do', async ({ browser }) => {
  const empty = await serveFake({ emptyLog: true, logIntervalMs: 3_600_000 });
  const p = await browser.newPage();
  try {
    await p.goto(empty.url);
    await p.getByTestId('tab-logs').click();
    await expect(p.getByTestId('logs-empty')).toContainText('No proxy log yet.');
    await expect(p.getByTestId('logs-empty')).toContainText('Start K2s DNS on the Overview tab');
  } finally {
    await p.close();
    await empty.close();
  }
});
