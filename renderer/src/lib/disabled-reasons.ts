/**
 * The visible "why is this button off" lines under the lifecycle buttons: one line per fact.
 * During drift Start and Uninstall wait for the same choice in the banner (or, for a deleted file,
 * for Stop), and their two reasons said it twice, word for word but the first (new-user pass);
 * they become one line.
 */
import type { JournaledOperation } from '../../../shared/lifecycle-events';
import { DRIFT_START_REASON, DRIFT_UNINSTALL_REASON, GONE_START_REASON, GONE_UNINSTALL_REASON, type ButtonState } from './button-states';

/** Said once when both Start and Uninstall wait for the drift choice. */
export const DRIFT_BOTH_REASON = 'Start and Uninstall wait for the choice in the banner at the top.';

/** Said once when both Start and Uninstall wait for Stop after /etc/resolv.conf was deleted. */
export const GONE_BOTH_REASON = 'Start and Uninstall wait until you press Stop (the banner at the top says why).';

/** Start's reason, Uninstall's, and the one line saying both. */
const PAIRS: readonly (readonly [string, string, string])[] = [
  [DRIFT_START_REASON, DRIFT_UNINSTALL_REASON, DRIFT_BOTH_REASON],
  [GONE_START_REASON, GONE_UNINSTALL_REASON, GONE_BOTH_REASON],
];

/** The reasons of the disabled buttons in `b`, Start, Stop, Uninstall order, each fact once. */
export function disabledReasons(b: Record<JournaledOperation, ButtonState>): string[] {
  let lines = [b.start.reason, b.stop.reason, b.uninstall.reason].filter((r): r is string => r !== null);
  for (const [start, uninstall, both] of PAIRS) {
    if (lines.includes(start) && lines.includes(uninstall)) lines = lines.filter((r) => r !== uninstall).map((r) => (r === start ? both : r));
  }
  return [...new Set(lines)];
}

/**
 * Which of `lines` (disabledReasons) says `reason`, a button's own: its index, the joint line
 * for either of a pair's reasons, or -1 when none does. The button's aria-describedby names that
 * line, since a disabled button takes no focus and its title is read by no keyboard user (walk 11 L11).
 */
export function reasonLineIndex(reason: string | null, lines: string[]): number {
  if (reason === null) return -1;
  const exact = lines.indexOf(reason);
  if (exact >= 0) return exact;
  const pair = PAIRS.find(([start, uninstall]) => reason === start || reason === uninstall);
  return pair ? lines.indexOf(pair[2]) : -1;
}
