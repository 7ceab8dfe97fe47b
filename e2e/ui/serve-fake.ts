/**
 * Serves the built renderer (out/renderer) over the web bridge with the FAKE backend, for the
 * fake-backend spec and for UI work: `npx tsx e2e/ui/serve-fake.ts` prints the URL to open.
 * Never used by `npm start`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createFakeBackend, type FakeBackendOptions } from '../support/backend-fake';
import { startWebServer, type WebServer } from '../../electron/web/server';

/** The renderer build directory (vite.config.ts outDir). */
export const RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

/** Starts the web bridge on a free loopback port with a fake backend. Throws when the renderer is not built. */
export async function serveFake(opts: FakeBackendOptions = {}): Promise<WebServer> {
  if (!existsSync(`${RENDERER_DIR}/index.html`)) {
    throw new Error(`No renderer build in ${RENDERER_DIR}: run \`npx vite build\` first.`);
  }
  return startWebServer({ backend: createFakeBackend(opts), staticDir: RENDERER_DIR });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await serveFake({ stepDelayMs: 300 });
  console.log(`fake backend UI: ${server.url}`);
}
