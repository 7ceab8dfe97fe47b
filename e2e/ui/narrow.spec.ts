/**
 * 900 px window (issue 20): table headers and badges keep their words whole (the CoreDNS pod
 * table showed "Restart s", then "Read y"), every Queries column is in view, and a name and its
 * search-domain expansion look different. Fake backend.
 */
import { expect, test, type Page } from '@playwright/test';
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

test('900 px: the Ready badges of the node and pod tables are one line each (the walk saw "Read y")', async ({ browser }) => {
  const server = await serveFake({ logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    await expect(page.getByTestId('cluster-coredns').locator('tbody tr')).toHaveCount(2);
    const badges = page.locator('[data-testid="cluster-nodes"] .badge, [data-testid="cluster-coredns"] .badge');
    await expect(badges).toHaveCount(3);
    const lines = await badges.evaluateAll((els) => els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return `${el.textContent}:${new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size}`;
    }));
    expect(lines).toEqual(['Ready:1', 'Ready:1', 'Ready:1']);
  } finally {
    await page.close();
    await server.close();
  }
});

/** Each Queries header cell's [text, left, right] and the list's visible right edge (its client box), px. */
async function queryColumns(page: Page): Promise<{ heads: [string, number, number][]; listRight: number; clientWidth: number; scrollWidth: number }> {
  const heads = await page.getByTestId('logs-query-head').locator('span').evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return [e.textContent ?? '', r.left, r.right] as [string, number, number];
  }));
  const list = await page.getByTestId('logs-query-list').evaluate((el) => ({ right: el.getBoundingClientRect().left + el.clientLeft + el.clientWidth, clientWidth: el.clientWidth, scrollWidth: el.scrollWidth }));
  return { heads, listRight: list.right, clientWidth: list.clientWidth, scrollWidth: list.scrollWidth };
}

test('900 px: every Queries column is in view without a sideways scroll; 1280 px keeps Name and Answer at least as wide as before', async ({ browser }) => {
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, loggedNames: ['www.example.test', 'missing.example.test'] });
  try {
    for (const width of [900, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(server.url);
      await page.getByTestId('tab-logs').click();
      await expect(page.getByTestId('query-row')).toHaveCount(2);
      const { heads, listRight, clientWidth, scrollWidth } = await queryColumns(page);
      expect(heads.map((h) => h[0])).toEqual(['Time', 'Client', 'Name', 'Type', 'Route', 'Upstream', 'Answer', 'Response', 'Latency']);
      for (const [text, , right] of heads) expect(right, `${width} px: the ${text} header ends right of the list's viewport (${listRight} px)`).toBeLessThanOrEqual(listRight + 0.5);
      expect(scrollWidth, `${width} px: the rows need a sideways scroll`).toBeLessThanOrEqual(clientWidth);
      const w = (name: string) => { const h = heads.find((x) => x[0] === name)!; return h[2] - h[1]; };
      // 1280 px before: Name 182 px, Answer 137 px (fixed-width Route 230 px took the rest).
      if (width === 1280) {
        expect(w('Name')).toBeGreaterThanOrEqual(182);
        expect(w('Answer')).toBeGreaterThanOrEqual(137);
      }
      // The Route cell may be cut: its whole text is its title.
      await expect(page.getByTestId('q-route').first()).toHaveAttribute('title', 'upstream');
      await page.close();
    }
  } finally {
    await server.close();
  }
});

test('900 px: a name and its search-domain expansion render differently (the expansion is marked +search)', async ({ browser }) => {
  // The third walk's pair: the base already ends in the search domain, so both ended in "example.test".
  const BASE = 'early-marker-ui3.example.test';
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, loggedNames: [BASE, `${BASE}.example.test`] });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    const names = page.getByTestId('query-row').getByTestId('q-name');
    await expect(names).toHaveCount(2);
    await expect(names.nth(0)).toHaveAttribute('title', BASE);
    await expect(names.nth(1)).toHaveAttribute('title', `${BASE}.example.test`);
    // What shows in each cell: the text of the parts inside the cell's box (a part wholly cut off shows nothing).
    const shown = (i: number) => names.nth(i).evaluate((cell) => {
      const box = cell.getBoundingClientRect();
      return [...cell.querySelectorAll('.dns-name > span')].filter((s) => { const r = s.getBoundingClientRect(); return r.width > 0 && r.right <= box.right + 1; }).map((s) => `${s.className}:${s.textContent}`);
    });
    const [first, second] = [await shown(0), await shown(1)];
    expect(first).toEqual(['dns-name-head:early-marker-ui3.', 'dns-name-tail:example.test']);
    expect(second).toEqual([`dns-name-head:${BASE}`, 'dns-name-search:+search']);
    // The expansion's base is cut (the cell is narrower than it): the mark is what tells the two apart.
    expect(await names.nth(1).locator('.dns-name-head').evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await expect(names.nth(1).locator('.dns-name')).toHaveAttribute('title', `${BASE}.example.test: ${BASE} with the search domain example.test appended (the resolver's search list, resolv.conf "search")`);
  } finally {
    await page.close();
    await server.close();
  }
});

test('760 px (below the columns\' minimum): the Queries header scrolls sideways with the rows, and a row spans every column', async ({ browser }) => {
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, loggedNames: ['www.example.test', 'missing.example.test'] });
  const page = await browser.newPage({ viewport: { width: 760, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    const list = page.getByTestId('logs-query-list');
    await expect(page.getByTestId('query-row')).toHaveCount(2);
    const widths = await list.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(widths.scroll, 'the columns need more than 760 px: the rows scroll sideways').toBeGreaterThan(widths.client);
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
