/**
 * `k2s-dns recover` run by a user who is not root: refused with NOT_ROOT (exit 3, nothing
 * changed), printed as start's and stop's refusals are (electron/cli/print.ts printEvent): the
 * line `REFUSED [NOT_ROOT]: …`, or with --json one result object.
 */
import { asRootWays } from '../../shared/fix';
import { EXIT } from '../../shared/error-codes';

/** The refusal's message: how to run `recover` (with `--force` when asked) as root, sudo or `su -c` (asRootWays). */
export function recoverNotRootMessage(force: boolean): string {
  return `k2s-dns recover puts the saved resolver back: run it ${asRootWays(force ? 'recover --force' : 'recover')}.`;
}

/** The refusal as printed on stdout: `REFUSED [NOT_ROOT]: MESSAGE`, or with `json` a result object (`at`: ms since the epoch). */
export function recoverNotRootOutput(force: boolean, json: boolean, at: number): string {
  const message = recoverNotRootMessage(force);
  if (!json) return `REFUSED [NOT_ROOT]: ${message}`;
  return JSON.stringify({ type: 'result', op: 'recover', ok: false, exitCode: EXIT.refused, message, code: 'NOT_ROOT', at });
}
