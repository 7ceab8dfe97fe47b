/**
 * The visible "why is this button off" lines under the lifecycle buttons: one line per fact.
 * During drift Start and Uninstall wait for the same choice in the banner, and their two
 * reasons said it twice, word for word but the last three (new-user pass); they become one line.
 */
import type { Operation } from '../../../shared/lifecycle-events';
import { DRIFT_START_REASON, DRIFT_UNINSTALL_REASON, type ButtonState } from './button-states';

/** Said once when both Start and Uninstall wait for the drift choice. */
export const DRIFT_BOTH_REASON = `${DRIFT_START_REASON} Start and Uninstall wait for that choice.`;

/** The reasons of the disabled buttons in `b`, Start, Stop, Uninstall order, each fact once. */
export function disabledReasons(b: Record<Operation, ButtonState>): string[] {
  const reasons = [b.start.reason, b.stop.reason, b.uninstall.reason].filter((r): r is string => r !== null);
  const both = reasons.includes(DRIFT_START_REASON) && reasons.includes(DRIFT_UNINSTALL_REASON);
  const lines = both ? reasons.filter((r) => r !== DRIFT_UNINSTALL_REASON).map((r) => (r === DRIFT_START_REASON ? DRIFT_BOTH_REASON : r)) : reasons;
  return [...new Set(lines)];
}

/**
 * Which of `lines` (disabledReasons) says `reason`, a button's own: its index, the drift line
 * for either drift reason, or -1 when none does. The button's aria-describedby names that line,
 * since a disabled button takes no focus and its title is read by no keyboard user (walk 11 L11).
 */
export function reasonLineIndex(reason: string | null, lines: string[]): number {
  if (reason === null) return -1;
  const exact = lines.indexOf(reason);
  if (exact >= 0) return exact;
  return reason === DRIFT_START_REASON || reason === DRIFT_UNINSTALL_REASON ? lines.indexOf(DRIFT_BOTH_REASON) : -1;
}
