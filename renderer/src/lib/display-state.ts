/**
 * The state word the Host DNS card shows. While this window runs an operation, the card says
 * `starting` / `stopping` at once, before the next status poll reads the journal (which says the
 * same for an operation started elsewhere: electron/core/lifecycle/status.ts).
 */
import type { Operation } from '../../../shared/lifecycle-events';
import type { HostDnsStatus } from '../../../shared/types';

/** `status.state`, or `starting`/`stopping` while `busy` runs start or stop/uninstall. */
export function displayState(state: HostDnsStatus['state'], busy: Operation | null): HostDnsStatus['state'] {
  if (busy === 'start') return 'starting';
  if (busy === 'stop' || busy === 'uninstall') return 'stopping';
  return state;
}
