/** How a view names the time of data it shows while its source cannot be reached. */

import { clockTime, localTimes, timeText } from '../../../shared/clock';

/** `14:03:07`: local wall-clock time (shared/clock.ts, the CLI prints the same). */
export { clockTime };

/** The window's one time format (`14:03:07` today, the date before it on another day): shared/clock.ts. */
export { timeText };

/** `last known at 14:03:07`: what a view says while the source of its data cannot be reached. */
export function lastKnownText(ms: number): string {
  return `last known at ${clockTime(ms)}`;
}

/**
 * `text` (a backend message, which the CLI prints through the same function) with every ISO time
 * and `HH:MM:SS UTC` clock in the window's one time format (timeText): shared/clock.ts localTimes.
 */
export const windowTimes = localTimes;
