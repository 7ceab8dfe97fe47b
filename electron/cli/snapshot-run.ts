/**
 * What the CLI's V8 startup snapshot runs (snapshot-entry.ts has why and what the blob holds).
 * Its imports are loaded when runFromSnapshot is called (esbuild makes each a function called
 * then), so none of the CLI's code runs while the blob is built.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Builtins loaded into the blob: the ones the CLI's commands use that Node supports in a user
 * snapshot (Node 20 warns "not yet fully verified" for child_process, dgram, http, https, tls,
 * vm, module, perf_hooks, readline and worker_threads; those load at run time, as before). http,
 * https and tls abort the build on Node 20, so the client-node script, which requires them at
 * load, cannot be in the blob either (docs/host-facts.md, "Node.js start-up on Debian 13").
 */
export const SNAPSHOT_BUILTINS = ['fs', 'fs/promises', 'path', 'url', 'os', 'crypto', 'buffer', 'net', 'dns', 'stream', 'zlib', 'events', 'util', 'string_decoder', 'querystring', 'timers'] as const;

/** The bundle's entry next to this script: what /usr/bin/k2s-dns runs without the blob. */
export function entryPath(dir: string): string {
  return join(dir, 'k2s-dns.mjs');
}

/**
 * Runs the command in `argv` (the words after `k2s-dns`) as dist/k2s-dns.mjs would from `dir`,
 * and resolves to its exit status; null when the script it ran sets process.exitCode itself:
 * the capture companion (`capture-watch`, the unit's ExecStart in a package,
 * capture/capture-program.ts) runs from its own small bundle next to this script
 * (CAPTURE_BUNDLE, with root's code cache), not from the CLI's whole script: start waits for
 * it; its packet parser (`capture-rows`) runs the companion's copy of the parser bundle. The window's verbs (`ui`, `app`) and K2S_DNS_DEBUG=1 run only from the ES module chunks,
 * which a snapshot cannot import: /usr/bin/k2s-dns never sends them here; if something does, the
 * answer says what to run instead (exit 2, usage).
 */
export async function runFromSnapshot(argv: readonly string[], dir: string): Promise<number | null> {
  const [{ surviveClosedOutput }, { quickAnswer }, { cliScriptFor, loadCliScript, loadScriptWithCache }, { EXIT }, { CAPTURE_BUNDLE, CAPTURE_VERB, PARSER_RUN_PATH, PARSER_VERB }, { loadCachedScript }, { builtFileThere }] = await Promise.all([
    import('../core/closed-output'),
    import('./quick-answer'),
    import('../core/compile-cache/cli-script'),
    import('../../shared/lifecycle-events'),
    import('../core/capture/capture-args'),
    import('../core/compile-cache/script-cache'),
    import('../core/built-file'),
  ]);
  const verb = argv[0] ?? '';
  // Its bundle's top level runs the companion with process.argv (capture-watch-entry.ts).
  if (verb === CAPTURE_VERB && builtFileThere(join(dir, CAPTURE_BUNDLE), 'the companion from the CLI script')) {
    loadScriptWithCache(join(dir, CAPTURE_BUNDLE));
    return null;
  }
  // The packet parser (capture-program.ts parserProgram), as the capture's unprivileged user: the
  // companion's copy of its bundle, which that user can read, without a code cache (none is
  // that user's). Its top level reads stdin to the end (rows-main.ts).
  if (verb === PARSER_VERB && argv.length === 1) {
    loadCachedScript(PARSER_RUN_PATH, null, process.geteuid?.() ?? -1);
    return null;
  }
  surviveClosedOutput();
  const answered = quickAnswer(argv);
  if (answered !== null) return answered;
  const script = cliScriptFor({ verb, baseUrl: pathToFileURL(entryPath(dir)).href, env: process.env, execArgv: [] });
  if (script === null) {
    process.stderr.write(`k2s-dns: \`${verb}\` does not run from the startup snapshot; run \`node ${entryPath(dir)} ${argv.join(' ')}\` (what /usr/bin/k2s-dns runs for it).\n`);
    return EXIT.usage;
  }
  return loadCliScript(script, argv)([...argv]);
}

