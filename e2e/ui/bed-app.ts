/** Shared setup of the Playwright specs that run the REAL backend on the e2e test bed (inside e2e/bed/sandbox.sh). */
import type { Page } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { createRealBackend } from '../../electron/core/backend-real';
import { createNodeDeps } from '../../electron/core/lifecycle/node-deps';
import { startWebServer, type WebServer } from '../../electron/web/server';
import type { Testbed } from '../bed/testbed';
import { RENDERER_DIR } from './serve-fake';

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
