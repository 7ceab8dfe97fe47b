/**
 * The Electron entry (package.json "main"; `npm start` → `k2s-dns app` → the Electron binary on
 * this repo): builds the real backend and opens the window. The renderer is out/renderer
 * (`npx vite build`), the preload the single CommonJS bundle out/preload/preload.cjs, built on
 * first launch when missing. Flags after the repo path: `--kubeconfig PATH`, `--verify-name NAME`.
 */
import { existsSync } from 'node:fs';
import { app, dialog } from 'electron';
import { appPath } from '../core/app-root';
import { createRealBackend } from '../core/backend-real';
import { useCliInvocation } from '../core/cli-invocation';
import { createNodeDeps } from '../core/lifecycle/node-deps';
import { startDesktop } from './main';
import { ensurePreload } from './preload-build';

/** The built renderer page (vite.config.ts outDir). */
const INDEX_HTML = appPath('out/renderer/index.html');

/** Value of `--name VALUE` in Electron's argv, if given. */
function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// Fix texts name the CLI as this install runs it (the desktop package's, or npx in a checkout).
useCliInvocation();

try {
  if (!existsSync(INDEX_HTML)) throw new Error('The UI is not built (out/renderer/index.html is missing); run `npx vite build` in the repository, then start again.');
  const preload = await ensurePreload();
  const kubeconfig = flag('--kubeconfig');
  const verifyName = flag('--verify-name');
  const backend = createRealBackend({ deps: await createNodeDeps(), warmUp: true, ...(kubeconfig ? { kubeconfig } : {}), ...(verifyName ? { verifyName } : {}) });
  await startDesktop(backend, { indexHtml: INDEX_HTML, preload });
} catch (err) {
  await app.whenReady();
  dialog.showErrorBox('K2s DNS could not start', (err as Error).message);
  app.exit(1);
}
