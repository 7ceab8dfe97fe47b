/**
 * A tab opened without the token (the address copied from an open window, whose address bar no
 * longer shows #token=…): the backend answered 401, so the window says to open the printed URL,
 * never "the app backend does not answer"; pasting the printed #token= URL into that tab (only
 * the fragment changes) loads the app with it (second new-user walk, medium). Fake backend.
 */
import { expect, test } from '@playwright/test';
import { serveFake } from './serve-fake';

test('no token: the buttons say to open the printed URL; the #token= URL pasted into the same tab loads the app', async ({ browser }) => {
  const server = await serveFake({ running: true, logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    const bare = server.url.replace(/#.*$/, '');
    await page.goto(bare);
    const start = page.getByTestId('btn-start');
    await expect(start).toBeDisabled({ timeout: 15_000 });
    await expect(start).toHaveAttribute('title', /Missing or wrong token: open the URL/, { timeout: 15_000 });
    await expect(start).not.toHaveAttribute('title', /does not answer/);
    // The printed URL into the same tab: a fragment change, then the app runs with the token.
    await page.evaluate((u) => (location.href = u), server.url);
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-level', /ok|warn|error|neutral/, { timeout: 15_000 });
    await expect(page.getByTestId('btn-stop')).toBeEnabled({ timeout: 15_000 });
    expect(page.url()).not.toContain('token=');
  } finally {
    await page.close();
    await server.close();
  }
});
