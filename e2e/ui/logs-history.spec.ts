/**
 * Issue 20.1, the whole log: a window opened after ten minutes of traffic (the fake's log holds
 * 600 older user queries, each followed by a health probe, ~29,000 lines) pages back to the first
 * query in both views, its text filter searches the whole log in the backend with a match count,
 * and health probes are hidden by default in the Queries and the Raw view.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, history: 600 }, (p) => (page = p));

/** Clicks "Load older lines" until the start of the log is shown (at most `max` pages). */
async function loadAll(max: number): Promise<number> {
  const panel = page.getByTestId('panel-logs');
  for (let i = 0; i < max; i++) {
    if (await panel.getByTestId('logs-start').isVisible()) return i;
    await panel.getByTestId('logs-older').click();
    await expect(panel.getByTestId('logs-older').or(panel.getByTestId('logs-start'))).toBeEnabled();
  }
  await expect(panel.getByTestId('logs-start')).toBeVisible();
  return max;
}

test('Queries: the window shows the newest part; Load older pages back to the first query of the log', async () => {
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  const count = panel.getByTestId('logs-query-count');
  await expect(count).toHaveText(/^\d+ queries · \d+ health probes hidden$/);
  const first = Number(/^(\d+)/.exec(await count.innerText())![1]);
  expect(first).toBeLessThan(100);
  const pages = await loadAll(12);
  expect(pages).toBeGreaterThan(2);
  // 600 older user queries + the 13 of the captured dnsmasq run; the 600 probes are hidden.
  await expect(count).toHaveText('613 queries · 600 health probes hidden');
  // The oldest query is at the top of the list.
  const list = panel.getByTestId('logs-query-list');
  await list.evaluate((el) => (el.scrollTop = 0));
  await expect(panel.getByTestId('query-row').first().getByTestId('q-name')).toHaveText('q1.history.example');
});

test('Queries: the filter searches the whole log (not the loaded lines) and counts the matches', async () => {
  await page.reload();
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-older')).toBeVisible();
  await panel.getByTestId('logs-query-filter').fill('q7.history.example');
  await expect(panel.getByTestId('logs-search-count')).toHaveText(/^\d+ matching lines in the whole log \(dnsproxy\.log: [\d.]+ MiB searched in \d+ ms\)$/);
  const rows = panel.getByTestId('query-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('q-name')).toHaveText('q7.history.example');
  await expect(rows.first().getByTestId('q-answer')).toHaveText('192.0.2.10');
  await expect(panel.getByTestId('logs-query-count')).toHaveText('1 matching query shown');
  // While searching there is nothing "older": the search covered it all.
  await expect(panel.getByTestId('logs-older')).toHaveCount(0);
  await panel.getByTestId('logs-query-filter').fill('');
  await expect(panel.getByTestId('logs-search-count')).toHaveCount(0);
  await expect(panel.getByTestId('logs-older')).toBeVisible();
});

test('Raw: health probe lines hidden by default, shown on request; the filter searches the whole log too', async () => {
  const panel = page.getByTestId('panel-logs');
  await panel.getByTestId('logs-view-raw').click();
  const list = panel.getByTestId('logs-list');
  await expect(panel.getByTestId('logs-count')).toHaveText(/health probe lines hidden$/);
  // The newest lines are the captured dnsmasq run; one page older is the history traffic.
  await panel.getByTestId('logs-older').click();
  await list.evaluate((el) => (el.scrollTop = 0));
  await expect(list).toContainText('.history.example');
  expect(await list.innerText()).not.toContain('KUBERNETES.DEFAULT');
  await panel.getByTestId('logs-show-probes').check();
  await list.evaluate((el) => (el.scrollTop = 0));
  await expect(list).toContainText('KUBERNETES.DEFAULT.svc.cluster.local');
  await panel.getByTestId('logs-show-probes').uncheck();
  await panel.getByTestId('logs-filter').fill('q3.history.example');
  await expect(panel.getByTestId('logs-search-count')).toHaveText(/^\d+ matching lines in the whole log/);
  await expect(list.getByTestId('log-row').first()).toContainText('q3.history.example');
  const texts = await list.getByTestId('log-row').allInnerTexts();
  expect(texts.length).toBeGreaterThan(0);
  for (const t of texts) expect(t.toLowerCase()).toContain('q3.history.example');
});
