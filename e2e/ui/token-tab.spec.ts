/**
 * A tab opened without the token (the address copied from an open window, whose address bar no
 * longer shows #token=…): one screen says the address needs the token and how to get it — never
 * the app's header and tabs with empty panels (walk 6 L4), never "the app backend does not
 * answer" — and the tab asks the backend nothing. Pasting the printed #token= URL into that tab
 * (only the fragment changes) loads the app with it (second new-user walk, medium). A tab holding
 * a token of an earlier launch gets the same screen, saying so. Fake backend.
 */
import { expect, test } from '@playwright/test';
import { serveFake } from './serve-fake';

test('no token: one screen says the address needs the token and how to get it; the #token= URL pasted into the same tab loads the app', async ({ browser }) => {
  const server = await serveFake({ running: true, logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const apiCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url());
  });
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  try {
    const bare = server.url.replace(/#.*$/, '');
    const origin = bare.replace(/\/$/, '');
    await page.goto(bare);
    const screen = page.getByTestId('token-screen');
    await expect(screen).toHaveAttribute('data-trouble', 'missing');
    await expect(screen.getByRole('heading', { level: 2 })).toHaveText('This address needs the app’s token');
    await expect(screen.getByTestId('token-why')).toHaveText(`The app opens at ${origin}/#token=…, with a token that is new at every launch. Once a tab has read it, the app removes #token=… from the address bar, so the address shown there (${origin}/) does not open the app in another tab.`);
    await expect(screen.getByTestId('token-how')).toContainText('Open the URL k2s-dns ui printed (it ends in #token=…)');
    await expect(screen.getByTestId('token-how')).toContainText('reloading that tab keeps working');
    // No half-rendered app: no tabs, no panels, no Start button.
    await expect(page.getByRole('tab')).toHaveCount(0);
    await expect(page.getByTestId('btn-start')).toHaveCount(0);
    await expect(page.getByTestId('panel-hostdns')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('does not answer');
    // Nothing asked: every call would be a 401 (and a console error).
    expect(apiCalls).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The printed URL into the same tab: a fragment change, then the app runs with the token.
    await page.evaluate((u) => (location.href = u), server.url);
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-level', /ok|warn|error|neutral/, { timeout: 15_000 });
    await expect(page.getByTestId('btn-stop')).toBeEnabled({ timeout: 15_000 });
    await expect(page.getByTestId('token-screen')).toHaveCount(0);
    expect(page.url()).not.toContain('token=');
  } finally {
    await page.close();
    await server.close();
  }
});

test('a token of an earlier launch: the same one screen, saying the token is not the running app’s', async ({ browser }) => {
  const server = await serveFake({ running: true, logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  try {
    await page.goto(`${server.url.replace(/#.*$/, '')}#token=${'0'.repeat(64)}`);
    const screen = page.getByTestId('token-screen');
    await expect(screen).toHaveAttribute('data-trouble', 'refused', { timeout: 15_000 });
    await expect(screen.getByRole('heading', { level: 2 })).toHaveText('This tab’s token is not the running app’s');
    await expect(screen.getByTestId('token-how')).toContainText('Open the URL k2s-dns ui printed');
    await expect(page.getByRole('tab')).toHaveCount(0);
  } finally {
    await page.close();
    await server.close();
  }
});

test('a #token= that is no token of this run (#token=deadbeef): says the token given is not this run’s and how to get the current address, asks nothing', async ({ browser }) => {
  const server = await serveFake({ running: true, logIntervalMs: 3_600_000 });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const apiCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url());
  });
  try {
    await page.goto(`${server.url.replace(/#.*$/, '')}#token=deadbeef`);
    const screen = page.getByTestId('token-screen');
    await expect(screen).toHaveAttribute('data-trouble', 'wrong');
    await expect(screen.getByRole('heading', { level: 2 })).toHaveText('This address’s token is not the running app’s');
    await expect(screen.getByTestId('token-why')).toHaveText('The token this address gives (#token=deadbeef) is not this run’s: each launch of k2s-dns ui prints a new one (64 hex digits), so a token from an earlier launch, or one cut short when copied, does not open the app.');
    await expect(screen.getByTestId('token-how')).toContainText('Open the URL k2s-dns ui printed (it ends in #token=…)');
    await expect(page.getByRole('tab')).toHaveCount(0);
    expect(apiCalls).toEqual([]);
  } finally {
    await page.close();
    await server.close();
  }
});
