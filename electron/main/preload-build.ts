/**
 * Bundles electron/main/preload.ts into ONE CommonJS file, out/preload/preload.cjs: a sandboxed
 * preload cannot require local files (Electron docs, "Process Sandboxing"), so shared/api and
 * zod must be inlined; only `electron` stays external. Uses vite's build API (library mode).
 * CLI: `node --import tsx electron/main/preload-build.ts` (prints the output path).
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { appPath } from '../core/app-root';

/** Absolute path of the bundled preload that electron/main/app-entry.ts hands to BrowserWindow. */
export const PRELOAD_BUNDLE = appPath('out/preload/preload.cjs');

/** Builds PRELOAD_BUNDLE; resolves to its path. Throws vite's error when the build fails. */
export async function buildPreload(): Promise<string> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: appPath('out/preload'),
      emptyOutDir: true,
      minify: false,
      sourcemap: false,
      lib: { entry: appPath('electron/main/preload.ts'), formats: ['cjs'], fileName: () => 'preload.cjs' },
      rollupOptions: { external: ['electron'] },
    },
  });
  return PRELOAD_BUNDLE;
}

/** PRELOAD_BUNDLE, built first when it does not exist yet (first launch from a checkout). */
export async function ensurePreload(): Promise<string> {
  return existsSync(PRELOAD_BUNDLE) ? PRELOAD_BUNDLE : buildPreload();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await buildPreload()}\n`);
}
