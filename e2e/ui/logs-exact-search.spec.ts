/**
 * Issue #20, the exact query log: with 2,500 packet rows (more than the 2,000 the window holds),
 * the Queries view's filter searches both files of the exact log (queries.jsonl.1, queries.jsonl)
 * and finds a row older than the window, with a count of 1 (the list offers Load older rows); the Raw view still searches
 * dnsproxy.log; the list never says "Start of the log" naming dnsproxy.log above exact rows.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, exactRows: 2500 }, (p) => (page = p));

test('Queries: filtering for an exact row older than the window finds it in the exact log', async () => {
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-exact')).toHaveAttribute('data-available', 'true');
  await expect(panel.getByTestId('logs-query-count')).toHaveText('2000 queries');
  // The oldest 500 rows are not held: no "Start of the log", and no dnsproxy.log wording.
  await expect(panel.getByTestId('logs-start')).toHaveCount(0);
  await expect(panel.getByTestId('logs-older-rows')).toHaveText('Load older rows');
  await panel.getByTestId('logs-query-filter').fill('e3-x.exact.example');
  await expect(panel.getByTestId('logs-search-count')).toHaveText(/^1 matching query in the exact query log \(queries\.jsonl\.1, queries\.jsonl: 0\.7 MiB searched in \d+ ms\)$/);
  await expect(panel.getByTestId('logs-query-count')).toHaveText('1 matching query shown');
  await expect(panel.getByTestId('query-row')).toHaveCount(1);
  await expect(panel.getByTestId('query-row').getByTestId('q-name')).toHaveText('e3-x.exact.example');
  await expect(panel.getByTestId('query-row').getByTestId('q-client')).toHaveText('127.0.0.1:40002');
});

test('Raw: the same filter searches dnsproxy.log', async () => {
  const panel = page.getByTestId('panel-logs');
  await panel.getByTestId('logs-view-raw').click();
  await panel.getByTestId('logs-filter').fill('e3-x.exact.example');
  await expect(panel.getByTestId('logs-search-count')).toHaveText(/^0 matching lines in the whole log \(dnsproxy\.log: /);
});
