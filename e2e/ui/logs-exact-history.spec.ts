/**
 * Issue #20 item 1, the whole exact log, with the REAL backend on the bed (e2e/bed/sandbox.sh:
 * /var/log is the sandbox's own): an exact query log of 21,000 rows (10,500 in queries.jsonl.1,
 * 10,500 in queries.jsonl, as rotation leaves them) opens at the newest 2,000; "Load older rows"
 * (logs:exact before, up to 10,000 rows a page: issue 20's 19,000 rows took 9 pages of 2,000),
 * or scrolling to the top, pages back to its first row, which opens the list under "Start of the exact
 * query log"; the live poll's refresh keeps the paged rows. At 900 px every cut cell of the
 * Queries table (Name, Client, Upstream, Answer) has its full value as its title (walk M3).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { useBedApp } from '../support/bed-app';

const app = useBedApp();
test.setTimeout(120_000);

const COUNT = 21_000;
/** One row a second, ending a minute ago. */
const T0 = (Date.now() - 60_000 - COUNT * 1000) * 1000;
const LONG = 'a-very-long-service-name-that-a-900-px-window-cuts.team-namespace.svc.cluster.local';
const ANSWERS = ['10.96.123.201', '10.96.123.202', '10.96.123.203', '10.96.123.204'];
/** The companion's row n (1 = oldest); the newest has a long name and four answers. */
function row(n: number): string {
  const last = n === COUNT;
  return JSON.stringify({ proto: 'udp', client: `127.0.0.1:${40000 + n}`, listener: '127.0.0.1:53', id: n % 65536, name: last ? LONG : `r${n}.history.example`, type: 'A', queryUs: T0 + n * 1_000_000, rcode: 'NOERROR', answers: last ? ANSWERS : ['198.51.100.8'], latencyMs: 0.4, upstream: last ? '[fd00:dead:beef:1234::53]:53' : '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 });
}

test.beforeAll(async () => {
  const file = K2S_PATHS.queryRows;
  await mkdir(path.dirname(file), { recursive: true });
  const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${row(from + i)}\n`).join('');
  await writeFile(`${file}.1`, lines(1, COUNT / 2));
  await writeFile(file, lines(COUNT / 2 + 1, COUNT));
});

test('Queries: the newest 2,000 exact rows, then Load older rows pages back in 2 pages to the first row of queries.jsonl.1', async () => {
  const page = app.page;
  await page.goto(app.server.url);
  await page.getByTestId('tab-logs').click();
  const panel = page.getByTestId('panel-logs');
  await expect(panel.getByTestId('logs-exact')).toHaveAttribute('data-available', 'true');
  const count = panel.getByTestId('logs-query-count');
  await expect(count).toHaveText('2000 queries');
  await expect(panel.getByTestId('logs-start')).toHaveCount(0);
  const older = panel.getByTestId('logs-older-rows');
  // The same place and look as "Load older lines": above the list, a secondary button.
  await expect(older).toHaveText('Load older rows');
  await expect(older).toHaveClass(/secondary/);
  await older.click();
  // 9,999 new rows: the page's newest is the oldest row held (the cursor is inclusive).
  await expect(count).toHaveText('11999 queries');
  await expect(panel.getByTestId('logs-start')).toHaveCount(0);
  // The live poll (every 2 s) refreshes the newest rows: the paged ones stay.
  await page.waitForTimeout(4500);
  await expect(count).toHaveText('11999 queries');
  // Scrolling to the top loads the next page as the button does.
  const list = panel.getByTestId('logs-query-list');
  await list.evaluate((el) => (el.scrollTop = 0));
  await expect(count).toHaveText('21000 queries');
  await expect(older).toHaveCount(0);
  await expect(panel.getByTestId('logs-start')).toHaveText('Start of the exact query log: the first line of queries.jsonl.1, the rotated copy before queries.jsonl.');
  await list.evaluate((el) => (el.scrollTop = 0));
  await expect(panel.getByTestId('query-row').first().getByTestId('q-name')).toHaveText('r1.history.example');
  await expect(panel.getByTestId('query-row').first().getByTestId('q-client')).toHaveText('127.0.0.1:40001');
});

test('900 px: the cut Name, Client, Upstream and Answer cells hold their full values as titles', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  try {
    await page.goto(app.server.url);
    await page.getByTestId('tab-logs').click();
    const panel = page.getByTestId('panel-logs');
    await expect(panel.getByTestId('logs-query-count')).toHaveText('2000 queries');
    const newest = panel.getByTestId('query-row').filter({ has: page.getByTestId('q-name').getByText(LONG) });
    await expect(newest).toHaveCount(1);
    await newest.scrollIntoViewIfNeeded();
    // The tooltip a pointer over the cell's visible text gets: the nearest title from the element under it.
    const tipAt = (testId: string) => newest.getByTestId(testId).evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + 6, r.top + r.height / 2);
      let e: Element | null = hit;
      while (e && !e.getAttribute('title')) e = e.parentElement;
      return e?.getAttribute('title') ?? `no title over ${hit?.outerHTML.slice(0, 200) ?? 'nothing'} at ${r.left},${r.top} in ${innerWidth}x${innerHeight}`;
    });
    const cut = (testId: string) => newest.getByTestId(testId).evaluate((el) => [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth));
    // Cut at 900 px (the text does not fit its cell); the tooltip holds all of it.
    for (const id of ['q-name', 'q-upstream', 'q-answer']) expect(await cut(id), id).toBe(true);
    expect(await tipAt('q-name')).toBe(LONG);
    expect(await tipAt('q-client')).toBe(`127.0.0.1:${40000 + COUNT} over UDP`);
    expect(await tipAt('q-upstream')).toBe('[fd00:dead:beef:1234::53]:53');
    expect(await tipAt('q-answer')).toBe(ANSWERS.join(', '));
    // Copying is unchanged: the cell's text is the value itself, not the title.
    await expect(newest.getByTestId('q-name')).toHaveText(LONG);
  } finally {
    await page.close();
  }
});
