/**
 * Walk5 L5: at 900×700 the Queries view cuts the Client, Upstream and Answer cells, whose full
 * text was only in a hover title. The arrow keys in the list pick a row and its full values show
 * below the list (aria-live), so a keyboard user reaches them.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakePagePerFile } from './fake-page';

let page: Page;
fakePagePerFile({ stepDelayMs: 20, logIntervalMs: 3_600_000, exactRows: 50 }, (p) => (page = p));

test('keyboard only at 900×700: Tab to the query list, arrow keys pick a row, its full values show below', async () => {
  await page.setViewportSize({ width: 900, height: 700 });
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-exact')).toHaveAttribute('data-available', 'true');
  const detail = panel.getByTestId('q-detail');
  await expect(detail).toHaveText('Arrow keys in the list (or a click) pick a row: its full values show here.');
  await panel.getByTestId('logs-query-list').focus();
  await page.keyboard.press('End');
  const last = panel.getByTestId('query-row').last();
  await expect(last).toHaveAttribute('aria-selected', 'true');
  const client = await last.getByTestId('q-client').getAttribute('title');
  const upstream = await last.getByTestId('q-upstream').getAttribute('title');
  const answer = await last.getByTestId('q-answer').getAttribute('title');
  await expect(detail).toContainText(`client ${client}`);
  await expect(detail).toContainText(`upstream ${upstream || '—'}`);
  await expect(detail).toContainText(`answer ${answer || '—'}`);
  await page.keyboard.press('ArrowUp');
  await expect(panel.locator('[data-testid=query-row][aria-selected=true]')).toHaveCount(1);
  await expect(last).not.toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(detail).toHaveText(/^Arrow keys in the list/);
});
