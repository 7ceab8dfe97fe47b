/**
 * `k2s-dns recover` run by a user who is not root: refused with NOT_ROOT (exit 3, nothing
 * changed), a result event printed as start's and stop's refusals are (electron/cli/print.ts
 * printEvent): the line `REFUSED [NOT_ROOT]: …`, or with --json the event as one JSON object.
 */
import { asRootWays } from '../../shared/fix';
import { EXIT, type ResultEvent } from '../../shared/lifecycle-events';

/** The refusal's message: how to run `recover` (with `--force` when asked) as root, sudo or `su -c` (asRootWays). */
export function recoverNotRootMessage(force: boolean): string {
  return `k2s-dns recover puts the saved resolver back: run it ${asRootWays(force ? 'recover --force' : 'recover')}.`;
}

/** The refusal as the result of operation `recover` (`at`: ms since the epoch): exit 3 (EXIT.refused), code NOT_ROOT. */
export function recoverNotRootEvent(force: boolean, at: number): ResultEvent {
  return { type: 'result', op: 'recover', ok: false, exitCode: EXIT.refused, message: recoverNotRootMessage(force), code: 'NOT_ROOT', at };
}
