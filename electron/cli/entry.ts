/**
 * Bundle entry of the `k2s-dns` CLI (scripts/build.mjs → dist/k2s-dns.mjs, run by
 * bin/k2s-dns.mjs): runs main() on this process's argv and sets the exit status.
 * `--help` is answered before main and its imports load (yaml, dns-packet, the lifecycle):
 * the help text should cost no more than starting Node. The internal verbs too
 * (internal-verbs.ts): start waits for its capture companion.
 */
import { EXIT } from '../../shared/lifecycle-events';
import { useCliInvocation } from '../core/cli-invocation';
import { USAGE } from './usage';
import { runInternalVerb } from './internal-verbs';
import { surviveClosedOutput } from '../core/closed-output';

// `k2s-dns stop | head -1`: a closed stdout silences output, never ends the operation half-done.
surviveClosedOutput();

// Fix texts name the CLI as this install runs it (/usr/bin/k2s-dns, or npx in a checkout).
useCliInvocation();

const argv = process.argv.slice(2);
const command = argv[0];
if (!command || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exitCode = command ? EXIT.ok : EXIT.usage;
} else {
  // The companions start runs (capture-watch, follow-watch) load only their own modules.
  const internal = await runInternalVerb(argv);
  if (internal !== null) process.exitCode = internal;
  else {
    const { main } = await import('./main');
    process.exitCode = await main(argv);
  }
}
