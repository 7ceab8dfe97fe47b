/**
 * Whether the running K2s DNS follows the network (start's --on-network-change, default
 * `follow`), for the upstream-down verdict's words (shared/health.ts healthVerdict `following`).
 */
import type { HostDnsStatus } from '../../../shared/types';

/**
 * The saved state's policy where this user reads it; else (a user: the state is root's, 0700) a
 * running network follower, which runs only with `follow` (electron/core/lifecycle/status.ts).
 * False when neither says so. New user, session 30: a user's verdict said "the original
 * upstreams" where root's said "the network's nameservers" for the same start.
 */
export function followsNetwork(status: Pick<HostDnsStatus, 'onNetworkChange' | 'follower'>): boolean {
  if (status.onNetworkChange) return status.onNetworkChange === 'follow';
  return status.follower?.running === true;
}
