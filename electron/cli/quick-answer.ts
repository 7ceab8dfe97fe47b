/**
 * The answers the CLI gives before any command loads: `--help` (usage.ts) and `--version`. The
 * bundle's entry (entry.ts) and the startup snapshot's (snapshot-entry.ts) both give them first,
 * so the help text costs no more than starting Node.
 */
import { EXIT } from '../../shared/lifecycle-events';
import { APP_VERSION } from '../../shared/app-version';
import { helpAnswer } from './usage';

/**
 * Writes the answer to `argv` (the words after `k2s-dns`) and returns its exit status, or null
 * when argv names a command to run. `cli`: how this install runs the CLI (cli-invocation.ts), named by the unknown-command refusal.
 */
export function quickAnswer(argv: readonly string[], cli = 'k2s-dns'): number | null {
  const help = helpAnswer(argv, cli);
  if (help !== null) {
    process.stdout.write(help.stdout);
    process.stderr.write(help.stderr);
    return help.code;
  }
  if (argv[0] === '--version' || argv[0] === 'version') {
    process.stdout.write(versionOutput(argv.slice(1)));
    return EXIT.ok;
  }
  return null;
}

/**
 * What `k2s-dns --version` (or `version`) prints, a newline at the end: `k2s-dns 0.1.0`, or with
 * `--json` among `rest` (README: every command takes --json) one object, `{"name":"k2s-dns","version":"0.1.0"}`.
 */
export function versionOutput(rest: readonly string[]): string {
  return `${rest.includes('--json') ? JSON.stringify({ name: 'k2s-dns', version: APP_VERSION }) : `k2s-dns ${APP_VERSION}`}\n`;
}
