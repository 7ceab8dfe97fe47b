/**
 * What entry.ts runs when run-entry.ts's CommonJS file did not run the command: the window's
 * verbs (`ui`, `app`) and source maps (K2S_DNS_DEBUG=1) run from the ES module chunks (run-cli.ts);
 * the sources through tsx, which have no such file, get the same answers from run-entry.ts as an
 * ES module first.
 */
import { runQuickOrScript } from './run-entry';

/** Runs `argv` (the words after `k2s-dns`) as run-entry.ts does, else from the chunks (run-cli.ts); resolves the exit status. */
export async function runFromModules(argv: string[]): Promise<number> {
  return (await runQuickOrScript(argv)) ?? (await (await import('./run-cli')).runCli(argv));
}
