/**
 * Exit status of `k2s-dns status`, so scripts can trust it without parsing:
 * the same 0/1 as the lifecycle commands (shared/lifecycle-events.ts EXIT), plus 4 for busy.
 */
import { EXIT } from '../../shared/lifecycle-events';
import type { HostDnsStatus } from '../../shared/types';

/** `k2s-dns status` exit codes; 2 (usage) is shared with every command. */
export const STATUS_EXIT = {
  /** running (cluster names resolve through K2s DNS), or stopped with the original resolver. */
  ok: EXIT.ok,
  /** degraded: half started or stopped, resolver changed by someone else, corrupt state, or cluster names do not resolve (the verdict says where, and the fix). */
  degraded: EXIT.failed,
  /** starting or stopping: another k2s-dns operation runs now; ask again when it ends. */
  busy: EXIT.busy,
} as const;

/** The exit status for a status (with the health verdict already folded in by applyHealth). */
export function statusExitCode(s: Pick<HostDnsStatus, 'state'>): number {
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
