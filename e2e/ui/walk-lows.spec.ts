/**
 * Lows of the third walk (issue 20), fake backend: the "Start of the log" line opens the list
 * where the oldest row is and names only files that exist; the unified resolver diff ends with
 * its last line, not an empty row.
 */
import { expect, test } from '@playwright/test';
import { serveFake } from './serve-fake';

test('"Start of the log" is the first thing in the list, above the oldest row, and names no .1 the fake never rotated', async ({ browser }) => {
  // The fake's log is one file that never rotates (backend-fake.ts logsPage).
  const server = await serveFake({ logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    for (const [view, listId, rowId] of [['queries', 'logs-query-list', 'query-row'], ['raw', 'logs-list', 'log-run']] as const) {
      await page.getByTestId(`logs-view-${view}`).click();
      const list = page.getByTestId(listId);
      await expect(list.getByTestId('query-row').or(list.getByTestId('log-row')).first()).toBeVisible();
      await list.evaluate((el) => (el.scrollTop = 0));
      // Raw: the oldest row is the first run's separator.
      await expect(list.getByTestId(rowId).first()).toBeVisible();
      // Inside the scroll box (it scrolls away with the rows), not above it.
      const start = list.getByTestId('logs-start');
      await expect(start).toHaveText('Start of the log: the first line of dnsproxy.log (no rotated copy yet).');
      await expect(page.getByTestId('logs-start')).toHaveCount(1);
      const [s, first] = [await start.boundingBox(), await list.getByTestId(rowId).first().boundingBox()];
      expect(s!.y + s!.height, `${view}: the start line ends below the oldest row's top`).toBeLessThanOrEqual(first!.y + 1);
      expect(first!.y - (s!.y + s!.height), `${view}: a gap between the start line and the oldest row`).toBeLessThanOrEqual(1);
    }
  } finally {
    await page.close();
    await server.close();
  }
});

test('the unified resolver diff ends with its last changed line, not an empty row', async ({ browser }) => {
  const server = await serveFake({ running: true, logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-diff').click();
    await page.getByTestId('diff-view-unified').click();
    const rows = page.getByTestId('diff-unified').locator(':scope > div');
    await expect(rows.first()).toHaveText('--- saved /etc/resolv.conf');
    expect(await rows.last().textContent()).toBe('-nameserver 192.168.178.1');
  } finally {
    await page.close();
    await server.close();
  }
});
