/**
 * UI figures for `npm run bench`: web mode in Debian's Chromium (the browser the
 * Playwright tests use; no Electron binary can be downloaded here). Interactive = the Overview
 * verdict has judged (data-cause set) and the tabs answer a click; measured from navigation
 * start in a fresh page of a running browser, and the browser's own launch separately.
 */
import { chromium, type Browser } from '@playwright/test';
import { figure, type Figure } from './stats';
import { JUDGED } from './idle';

/** Chromium flags of playwright.config.ts (headless, no sandbox: root inside the bed). */
const CHROMIUM = { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] };

/** Launches Chromium `rounds` times (ms to a usable browser) and returns the last one, open. */
export async function launchBrowser(rounds: number): Promise<{ browser: Browser; launch: Figure }> {
  const ms: number[] = [];
  let browser: Browser | null = null;
  for (let i = 0; i < rounds; i++) {
    await browser?.close();
    const t0 = performance.now();
    browser = await chromium.launch(CHROMIUM);
    ms.push(performance.now() - t0);
  }
  return { browser: browser!, launch: figure(ms) };
}

/**
 * Opens `url` in a fresh page `rounds` times: ms from navigation start until the verdict has a
 * cause and a click on the Logs tab selects it (the app answers input); each page's remaining
 * start-up loads settle before the next opens. Throws when it never does.
 */
export async function interactiveFigures(browser: Browser, url: string, rounds: number): Promise<Figure> {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    try {
      const t0 = performance.now();
      await page.goto(url);
      // Judged: a cause other than "checking" (the verdict's placeholder while the first check runs).
      await page.locator(JUDGED).waitFor({ timeout: 30_000 });
      await page.getByTestId('tab-logs').click();
      await page.locator('[data-testid=tab-logs][aria-selected=true]').waitFor({ timeout: 30_000 });
      ms.push(performance.now() - t0);
      // The page's other start-up loads (cluster, zones, doctor…) finish before the next round
      // opens a page: each round is a window opening on a backend with nothing left to do.
      await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    } finally {
      await page.close();
    }
  }
  return figure(ms);
}
