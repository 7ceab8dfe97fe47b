#!/usr/bin/env node
// Entry of the `k2s-dns` CLI: runs the esbuild bundle dist/k2s-dns.mjs (`npm run build`;
// scripts/build.mjs).
// K2S_DNS_FROM_SOURCE=1 runs the TypeScript sources through tsx instead (development only).
import { existsSync } from 'node:fs';

// Source maps only for K2S_DNS_DEBUG=1 (the stack of an unexpected error then names the .ts
// lines): with them on, Node reads and parses the map of every chunk it loads and measures
// each line of the chunk (lib/internal/source_map/source_map_cache.js), ~30 ms of CPU per command.
if (process.env.K2S_DNS_DEBUG === '1') process.setSourceMapsEnabled(true);
const bundle = new URL('../dist/k2s-dns.mjs', import.meta.url);
if (process.env.K2S_DNS_FROM_SOURCE === '1') {
  (await import('tsx/esm/api')).register();
  await import('../electron/cli/entry.ts');
} else if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  process.stderr.write('k2s-dns is not built: run `npm run build` in the repository (or K2S_DNS_FROM_SOURCE=1 to run the sources through tsx).\n');
  process.exitCode = 1;
}
