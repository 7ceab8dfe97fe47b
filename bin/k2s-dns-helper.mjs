#!/usr/bin/env node
// The privileged helper from a checkout (see electron/helper/main.ts): runs the one-file bundle
// dist/k2s-dns-helper.mjs (`npm run build`). The app never elevates this path: a checkout is
// user-writable; only the root-owned copy at /usr/lib/k2s-dns is run through pkexec
// (electron/helper/launcher.ts). Root may run it directly.
import { existsSync } from 'node:fs';

process.setSourceMapsEnabled(true);
const bundle = new URL('../dist/k2s-dns-helper.mjs', import.meta.url);
if (process.env.K2S_DNS_FROM_SOURCE === '1') {
  (await import('tsx/esm/api')).register();
  await import('../electron/helper/entry.ts');
} else if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  process.stderr.write('The k2s-dns helper is not built: run `npm run build` in the repository.\n');
  process.exitCode = 1;
}
