/**
 * The CLI as one CommonJS script with a V8 code cache (scripts/build.mjs: dist/k2s-dns-cli.cjs,
 * from electron/cli/cli-script.ts). Node 20 caches no compiled ES module, so each command paid
 * for resolving, reading and compiling every chunk it loaded (~190 ms of CPU in a `start` on
 * the 2-core test bed: the ES module loader ~80 ms, compiling ~30 ms, the client-node script
 * ~40 ms; CPU profile); run from the script with its cache, loading is reading one file and
 * the cache, and evaluating the modules the command uses.
 *
 * One cache per verb (script-cache.ts CacheOptions): it is written when the process exits, so
 * it holds the code that verb ran (a cache written right after loading holds little more than
 * the top level; the functions each command calls would be compiled again at every run), and
 * only by a run that did the command's work (full-run.ts: not help, a usage error or a refusal).
 */
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compileCacheDir } from './cache-dir';
import { didCommandWork } from './full-run';
import { loadCachedScript } from './script-cache';
import { builtFileThere } from '../built-file';

/** The script's file name in dist/ (next to the bundle's entry). */
export const CLI_SCRIPT = 'k2s-dns-cli.cjs';

/**
 * Verbs that always run from the ES module chunks: the window's (`ui`, `app`: the web server and
 * Electron find their assets and the Electron binary from the chunks' place, and run for hours,
 * where loading is no matter).
 */
const MODULE_VERBS: ReadonlySet<string> = new Set(['ui', 'app']);

/** What cliScriptFor looks at. */
export interface ScriptChoice {
  /** The command's first word. */
  verb: string;
  /** The entry chunk's URL (import.meta.url): the script is looked for next to it. */
  baseUrl: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Node's own flags (process.execArgv). */
  execArgv: readonly string[];
  /** Whether a file exists (fs.existsSync). */
  exists?: (path: string) => boolean;
}

/**
 * The script's path when `verb` runs from it, else null: not for the window's verbs, not with
 * source maps (K2S_DNS_DEBUG=1, `--enable-source-maps`: the chunks' maps name the .ts lines of
 * a stack; the script has none), and not when it is not there (the sources run through tsx; a
 * dangling link there is said on stderr, built-file.ts).
 */
export function cliScriptFor(c: ScriptChoice): string | null {
  if (MODULE_VERBS.has(c.verb) || c.env.K2S_DNS_DEBUG === '1' || c.execArgv.includes('--enable-source-maps')) return null;
  if (!c.baseUrl.startsWith('file:')) return null;
  const file = fileURLToPath(new URL(CLI_SCRIPT, c.baseUrl));
  return builtFileThere(file, 'from the ES module chunks', c.exists) ? file : null;
}

/** This user's code cache directory (cache-dir.ts), null when there is none to use. */
function userCacheDir(euid: number): string | null {
  return euid < 0 ? null : compileCacheDir({ euid, env: process.env, home: homedir() });
}

/**
 * The CLI script's runCli, loaded from `file` with this user's code cache for the verb of
 * `argv` (the words after `k2s-dns`, the ones runCli is then given): a missing cache is written
 * at exit when that run did the command's work (full-run.ts).
 */
export function loadCliScript(file: string, argv: readonly string[]): (argv: string[]) => Promise<number> {
  const euid = process.geteuid?.() ?? -1;
  // The verb is a plain word in the cache's file name (an unknown verb shares one name).
  const verb = argv[0] ?? '';
  const job = /^[a-z][a-z-]{0,30}$/.test(verb) ? verb : 'other';
  const words = [...argv];
  const { exports } = loadCachedScript(file, userCacheDir(euid), euid, { name: `${CLI_SCRIPT}.${job}`, writeAt: 'exit', keepIf: (code) => didCommandWork(words, code) });
  return (exports as { runCli: (argv: string[]) => Promise<number> }).runCli;
}

/**
 * Runs CommonJS script `file` (absolute) with this user's code cache for it, written right after
 * its top level ran (a companion's bundle runs for hours: its exit is too late for the next start).
 */
export function loadScriptWithCache(file: string): unknown {
  const euid = process.geteuid?.() ?? -1;
  return loadCachedScript(file, userCacheDir(euid), euid, { writeAt: 'load' }).exports;
}
