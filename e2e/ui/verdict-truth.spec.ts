/**
 * The verdict line never keeps a green it can no longer vouch for (new-user pass, this session):
 * while an operation runs it says so, and once the backend stops answering it says that instead
 * of the last "resolves" — with every lifecycle button off, here and in the verdict. Fake backend.
 */
import { expect, test } from '@playwright/test';
import { serveFake } from './serve-fake';

test('operation in progress, then backend gone: the verdict says so, buttons off with why', async ({ page }) => {
  // Slow steps so the operation is visible; the fake starts running (verdict green).
  const server = await serveFake({ running: true, stepDelayMs: 400, logIntervalMs: 3_600_000 });
  try {
    await page.goto(server.url);
    const verdict = page.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-level', 'ok', { timeout: 15_000 });
    await expect(page.getByTestId('verdict-text')).toContainText('resolves via');

    // Stop from the card: while it runs the verdict is about the operation, not the old green.
    const panel = page.getByTestId('panel-hostdns');
    await panel.getByTestId('btn-stop').click();
    await expect(verdict).toHaveAttribute('data-cause', 'operation');
    await expect(page.getByTestId('verdict-text')).toHaveText(/^K2s DNS is stopping.*; the verdict follows when it finishes\.$/);
    await expect(panel.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
    await expect(verdict).not.toHaveAttribute('data-cause', 'operation');

    // The backend goes away (Ctrl-C on the app): within a few polls the window says so.
    await server.close();
    await expect(verdict).toHaveAttribute('data-cause', 'backend-lost', { timeout: 15_000 });
    // The card's state is not the last one read (issue 20 low: it kept saying "starting").
    await expect(panel.getByTestId('dns-state')).toHaveText('disconnected');
    await expect(panel.getByTestId('dns-last-known')).toHaveText('the app backend does not answer; last known: stopped');
    await expect(page.getByTestId('verdict-text')).toHaveText(/^Cannot tell whether cluster names resolve: The app backend does not answer \(.+\): it was stopped or restarted\. Start it again \(npm start, npm run sandbox or k2s-dns ui\) and open the new address it prints; each start has a new token\.$/);
    for (const id of ['btn-start', 'btn-uninstall']) {
      await expect(panel.getByTestId(id)).toBeDisabled();
      await expect(panel.getByTestId(id)).toHaveAttribute('title', 'The app backend does not answer: what this window shows may be out of date.');
    }
    await expect(page.getByTestId('verdict-action')).toHaveCount(0);
  } finally {
    await server.close().catch(() => undefined);
  }
});
