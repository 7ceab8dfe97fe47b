/**
 * 900 px window (issue 20): table headers and badges keep their words whole (the CoreDNS pod
 * table showed "Restart s", then "Read y"), every Queries column is in view, and a name and its
 * search-domain expansion look different. Fake backend.
 */
import { expect, test, type Page } from '@playwright/test';
import { serveFake } from './serve-fake';
import type { QueryRow } from '../../shared/query-log/row';

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

test('walk M2, 900 px: the Name column shows typical names whole (kubernetes.default… and nothere-6…), every column still in view', async ({ browser }) => {
  const NAMES = ['kubernetes.default.svc.cluster.local', 'nothere-6.example.test', 'nothere-0.example.test'];
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, loggedNames: NAMES });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    await expect(page.getByTestId('query-row')).toHaveCount(NAMES.length);
    for (const name of NAMES) {
      const cell = page.getByTestId('query-row').getByTestId('q-name').and(page.locator(`[title="${name}"]`));
      // Nothing cut: the cell, the name box and each part of it show all they hold.
      const cut = await cell.evaluate((c) => [c, ...c.querySelectorAll('.dns-name, .dns-name > span')].filter((e) => e.scrollWidth > e.clientWidth).map((e) => `${e.className || 'cell'}: ${e.scrollWidth} > ${e.clientWidth}`));
      expect(cut, `${name} is cut at 900 px`).toEqual([]);
      expect((await cell.innerText()).replace(/\s+/g, '')).toBe(name);
    }
    const { heads, clientWidth, scrollWidth, listRight } = await queryColumns(page);
    for (const [text, , right] of heads) expect(right, `the ${text} header ends right of the list's viewport`).toBeLessThanOrEqual(listRight + 0.5);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  } finally {
    await page.close();
    await server.close();
  }
});

/**
 * Exact-log rows (queries.jsonl as the Queries view gets them) with the search list recorded with
 * each: the new-user walk's `kubernetes.default.svc.cluster.local` A and AAAA from one client port
 * under `search example.test` and then `search example.test lan`, other clients' search walks
 * (which put `kubernetes.default` and `kubernetes.default.svc` in the log), and one real expansion pair.
 */
const WALK_PORT = '53211';
const BASE = 'early-marker-ui3.example.test';
function walkRows(now: number): QueryRow[] {
  const t0 = now - 30_000;
  const r = (i: number, s: number, client: string, name: string, type: string, search: string[], rcode = 'NXDOMAIN'): QueryRow => ({
    key: `cap-walk-${i}`, engine: 'adguard', time: new Date(t0 + s * 1000).toISOString().replace('Z', ''), client, name, type,
    route: name.endsWith('.cluster.local') ? 'cluster' : 'upstream', zone: name.endsWith('.cluster.local') ? 'cluster.local' : null,
    upstream: name.endsWith('.cluster.local') ? '172.21.0.10:53' : '192.0.2.53:53', answers: rcode === 'NOERROR' ? [type === 'A' ? '172.21.0.1' : 'fd00::1'] : [], rcode,
    error: null, latencyMs: 0.4, protocol: 'udp', run: 0, probe: false, mixed: false, search,
  });
  const walk = `127.0.0.1:${WALK_PORT}`;
  return [
    r(1, 0, '127.0.0.1:40001', 'kubernetes.default', 'A', ['example.test']),
    r(2, 0, '127.0.0.1:40001', 'kubernetes.default.example.test', 'A', ['example.test']),
    r(3, 1, walk, 'kubernetes.default.svc.cluster.local', 'A', ['example.test'], 'NOERROR'),
    r(4, 1, walk, 'kubernetes.default.svc.cluster.local', 'AAAA', ['example.test'], 'NOERROR'),
    r(5, 5, '127.0.0.1:40002', 'kubernetes.default.svc', 'A', ['example.test', 'lan']),
    r(6, 6, walk, 'kubernetes.default.svc.cluster.local', 'A', ['example.test', 'lan'], 'NOERROR'),
    r(7, 6, walk, 'kubernetes.default.svc.cluster.local', 'AAAA', ['example.test', 'lan'], 'NOERROR'),
    r(8, 8, '127.0.0.1:41000', BASE, 'A', ['example.test'], 'NOERROR'),
    r(9, 8, '127.0.0.1:41000', `${BASE}.example.test`, 'A', ['example.test']),
  ];
}

test('900 px: a name and its search-domain expansion render differently (the expansion is marked +search)', async ({ browser }) => {
  // The third walk's pair: the base already ends in the search domain, so both ended in "example.test".
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, exactQueryRows: walkRows });
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    await expect(page.getByTestId('query-row')).toHaveCount(9);
    const cell = (name: string) => page.getByTestId('query-row').getByTestId('q-name').and(page.locator(`[title="${name}"]`));
    await expect(cell(BASE)).toHaveCount(1);
    await expect(cell(`${BASE}.example.test`)).toHaveCount(1);
    // What shows in each cell: the text of the parts inside the cell's box (a part wholly cut off shows nothing).
    const shown = (name: string) => cell(name).evaluate((c) => {
      const box = c.getBoundingClientRect();
      return [...c.querySelectorAll('.dns-name > span')].filter((s) => { const r = s.getBoundingClientRect(); return r.width > 0 && r.right <= box.right + 1; }).map((s) => `${s.className}:${s.textContent}`);
    });
    expect(await shown(BASE)).toEqual(['dns-name-head:early-marker-ui3.', 'dns-name-tail:example.test']);
    expect(await shown(`${BASE}.example.test`)).toEqual([`dns-name-head:${BASE}`, 'dns-name-search:+search']);
    // The expansion's base is cut (the cell is narrower than it): the mark is what tells the two apart.
    expect(await cell(`${BASE}.example.test`).locator('.dns-name-head').evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await expect(cell(`${BASE}.example.test`).locator('.dns-name')).toHaveAttribute('title', `${BASE}.example.test: ${BASE} with the search domain example.test appended (the resolver's search list, resolv.conf "search")`);
  } finally {
    await page.close();
    await server.close();
  }
});

test('a full cluster name is never marked +search: the walk\'s kubernetes.default.svc.cluster.local rows, under both search lists and any filter', async ({ browser }) => {
  // The walk saw `kubernetes.default +search`, then `kubernetes.default.svc +search`, then (filtered
  // on the client port) the name with no badge: cluster.local was never a search domain.
  const FULL = 'kubernetes.default.svc.cluster.local';
  const server = await serveFake({ logIntervalMs: 3_600_000, emptyLog: true, exactQueryRows: walkRows });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    await expect(page.getByTestId('query-row')).toHaveCount(9);
    const walk = page.getByTestId('query-row').filter({ has: page.getByTestId('q-client').filter({ hasText: `:${WALK_PORT}` }) });
    /** Each walk row's name as rendered: its visible text, whether it carries the mark. */
    const rendered = () => walk.getByTestId('q-name').evaluateAll((cells) => cells.map((c) => ({ text: (c as HTMLElement).innerText.replace(/\s+/g, ''), title: c.getAttribute('title'), search: c.querySelector('[data-testid="dns-name-search"]') !== null })));
    const expected = Array.from({ length: 4 }, () => ({ text: FULL, title: FULL, search: false }));
    await expect(walk).toHaveCount(4);
    expect(await rendered()).toEqual(expected);
    await expect(walk.getByTestId('q-type')).toHaveText(['A', 'AAAA', 'A', 'AAAA']);
    // Another client's real walk is marked, with the domain then searched.
    await expect(page.getByTestId('q-name').and(page.locator('[title="kubernetes.default.example.test"]')).getByTestId('dns-name-search')).toHaveCount(1);
    await expect(page.getByTestId('dns-name-search')).toHaveCount(2);
    // Filtered on the client port (the exact log's search): the same rows render the same way.
    await page.getByTestId('logs-query-filter').fill(WALK_PORT);
    await expect(page.getByTestId('query-row')).toHaveCount(4);
    expect(await rendered()).toEqual(expected);
    // Filtered on the expansion's client: its mark stays.
    await page.getByTestId('logs-query-filter').fill('41000');
    await expect(page.getByTestId('query-row')).toHaveCount(2);
    await expect(page.getByTestId('dns-name-search')).toHaveCount(1);
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
