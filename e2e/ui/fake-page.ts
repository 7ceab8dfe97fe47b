/** Shared setup of the fake-backend specs that run serially on one page. */
import { test, type Page } from '@playwright/test';
import type { FakeBackendOptions } from '../support/backend-fake';
import type { WebServer } from '../../electron/web/server';
import { serveFake } from './serve-fake';

/**
 * Makes the calling spec file serial on one page: before all its tests, serves the fake backend
 * with `opts` and opens it (the page goes to `onPage`); after all, closes both. Call once at the
 * spec's top level.
 */
export function fakePagePerFile(opts: FakeBackendOptions, onPage: (page: Page) => void): void {
  let server: WebServer;
  let page: Page;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }) => {
    server = await serveFake(opts);
    page = await browser.newPage();
    await page.goto(server.url);
    onPage(page);
  });
  test.afterAll(async () => {
    await page?.close();
    await server?.close();
  });
}
