/**
 * The built bundle's door to a vendor script (scripts/build.mjs: dist/vendor-client-node.cjs):
 * loads it from next to the calling chunk, with this user's code cache (cache-dir.ts,
 * script-cache.ts). Only the bundle calls it; the sources import the packages directly.
 *
 * A CLI command (useVendorCacheJob) keeps one cache per verb, written when the process exits, as
 * the CLI script's own cache (cli-script.ts): a cache written right after loading holds little
 * more than the library's top level, so every request a command made (client-node's fetch,
 * request and serializer code) was compiled again at each run (~4 ms of CPU in start's discover
 * step on the 2-core test bed). Commands that run for hours, and callers without a verb (the
 * helper, the window), write it right after loading, as before: a process killed writes nothing
 * at exit. As the CLI script's, a command's cache is kept only from a run that did the
 * command's work (full-run.ts).
 */
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compileCacheDir } from './cache-dir';
import { didCommandWork } from './full-run';
import { loadCachedScript, type CacheOptions } from './script-cache';

/** Verbs that run for hours (the window's, the companions): their caches are written at load. */
const LONG_RUNNING: ReadonlySet<string> = new Set(['ui', 'app', 'follow-watch', 'capture-watch']);

/** The command this process runs, as a cache job; null: none (written at load). */
let job: string | null = null;
/** The words of that command (after `k2s-dns`). */
let words: readonly string[] = [];

/**
 * Names the CLI command this process runs (`argv`: the words after `k2s-dns`; its first word is
 * the verb): vendor caches are then kept per verb and written at exit (vendorCacheOptions).
 * Returns the job set: the verb, `other` for a word that is not a plain verb (one cache name for
 * all of them), null for a long-running verb.
 */
export function useVendorCacheJob(argv: readonly string[]): string | null {
  const verb = argv[0] ?? '';
  job = LONG_RUNNING.has(verb) ? null : /^[a-z][a-z-]{0,30}$/.test(verb) ? verb : 'other';
  words = [...argv];
  return job;
}

/**
 * The cache options for vendor script `name` run for cache job `verb` (null: the script's own
 * name, written right after loading) by the command `argv`: written at exit when that run did
 * the command's work (full-run.ts).
 */
export function vendorCacheOptions(name: string, verb: string | null, argv: readonly string[] = []): CacheOptions {
  return verb === null ? {} : { name: `${name}.${verb}`, writeAt: 'exit', keepIf: (code) => didCommandWork(argv, code) };
}

/** module.exports of vendor script `name`, found next to `baseUrl` (the chunk's import.meta.url). */
export function loadVendorScript(name: string, baseUrl: string): Record<string, unknown> {
  const euid = process.geteuid?.() ?? -1;
  const dir = euid < 0 ? null : compileCacheDir({ euid, env: process.env, home: homedir() });
  return loadCachedScript(fileURLToPath(new URL(name, baseUrl)), dir, euid, vendorCacheOptions(name, job, words)).exports as Record<string, unknown>;
}
