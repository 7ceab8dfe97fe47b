/**
 * Bundle entry of the Electron main process (scripts/build.mjs → dist/app-entry.mjs, package.json
 * "main"): turns source maps on before the app's modules load, so stack traces name the .ts
 * lines (Electron takes no --enable-source-maps switch from `k2s-dns app`), then runs
 * electron/main/app-entry.ts.
 */
process.setSourceMapsEnabled(true);
await import('./app-entry');

export {};
