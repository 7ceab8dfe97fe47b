/** Vite build of the renderer: root renderer/, output out/renderer (served by web mode and Electron). */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  // Relative asset URLs: the same build loads from file:// (Electron) and http://127.0.0.1 (web).
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    // No inline <script>/modulepreload polyfill snippets: the CSP allows 'self' scripts only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
