/**
 * Entry of dist/k2s-dns-run.cjs (scripts/build.mjs), the first thing dist/k2s-dns.mjs (entry.ts)
 * loads: `--help` and `--version`, then every command that runs from the CLI script
 * (electron/core/compile-cache/cli-script.ts), as ONE small CommonJS file. The same code as an
 * ES module cost each command its chunks — six modules resolved, read, compiled and linked by
 * Node 20's ES module loader, which caches no compiled module; required as CommonJS it is one
 * read and one compile: `node bin/k2s-dns.mjs --version` 40 → 37 ms of CPU, `stop --help`
 * 60 → 56 ms (medians of 21–31 runs on the 2-core test machine at load 6). Its module.exports is
 * this module's exports.
 */
import { cliScriptFor, loadCliScript } from '../core/compile-cache/cli-script';
import { surviveClosedOutput } from '../core/closed-output';
import { quickAnswer } from './quick-answer';
import { cliInvocation } from '../core/cli-invocation';
import { damagedFileLine } from './damaged-file';

/**
 * Answers `argv` (the words after `k2s-dns`) when it asks for help or the version, else runs it
 * from the CLI script next to this file; resolves the exit status, or null when the command runs
 * from the ES module chunks instead (the window's verbs, source maps, no script: cliScriptFor;
 * a script that does not load, said in one line: damaged-file.ts).
 */
export async function runQuickOrScript(argv: string[]): Promise<number | null> {
  // `k2s-dns --help | head -1`: a closed stdout silences output (run-cli.ts does it for the rest).
  surviveClosedOutput();
  const answered = quickAnswer(argv, cliInvocation());
  if (answered !== null) return answered;
  const verb = argv[0] ?? '';
  const script = cliScriptFor({ verb, baseUrl: import.meta.url, env: process.env, execArgv: process.execArgv });
  if (!script) return null;
  let runCli: ((argv: string[]) => Promise<number>) | undefined;
  try {
    runCli = loadCliScript(script, argv);
    if (typeof runCli !== 'function') throw new Error('no runCli in it');
  } catch (err) {
    // A damaged script (truncated, a syntax error): the command runs from the chunks instead.
    process.stderr.write(damagedFileLine(script, err));
    return null;
  }
  return runCli(argv);
}
