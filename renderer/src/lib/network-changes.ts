/**
 * The network changes K2s DNS followed (or left as drift) while it ran, for the timeline. Status
 * carries only the newest one (HostDnsStatus.networkChange, from the state file's
 * lastNetworkChange); the dns store keeps each one it saw, so two changes between two looks of
 * the window still show in order.
 */
import type { NetworkChangeView } from '../../../shared/types';
import { clockTime } from './last-known';
import { pastReason, upstreamChangeWords, writerName } from '../../../shared/network-writer';

/** Network changes kept per window (older ones drop off). */
export const MAX_NETWORK_CHANGES = 20;

/** `list` with `change` appended when it is new (by its time and outcome), oldest first, at most MAX_NETWORK_CHANGES. */
export function withNetworkChange(list: readonly NetworkChangeView[], change: NetworkChangeView | null | undefined): NetworkChangeView[] {
  if (!change || list.some((c) => c.at === change.at && c.outcome === change.outcome)) return list as NetworkChangeView[];
  return [...list, change].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).slice(-MAX_NETWORK_CHANGES);
}

/**
 * "At 18:50:12 network change followed: NetworkManager — upstreams 192.0.2.53 → 10.77.0.2", or
 * "… network change not followed: resolvconf — <why>" for a drift; a follow after a refused file's
 * mode was fixed: "… followed: another program (the file does not say which) — mode fixed to 0664 (not followed
 * at 18:50:02: it was writable by every user (mode 0666)), upstreams …".
 */
export function networkChangeLine(c: NetworkChangeView): string {
  const when = `At ${clockTime(Date.parse(c.at))}`;
  // A follow after the owner or mode of a refused file was fixed says so (walk 9 L6).
  const fixed = c.fixed ? `${c.fixed.fix} (not followed at ${clockTime(Date.parse(c.fixed.refusedAt))}: it was ${c.fixed.problem}), ` : '';
  if (c.outcome === 'followed') return `${when} network change followed: ${writerName(c)} — ${fixed}${upstreamChangeWords(c)}`;
  // History: the reason as it was, without a fix (` — fix it with …`): the fix of the drift there
  // now is in the card's Last network change and the banner, never one for a file since fixed (walk 9 H1).
  return `${when} network change not followed: ${writerName(c)} — ${pastReason(c.reason ?? 'unknown reason')}`;
}
