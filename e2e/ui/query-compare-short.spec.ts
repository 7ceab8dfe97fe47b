/**
 * Query tester, fake backend (issue 20 low): "Compare across all targets" for a relative name
 * that gets NXDOMAIN (`kubernetes.default`) shows the search-list explanation the single run
 * shows (shared/search-explain.ts), once, under the compare table.
 */
import { expect, test, type Browser, type Locator } from '@playwright/test';
import { serveFake } from './serve-fake';

/** The Query tester's panel of a fake backend's running app at 1280 px, for `fn`; closes both after. */
async function withQueryPanel(browser: Browser, fn: (panel: Locator) => Promise<void>): Promise<void> {
  const server = await serveFake({ running: true, logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-query').click();
    await fn(page.getByTestId('panel-query'));
  } finally {
    await page.close();
    await server.close();
  }
}

test('compare for kubernetes.default: one search-list explanation under the compare table, candidates asked', async ({ browser }) => {
  await withQueryPanel(browser, async (panel) => {
    await panel.getByTestId('query-name').fill('kubernetes.default');
    await panel.getByTestId('query-compare').click();
    const table = panel.getByTestId('query-compare-results');
    await expect(table.getByTestId('query-result').first()).toBeVisible();
    const box = panel.getByTestId('query-short-name');
    await expect(box).toHaveCount(1);
    // Worded for host apps (the System resolver is in the table); the fake's resolv.conf has `search fritz.box`, no ndots option.
    await expect(box).toContainText("kubernetes.default is a relative name; with glibc's default ndots:1 (no ndots option in /etc/resolv.conf) glibc asks it as it is first, then with each search domain: host apps (glibc) try the search list fritz.box in order");
    await expect(box.getByTestId('query-candidate')).toHaveText(['kubernetes.default — NXDOMAIN', 'kubernetes.default.fritz.box — NXDOMAIN']);
    await expect(box.getByTestId('query-short-none')).toContainText('None of them resolves');
    // Under the table, not above it.
    const [t, b] = [await table.boundingBox(), await box.boundingBox()];
    expect(b!.y, 'the explanation starts below the compare table').toBeGreaterThanOrEqual(t!.y + t!.height - 1);
    // A plain run afterwards still shows it once, above its one result card.
    await panel.getByTestId('query-run').click();
    await expect(panel.getByTestId('query-compare-results')).toHaveCount(0);
    await expect(panel.getByTestId('query-short-name')).toHaveCount(1);
  });
});

test('compare for a PTR (172.21.0.10): no search-list explanation, the address is no relative name (second walk high)', async ({ browser }) => {
  await withQueryPanel(browser, async (panel) => {
    await panel.getByTestId('query-name').fill('172.21.0.10');
    await panel.getByTestId('query-type').selectOption('PTR');
    await panel.getByTestId('query-compare').click();
    const table = panel.getByTestId('query-compare-results');
    await expect(table.getByTestId('query-result').first()).toBeVisible();
    await expect(table.getByTestId('query-result')).not.toHaveCount(0);
    await expect(panel.getByTestId('query-short-name')).toHaveCount(0);
    await expect(panel).not.toContainText('is a relative name');
  });
});

test('compare for kubernetes.default.svc.cluster.local: no search-list explanation although an upstream answers NXDOMAIN — host apps resolve it (third walk low)', async ({ browser }) => {
  await withQueryPanel(browser, async (panel) => {
    await panel.getByTestId('query-name').fill('kubernetes.default.svc.cluster.local');
    await panel.getByTestId('query-compare').click();
    const table = panel.getByTestId('query-compare-results');
    await expect(table.getByTestId('query-result').first()).toBeVisible();
    // The upstream row is asked and answers NXDOMAIN (it does not know cluster names)…
    await expect(table).toContainText('NXDOMAIN');
    // …yet the name is no short name and host apps resolved it: nothing to explain.
    await expect(panel.getByTestId('query-short-name')).toHaveCount(0);
    await expect(panel).not.toContainText('is a relative name');
  });
});
