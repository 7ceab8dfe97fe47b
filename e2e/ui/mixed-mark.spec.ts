/**
 * The ≈ mark of a query row whose records interleaved with another's stays visible in the
 * Client column at 1280 px (new-user pass: it was clipped off, so the row read as certain).
 */
import { expect, test } from '@playwright/test';
import { serveFake } from './serve-fake';

test('1280 px: the ≈ mark is inside the Client cell, not clipped', async ({ browser }) => {
  const server = await serveFake({ logIntervalMs: 3_600_000, overlap: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    await page.goto(server.url);
    await page.getByTestId('tab-logs').click();
    const row = page.locator('[data-testid=query-row][data-mixed=true]');
    await expect(row).toHaveCount(1);
    const cell = row.getByTestId('q-client');
    const mark = row.getByTestId('q-mixed');
    await expect(mark).toBeVisible();
    const c = (await cell.boundingBox())!;
    const m = (await mark.boundingBox())!;
    expect(m.width).toBeGreaterThan(4);
    expect(m.x + m.width, 'the ≈ mark ends past its cell (clipped)').toBeLessThanOrEqual(c.x + c.width + 0.5);
  } finally {
    await page.close();
    await server.close();
  }
});
