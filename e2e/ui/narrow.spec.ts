/**
 * 900 px window (issue 20, low): table headers keep their words whole — the CoreDNS pod table
 * showed "Restart s" — while long values may still wrap. Fake backend.
 */
import { expect, test } from '@playwright/test';
import { serveFake } from './serve-fake';

test('900 px: the Cluster card\'s table headers are one line each', async ({ browser }) => {
  const server = await serveFake({ logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    const table = page.getByTestId('cluster-coredns');
    await expect(table.locator('tbody tr')).toHaveCount(2);
    for (const name of ['Pod', 'Ready', 'Restarts', 'Node']) {
      const th = table.locator('th', { hasText: name });
      // Lines the header's text occupies (one client rect per line box of the text).
      const lines = await th.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(lines, `${name} header wraps`).toBe(1);
    }
  } finally {
    await page.close();
    await server.close();
  }
});

test('900 px: a name and its search-domain expansion stay distinguishable in the Queries view (the middle gives way)', async ({ browser }) => {
  const NAME = 'kubernetes.default.svc.cluster.local';
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, loggedNames: [NAME, `${NAME}.example.test`] });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    const names = page.getByTestId('query-row').getByTestId('q-name');
    await expect(names).toHaveCount(2);
    const seen: string[] = [];
    for (const i of [0, 1]) {
      const cell = names.nth(i);
      const full = (await cell.getAttribute('title')) ?? '';
      // The end of the name (its last two labels) is inside the cell, not cut off.
      const tail = cell.locator('.dns-name-tail');
      const [c, t] = [await cell.boundingBox(), await tail.boundingBox()];
      expect(t!.x + t!.width, `${full}: its end is clipped`).toBeLessThanOrEqual(c!.x + c!.width + 1);
      seen.push(`${await tail.innerText()}`);
    }
    // The expansion is truncated here (wider than its cell), and what shows differs.
    expect(await names.nth(1).locator('.dns-name').evaluate((e) => e.scrollWidth > e.clientWidth || (e.firstElementChild as HTMLElement).scrollWidth > (e.firstElementChild as HTMLElement).clientWidth)).toBe(true);
    expect(seen).toEqual(['cluster.local', 'example.test']);
  } finally {
    await page.close();
    await server.close();
  }
});

test('900 px: the Queries header scrolls sideways with the rows, and a row spans every column', async ({ browser }) => {
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, loggedNames: ['www.example.test', 'missing.example.test'] });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    const list = page.getByTestId('logs-query-list');
    await expect(page.getByTestId('query-row')).toHaveCount(2);
    const widths = await list.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(widths.scroll, 'the columns need more than 900 px: the rows scroll sideways').toBeGreaterThan(widths.client);
    await list.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    const left = await list.evaluate((el) => el.scrollLeft);
    expect(left).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('logs-query-head').evaluate((el) => el.scrollLeft)).toBe(left);
    // The Latency header sits over the latency cells after the scroll.
    const headX = await page.getByTestId('logs-query-head').locator('span').last().evaluate((el) => Math.round(el.getBoundingClientRect().left));
    const cellX = await page.getByTestId('q-latency').first().evaluate((el) => Math.round(el.getBoundingClientRect().left));
    expect(Math.abs(headX - cellX)).toBeLessThanOrEqual(1);
    const row = await page.getByTestId('query-row').first().evaluate((el) => el.getBoundingClientRect().width);
    expect(row).toBeGreaterThanOrEqual(widths.scroll - 2);
  } finally {
    await page.close();
    await server.close();
  }
});
