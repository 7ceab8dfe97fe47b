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
