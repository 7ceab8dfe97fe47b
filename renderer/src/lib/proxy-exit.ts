/**
 * The proxy's own life after a start, for the timeline: a crash or kill and the restart that
 * followed (HostDnsStatus.proxyExit), so the step that names the proxy's PID never keeps a dead one.
 */
import type { HostDnsStatus } from '../../../shared/types';
import { clockTime } from './last-known';

/**
 * "At 18:50:12 k2s-dnsproxy (PID 1234) was killed by signal KILL (exit status 137); the watchdog
 * restarted it as PID 1240." — or, killed together with its watchdog (`at` null), "k2s-dnsproxy
 * (PID 1240) ended together with its watchdog…; it is not running and nothing restarts it." —
 * null when the proxy has not ended since `sinceMs` (the start's result).
 */
export function proxyExitLine(status: HostDnsStatus | null, sinceMs: number): string | null {
  const e = status?.proxyExit;
  if (!e || (e.at !== null && Date.parse(e.at) < sinceMs - 1000)) return null;
  const who = e.pid !== null ? `k2s-dnsproxy (PID ${e.pid})` : 'k2s-dnsproxy';
  // Killed with its watchdog: nothing recorded when or how, and nothing restarts it.
  if (e.at === null) return `${who} ${e.how}; it is not running and nothing restarts it.`;
  const how = e.how.startsWith('killed') ? `was ${e.how}` : e.how;
  const by = e.restartedBy === 'systemd' ? 'systemd' : `the ${e.restartedBy}`;
  const now = status!.pid !== null && status!.pid !== e.pid ? `${by} restarted it as PID ${status!.pid}` : status!.watchdogRestart || status!.serviceRestart ? `${by} is restarting it` : 'it is not running';
  return `At ${clockTime(Date.parse(e.at))} ${who} ${how}; ${now}.`;
}

/**
 * A step message naming the proxy's PID (`k2s-dnsproxy (dnsmasq, PID 1234) answers on …`) with
 * the PID that runs now: `PID 1240 since a restart at 18:50:12`, or `PID 1234 ended at …` while
 * none runs. Unchanged when the named PID still runs or nothing ended.
 */
export function withCurrentPid(message: string, status: HostDnsStatus | null): string {
  const e = status?.proxyExit;
  const m = /PID (\d+)/.exec(message);
  if (!e || !m || status === null || Number(m[1]) === status.pid) return message;
  const at = e.at === null ? null : clockTime(Date.parse(e.at));
  const now = status.pid !== null ? `PID ${status.pid} since a restart${at ? ` at ${at}` : ''}` : `PID ${e.pid ?? m[1]} ended${at ? ` at ${at}` : ''}`;
  return message.replace(m[0], now);
}
