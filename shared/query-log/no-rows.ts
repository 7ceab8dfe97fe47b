/**
 * What both front ends say when the exact query log's file exists but holds no row to show (the
 * CLI's `queries`, electron/cli/print-queries.ts noRowsText; the window's Queries view,
 * renderer/src/components/LogsPanel.tsx): one set of facts — the file, that a row reaches it up to
 * BLOCK_TIMEOUT_MS after its answer (later on a busy host: the capture runs at idle priority,
 * electron/core/capture/go-idle.ts), or that a full disk keeps any row out — and each front end's
 * way only where it must differ (the CLI runs `queries` again; the window shows rows by itself).
 * Pure module: no Node or DOM imports.
 */
import { BLOCK_TIMEOUT_MS } from '../capture-block';
import { cliCommand, shellWord, type FrontEnd } from '../fix';
import { K2S_PATHS } from '../k2s-paths';

/**
 * The directory a full-disk loss line names (`12 rows not written (no space left on
 * /var/log/dnsproxy)`, electron/core/capture/rows-file.ts unwrittenLine for ENOSPC), or null for
 * another loss (EIO, a slow disk) or none.
 */
export function fullDirOf(unwritten: string | undefined | null): string | null {
  const m = /\(no space left on (.+)\)$/.exec(unwritten ?? '');
  return m ? m[1]! : null;
}

/**
 * What to do about a full `dir`: free space on the file system that holds it, which `df` names
 * (df(1): the file system each file is on); the window says where to run it.
 */
export function freeSpaceWay(dir: string, frontEnd: FrontEnd = 'cli'): string {
  return `free space on the file system that holds ${dir} (\`df -h ${shellWord(dir)}\`${frontEnd === 'gui' ? ' in a terminal' : ''} names it and how full it is)`;
}

/** The heading and the sentence of noRowsWords. */
export interface NoRowsWords {
  /** `No queries logged yet` (no final stop). */
  head: string;
  /** The facts and the way, one sentence ending in a full stop; code spans in backticks. */
  body: string;
}

/**
 * The exact log's file exists but no row is shown yet, in the words of `frontEnd`. `waitedMs`:
 * how long the CLI waited for a row (electron/cli/queries-wait.ts), said when it did.
 * `unwritten`: the capture's loss line (HostDns exact log `unwritten`): for a full disk
 * (fullDirOf) no asked name can reach the file, so it says to free space there instead of to ask one.
 */
export function noRowsWords(frontEnd: FrontEnd, opts: { waitedMs?: number; unwritten?: string | null } = {}): NoRowsWords {
  const head = 'No queries logged yet';
  const full = fullDirOf(opts.unwritten);
  if (full !== null) {
    const then = frontEnd === 'cli' ? `, then run ${cliCommand('queries')} again` : ': rows show here by themselves then';
    return { head, body: `${K2S_PATHS.queryRows} exists but holds no query: the capture cannot write rows while the file system that holds ${full} is full (no space left); ${freeSpaceWay(full, frontEnd)}${then}.` };
  }
  const waited = (opts.waitedMs ?? 0) > 0 ? ` none came in the ${opts.waitedMs! / 1000} s this command waited, and` : '';
  const way = frontEnd === 'cli' ? `ask a name, then run ${cliCommand('queries')} again` : 'resolve a name on this host or use the Query tester tab: it shows here by itself';
  return { head, body: `${K2S_PATHS.queryRows} exists but holds no query yet;${waited} a row reaches it up to ${BLOCK_TIMEOUT_MS / 1000} s after its answer (later while the host is busy: the capture runs at idle priority); ${way}.` };
}
