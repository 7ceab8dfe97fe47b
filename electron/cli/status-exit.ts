/**
 * Exit status of `k2s-dns status`, so scripts can trust it without parsing:
 * the same 0/1 as the lifecycle commands (shared/lifecycle-events.ts EXIT), plus 4 for busy and
 * 5 for a stopped K2s DNS on a host whose own resolver resolves nothing.
 */
import { EXIT } from '../../shared/lifecycle-events';
import type { HealthReport } from '../../shared/health';
import type { HostDnsStatus } from '../../shared/types';

/** `k2s-dns status` exit codes; 2 (usage) is shared with every command. */
export const STATUS_EXIT = {
  /** running (cluster names resolve through K2s DNS), or stopped with the original resolver working. */
  ok: EXIT.ok,
  /** degraded: half started or stopped, resolver changed by someone else, corrupt state, or cluster names do not resolve (the verdict says where, and the fix). */
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
export function statusExitCode(s: Pick<HostDnsStatus, 'state'> & { health?: Pick<HealthReport, 'verdict'> | null }): number {
  switch (s.state) {
    case 'running':
      return STATUS_EXIT.ok;
    case 'stopped':
      return s.health?.verdict.level === 'error' ? STATUS_EXIT.resolverDown : STATUS_EXIT.ok;
    case 'starting':
    case 'stopping':
      return STATUS_EXIT.busy;
    default:
      return STATUS_EXIT.degraded;
  }
}
