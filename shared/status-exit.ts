/**
 * Exit status of `k2s-dns status`, so scripts can trust it without parsing:
 * the same 0/1 as the lifecycle commands (shared/lifecycle-events.ts EXIT), plus 4 for busy and
 * 5 for a stopped K2s DNS on a host whose own resolver resolves nothing. The exit-5 rule is one
 * function (resolverDownWords), which `status` (electron/cli/main.ts) and stop's RESOLVER_DOWN
 * check (electron/core/lifecycle/resolver-down-check.ts) both use. Pure module.
 */
import { EXIT } from './lifecycle-events';
import type { HealthReport } from './health';
import type { HostDnsStatus } from './types';

/** A status with the health verdict folded in (shared/health.ts applyHealth), as much as the exit rules read. */
export type StatusForExit = Pick<HostDnsStatus, 'state'> & { health?: Pick<HealthReport, 'verdict'> | null };

/** `k2s-dns status` exit codes; 2 (usage) is shared with every command. */
export const STATUS_EXIT = {
  /** running (cluster names resolve through K2s DNS), or stopped with the original resolver working. */
  ok: EXIT.ok,
  /**
   * degraded: an operation interrupted, k2s-dnsproxy not running, resolver changed by someone
   * else, corrupt state, CoreDNS not answering (even while the proxy's cache still does: the
   * verdict's warning, shared/health.ts applyHealth), no upstream answering, or cluster names do
   * not resolve (the verdict says where, and the fix). An upstream that answers is never degraded.
   * Also the saved original put back and k2s-dnsproxy stopped by another program (K2s's own `k2s
   * stop`; verdict `original-back`): the saved state and K2s DNS's companions are left until
   * K2s DNS's own stop runs, so this is half done, not stopped (which would be 0, or 5).
   */
  degraded: EXIT.failed,
  /** starting or stopping: another k2s-dns operation runs now; ask again when it ends. */
  busy: EXIT.busy,
  /**
   * stopped, but no name resolves on this host: the host's own /etc/resolv.conf does not work
   * (walk 6 L2: `stop --on-drift keep` of a broken file, then status said "No names resolve on
   * this host" and exited 0). Not 1: nothing of K2s DNS is half done, the fix is the host's resolver.
   */
  resolverDown: EXIT.resolverDown,
} as const;

/**
 * The exit status for a status (with the health verdict already folded in by applyHealth):
 * `stopped` with a health verdict of level `error` (no name resolves with the host's own
 * resolver) is resolverDown; `stopped` without a health report is ok.
 */
export function statusExitCode(s: StatusForExit): number {
  // The one exit-5 rule, shared with stop's RESOLVER_DOWN check.
  if (resolverDownWords(s) !== null) return STATUS_EXIT.resolverDown;
  switch (s.state) {
    case 'running':
    case 'stopped':
      return STATUS_EXIT.ok;
    case 'starting':
    case 'stopping':
      return STATUS_EXIT.busy;
    default:
      return STATUS_EXIT.degraded;
  }
}

/**
 * The exit-5 rule (STATUS_EXIT.resolverDown, error code RESOLVER_DOWN): K2s DNS is `stopped` and
 * the health verdict is of level `error` (no name resolves with the host's own resolver). Returns
 * that verdict's summary, e.g. "No names resolve on this host: none of the nameservers in
 * /etc/resolv.conf answers (…); K2s DNS is stopped, so this is the host's own resolver", or null
 * when the rule does not hold (any other state, no report, or a verdict that is not an error).
 */
export function resolverDownWords(s: StatusForExit): string | null {
  return resolverDownMayHold(s.state) && s.health?.verdict.level === 'error' ? s.health.verdict.summary : null;
}

/**
 * Whether the exit-5 rule (resolverDownWords) can hold for a status in `state` at all: only
 * `stopped`. applyHealth turns no state into `stopped`, so a caller may test the state before the
 * health check and skip that check (its probes take up to 4 s) for any other state.
 */
export function resolverDownMayHold(state: HostDnsStatus['state']): boolean {
  return state === 'stopped';
}
