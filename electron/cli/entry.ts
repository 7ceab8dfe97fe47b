/**
 * Bundle entry of the `k2s-dns` CLI (scripts/build.mjs → dist/k2s-dns.mjs, run by
 * bin/k2s-dns.mjs and the packages' /usr/bin/k2s-dns): runs the command and sets the exit
 * status. `--help` is answered before anything else loads: the help text should cost no more
 * than starting Node. Every other command but the window's runs from the one CommonJS script
 * with its V8 code cache (electron/core/compile-cache/cli-script.ts), else from the ES module
 * chunks (run-cli.ts).
 */
import { cliScriptFor, loadCliScript } from '../core/compile-cache/cli-script';
import { surviveClosedOutput } from '../core/closed-output';
import { quickAnswer } from './quick-answer';
import { cliInvocation } from '../core/cli-invocation';

// `k2s-dns --help | head -1`: a closed stdout silences output (run-cli.ts does it for the rest).
surviveClosedOutput();

const argv = process.argv.slice(2);
const command = argv[0] ?? '';
const answered = quickAnswer(argv, cliInvocation());
if (answered !== null) {
  process.exitCode = answered;
} else {
  const script = cliScriptFor({ verb: command, baseUrl: import.meta.url, env: process.env, execArgv: process.execArgv });
  const run = script ? loadCliScript(script, command) : (await import('./run-cli')).runCli;
  process.exitCode = await run(argv);
}
