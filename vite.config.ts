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
    // One chunk, on purpose: index-*.js is 535 kB minified (165 kB gzip) — react-dom + react +
    // scheduler ~219 kB, zod + @tanstack/virtual-core + diff + zustand ~131 kB, the app's own code
    // ~185 kB (walk15, a vendor split built to look). The window loads it from disk (Electron) or
    // loopback (web mode), where the 500 kB warning's concern, download time, does not arise, and
    // react-dom, the stores and the Overview are needed at once anyway. That split (react,
    // vendor, app + a runtime chunk: four requests) painted no sooner — first-contentful-paint
    // median 376 / 340 ms split vs 332 / 328 ms one chunk, two runs of 30 interleaved fresh pages
    // each (order swapped), fake backend, load average 4.7–8.8 — so the warning's 500 kB limit
    // (sized for downloads over a network) is raised instead. The one other chunk is tldts's Public
    // Suffix List (~275 kB, 115 kB gzip), which is not needed at once: the Query tester loads it
    // when it explains a name that did not resolve (renderer/src/lib/internet-suffix.ts); in the
    // main chunk it would have made 812 kB.
    chunkSizeWarningLimit: 700,
  },
});
