/**
 * The CLI's body, shared by its two ways of loading (entry.ts): the ES module chunks, and the
 * one CommonJS script dist/k2s-dns-cli.cjs that runs with a V8 code cache (cli-script.ts).
 * Each loading holds its own copy of every module (their state too), so this function does the
 * per-process set-up itself, in the copy that runs the command.
 */
import { useCliInvocation } from '../core/cli-invocation';
import { setCliAsRoot, setCliName } from '../../shared/fix';
import { APP_ROOT } from '../core/app-root';
import { cliLaunchName } from './app-launch';
import { runInternalVerb } from './internal-verbs';
import { surviveClosedOutput } from '../core/closed-output';
import { useVendorCacheJob } from '../core/compile-cache/vendor';

/**
 * Runs the command `argv` (without node and script) other than `--help`, which entry.ts answers
 * before loading anything; resolves its exit status.
 */
export async function runCli(argv: string[]): Promise<number> {
  // `k2s-dns stop | head -1`: a closed stdout silences output, never ends the operation half-done.
  surviveClosedOutput();
  // Fix texts name the CLI as this install runs it (/usr/bin/k2s-dns, or npx in a checkout).
  const cli = useCliInvocation();
  const root = process.geteuid?.() === 0;
  // Root's hints name no app line: the app runs as the desktop user (shared/fix.ts setCliAsRoot).
  setCliAsRoot(root);
  // A user's hints name the CLI as it was run: `npx k2s-dns` fails for a user on a root-owned checkout (app-launch.ts).
  if (!root) {
    const run = cliLaunchName(cli, process.env, process.cwd(), APP_ROOT);
    if (run !== cli) setCliName(run);
  }
  // @kubernetes/client-node's code cache per verb, with the code this command runs (vendor.ts).
  useVendorCacheJob(argv);
  // The companions start runs (capture-watch, follow-watch) load only their own modules.
  const internal = await runInternalVerb(argv);
  if (internal !== null) return internal;
  const { main } = await import('./main');
  return main(argv);
}
