/**
 * Bundle entry of the `k2s-dns` CLI (scripts/build.mjs → dist/k2s-dns.mjs, run by
 * bin/k2s-dns.mjs and the packages' /usr/bin/k2s-dns): runs the command and sets the exit
 * status. `--help` is answered before anything else loads: the help text should cost no more
 * than starting Node. Every other command but the window's runs from the one CommonJS script
 * with its V8 code cache (electron/core/compile-cache/cli-script.ts), else from the ES module
 * chunks (run-cli.ts). Both are decided by run-entry.ts, required as the CommonJS file
 * dist/k2s-dns-run.cjs next to this one (its doc says why); with no such file (the sources run
 * through tsx) by the same code as ES modules (entry-modules.ts); so does a damaged one, with a
 * line that says so (loadRunner), and a dangling link there (built-file.ts).
 */
import { existsSync, lstatSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The runner's file name next to the bundle's entry (scripts/build.mjs buildRunEntry). */
const RUN_ENTRY = 'k2s-dns-run.cjs';

type Runner = typeof import('./run-entry');

/**
 * run-entry.ts's exports from `file`, or null when the file does not load (truncated, a syntax
 * error, no runQuickOrScript): said on stderr in one line (damaged-file.ts, imported only then),
 * and the command runs as without the file, from the chunks.
 */
async function loadRunner(file: string): Promise<Runner | null> {
  try {
    // require() reads with a blocking open: a FIFO there waits for a writer for ever, and a
    // device (a link to /dev/zero) never ends. Only a regular file is required (stat(2) follows a link).
    if (!statSync(file).isFile()) throw new Error('it is not a regular file');
    const runner = createRequire(import.meta.url)(file) as Partial<Runner>;
    if (typeof runner.runQuickOrScript === 'function') return runner as Runner;
    throw new Error('no runQuickOrScript in it');
  } catch (err) {
    process.stderr.write((await import('./damaged-file')).damagedFileLine(file, err));
    return null;
  }
}

/**
 * Whether the runner `file` is there; a dangling link there (not an absent file: the sources through
 * tsx) is said in one line (built-file.ts, imported only then: this entry imports no chunk at load).
 */
async function runnerThere(file: string): Promise<boolean> {
  if (existsSync(file)) return true;
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) (await import('../core/built-file')).sayIfDangling(file, 'from the ES module chunks');
  return false;
}

const argv = process.argv.slice(2);
const file = import.meta.url.startsWith('file:') ? fileURLToPath(new URL(RUN_ENTRY, import.meta.url)) : null;
const runner = file !== null && (await runnerThere(file)) ? await loadRunner(file) : null;
// A command the runner left (null) runs from the chunks (run-cli.ts), without asking the runner's
// code again as ES modules: a CLI script that did not load is tried, and said, once.
process.exitCode = runner
  ? ((await runner.runQuickOrScript(argv)) ?? (await (await import('./run-cli')).runCli(argv)))
  : await (await import('./entry-modules')).runFromModules(argv);
