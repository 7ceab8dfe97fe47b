/**
 * Whether a CLI run did its command's work, so that the V8 code cache it compiled is worth
 * keeping for every later run of the verb (script-cache.ts CacheOptions.keepIf). A cache is
 * written once per build and verb, and then only read: a cache written by `stop --help`, or by
 * a `stop` refused at its first check (NOT_ROOT, BUSY), holds only the few functions that short
 * path ran, and each later real `stop` compiled the rest again for the life of the build.
 *
 * Kept: exit 0 (done), 1 (failed: the command ran and found or hit a fault) and 5 (stopped but
 * no resolver works: the command did its work). Not kept: 2 (usage error), 3 (refused by a
 * precondition), 4 (busy), any other status, and any run that asked for help (`-h`, `--help`
 * anywhere before `--`: main.ts answers `VERB --help` with status 0). Exit 1 is also what Node
 * gives the `exit` handler after an uncaught exception, so a run that crashed early keeps its
 * thinner cache too (rare; no later run writes over a cache).
 * Exit statuses: shared/error-codes.ts EXIT.
 */
import { EXIT } from '../../../shared/error-codes';

const KEPT: ReadonlySet<number> = new Set([EXIT.ok, EXIT.failed, EXIT.resolverDown]);

/** True when the run of `argv` (the words after `k2s-dns`) that exits with `status` did its command's work. */
export function didCommandWork(argv: readonly string[], status: number): boolean {
  for (const word of argv) {
    if (word === '--') break;
    if (word === '--help' || word === '-h') return false;
  }
  return KEPT.has(status);
}
