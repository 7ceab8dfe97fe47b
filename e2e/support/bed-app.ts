/** Shared setup of the Playwright specs that run the REAL backend on the e2e test bed (inside e2e/bed/sandbox.sh). */
import { expect, test, type Page } from '@playwright/test';
import { k2sDns } from '../cli';
import type { AppBackend } from '../../electron/core/backend';
import { createRealBackend } from '../../electron/core/backend-real';
import { createNodeDeps } from '../../electron/core/lifecycle/node-deps';
import { startWebServer, type WebServer } from '../../electron/web/server';
import type { Testbed, TestbedOptions } from '../bed/testbed';
import { RENDERER_DIR } from '../ui/serve-fake';

/** The real backend on the bed's kubeconfig (verify asks the bed's external name) and the web bridge serving the built renderer. */
export async function serveOnBed(tb: Testbed): Promise<{ backend: AppBackend; server: WebServer }> {
  const backend = createRealBackend({ deps: await createNodeDeps(), warmUp: true, kubeconfig: tb.kubeconfigPath, verifyName: 'www.example.test' });
  const server = await startWebServer({ backend, staticDir: RENDERER_DIR });
  return { backend, server };
}

/**
 * Undoes serveOnBed and the bed, whatever part exists: stops K2s DNS first (a failed test may
 * have left it running; the original resolver goes back), then the page, the bridge, the bed.
 */
export async function closeOnBed(parts: { backend?: AppBackend; page?: Page; server?: WebServer; tb?: Testbed }): Promise<void> {
  if (parts.backend) await parts.backend.dnsStop({ onDrift: 'restore' });
  await parts.page?.close();
  await parts.server?.close();
  await parts.tb?.stop();
}

/** The parts of a real-backend spec on the bed; set by useBedApp's beforeAll (read them inside tests only). */
export interface BedApp {
  tb: Testbed;
  backend: AppBackend;
  server: WebServer;
  page: Page;
}

/**
 * The setup every real-backend Playwright spec on the bed repeats, once: serial mode, the
 * "skipped: needs the e2e sandbox" skip outside e2e/bed/sandbox.sh, a beforeAll that starts the
 * bed, the real backend with its web bridge and one page (opened at the app with `goto`), and
 * an afterAll that undoes it all (closeOnBed). `bed`: the bed's options (startTestbed). Call at a spec's top level; the returned parts
 * are filled once beforeAll ran.
 */
export function useBedApp(opts: { goto?: boolean; bed?: TestbedOptions } = {}): BedApp {
  const app = {} as BedApp;
  test.describe.configure({ mode: 'serial' });
  test.skip(process.env.K2S_DNS_SANDBOX !== '1', 'skipped: needs the e2e sandbox (root); run npm test as root');
  test.beforeAll(async ({ browser }) => {
    const { startTestbed } = await import('../bed/testbed');
    app.tb = await startTestbed(opts.bed);
    Object.assign(app, await serveOnBed(app.tb));
    app.page = await browser.newPage();
    if (opts.goto) await app.page.goto(app.server.url);
  });
  test.afterAll(async () => {
    await closeOnBed(app);
  });
  return app;
}

/**
 * From a stopped K2s DNS (the window's Overview says so), starts it from the CLI with the bed's
 * built `engine` (the window's Start finds only an installed dnsproxy) and waits until the open
 * window's card says running. Skips the test, saying why, when that engine is not built.
 */
export async function cliStartOnBed(app: BedApp, engine: 'adguard' | 'dnsmasq'): Promise<void> {
  const card = app.page.getByTestId('panel-hostdns');
  await app.page.getByTestId('tab-overview').click();
  await expect(card.getByTestId('dns-state')).toHaveText('stopped', { timeout: 15_000 });
  const { engineArgs, engineMissing } = await import('../bed/engines');
  const missing = engine === 'adguard' ? await engineMissing('dnsproxy') : null;
  test.skip(missing !== null, `skipped: ${missing}`);
  const r = await k2sDns(['start', '--kubeconfig', app.tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  await expect(card.getByTestId('dns-state')).toHaveText('running', { timeout: 15_000 });
}
