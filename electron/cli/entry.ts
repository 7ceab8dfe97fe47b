/**
 * Bundle entry of the `k2s-dns` CLI (scripts/build.mjs → dist/k2s-dns.mjs, run by
 * bin/k2s-dns.mjs and the packages' /usr/bin/k2s-dns): runs the command and sets the exit
 * status. `--help` is answered before anything else loads: the help text should cost no more
 * than starting Node. Every other command but the window's runs from the one CommonJS script
 * with its V8 code cache (electron/core/compile-cache/cli-script.ts), else from the ES module
 * chunks (run-cli.ts). Both are decided by run-entry.ts, required as the CommonJS file
 * dist/k2s-dns-run.cjs next to this one (its doc says why); with no such file (the sources run
 * through tsx) by the same code as ES modules (entry-modules.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The runner's file name next to the bundle's entry (scripts/build.mjs buildRunEntry). */
const RUN_ENTRY = 'k2s-dns-run.cjs';

const argv = process.argv.slice(2);
const runner = import.meta.url.startsWith('file:') ? fileURLToPath(new URL(RUN_ENTRY, import.meta.url)) : null;
const quick = runner !== null && existsSync(runner) ? await (createRequire(import.meta.url)(runner) as typeof import('./run-entry')).runQuickOrScript(argv) : null;
process.exitCode = quick ?? (await (await import('./entry-modules')).runFromModules(argv));
