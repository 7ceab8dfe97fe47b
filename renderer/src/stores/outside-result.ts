/**
 * An operation run outside the window (the CLI, another window) has no result of its own here:
 * journalEvents (dns.ts) makes one up from the status reads, done with exit 0. A `stop --on-drift
 * keep` that left no name resolving ended with exit 5 and the warning RESOLVER_DOWN
 * (electron/core/lifecycle/stop.ts), yet its made-up result read "DONE" (walk 10 L7). What is true
 * after it is known here too: the status's path check once it comes (it may come a read or two
 * after the stop's result, the check of a dead nameserver waits for its timeout).
 */
import { reportFitsStatus } from '../../../shared/health';
import { EXIT, type LifecycleEvent, type ResultEvent } from '../../../shared/lifecycle-events';
import type { HostDnsStatus } from '../../../shared/types';

/**
 * How far a check may lie from the made-up result's time (ms) and still be the check after that
 * operation: before it by up to a few status reads (the check ran as the stop ended, the window
 * read the stopped state after it), after it by a minute (later news is the verdict's, not the stop's).
 */
const BEFORE_MS = 5_000;
const AFTER_MS = 60_000;

/**
 * `events` with its last event, a made-up (`outside`) stop or uninstall result that is done with
 * no warnings, given what the check after it says: when `status` (stopped, with a path check that
 * fits it and was made around that result) says no name resolves on this host — the verdict's
 * `no-nameserver` or `upstream-down`, "No names resolve on this host: …" — the result carries
 * RESOLVER_DOWN with that summary and exit status 5 (EXIT.resolverDown), as the operation's own
 * result did, so the timeline says "done, with warnings". Null when nothing changes.
 */
export function withOutsideWarning(events: readonly LifecycleEvent[], status: HostDnsStatus): LifecycleEvent[] | null {
  const last = events.at(-1);
  if (!last || last.type !== 'result' || !last.outside || !last.ok || last.warnings?.length) return null;
  if ((last.op !== 'stop' && last.op !== 'uninstall') || status.state !== 'stopped') return null;
  const report = status.health;
  if (!report || !reportFitsStatus(report, status) || report.checkedAt < last.at - BEFORE_MS || report.checkedAt > last.at + AFTER_MS) return null;
  const v = report.verdict;
  if (v.resolves || (v.cause !== 'no-nameserver' && v.cause !== 'upstream-down')) return null;
  const amended: ResultEvent = { ...last, exitCode: EXIT.resolverDown, warnings: [{ code: 'RESOLVER_DOWN', message: `${v.summary}, checked after this ${last.op}: see the verdict for the fix.` }] };
  return [...events.slice(0, -1), amended];
}
