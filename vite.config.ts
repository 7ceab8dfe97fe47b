/** Vite build of the renderer: root renderer/, output out/renderer (served by web mode and Electron). */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { BUNDLED_PACKAGES_FILE, packageDirs } from './scripts/bundled-packages.mjs';

/** Writes which npm packages the renderer bundle holds (scripts/bundled-packages.mjs), for the package's copyright file. */
function bundledPackages(): Plugin {
  return {
    name: 'k2s-bundled-packages',
    apply: 'build',
    generateBundle(_options, bundle) {
      const ids = Object.values(bundle).flatMap((o) => (o.type === 'chunk' ? Object.keys(o.modules) : []));
      this.emitFile({ type: 'asset', fileName: BUNDLED_PACKAGES_FILE, source: `${JSON.stringify(packageDirs(ids), null, 1)}\n` });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  // Relative asset URLs: the same build loads from file:// (Electron) and http://127.0.0.1 (web).
  base: './',
  plugins: [react(), bundledPackages()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    // No inline <script>/modulepreload polyfill snippets: the CSP allows 'self' scripts only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
