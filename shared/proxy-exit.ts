/**
 * The proxy's own life since the start that runs now, in words: a crash or kill and the restart
 * that followed (HostDnsStatus.proxyExit, from the watchdog's state file or systemd's journal).
 * One sentence for `k2s-dns status` and the window's Host DNS timeline (docs/verdict.md: "killed by signal KILL").
 */
import type { HostDnsStatus } from './types';
import { clockTime } from './clock';

/**
 * "At 18:50:12 k2s-dnsproxy (PID 1234) was killed by signal KILL (exit status 137); the watchdog
 * restarted it as PID 1240." — or, killed together with its watchdog (`at` null), "k2s-dnsproxy
 * (PID 1240) ended together with its watchdog…; it is not running and nothing restarts it." —
 * null when the proxy has not ended since `sinceMs` (the window's start result; 0: any).
 */
export function proxyExitSentence(status: Pick<HostDnsStatus, 'pid' | 'proxyExit' | 'watchdogRestart' | 'serviceRestart'> | null, sinceMs = 0, clock: (ms: number) => string = clockTime): string | null {
  const e = status?.proxyExit;
  if (!e || (e.at !== null && Date.parse(e.at) < sinceMs - 1000)) return null;
  const who = e.pid !== null ? `k2s-dnsproxy (PID ${e.pid})` : 'k2s-dnsproxy';
  // Killed with its watchdog: nothing recorded when or how, and nothing restarts it.
  if (e.at === null) return `${who} ${e.how}; it is not running and nothing restarts it.`;
  const how = e.how.startsWith('killed') ? `was ${e.how}` : e.how;
  const by = e.restartedBy === 'systemd' ? 'systemd' : `the ${e.restartedBy}`;
  const now = status!.pid !== null && status!.pid !== e.pid ? `${by} restarted it as PID ${status!.pid}` : status!.watchdogRestart || status!.serviceRestart ? `${by} is restarting it` : 'it is not running';
  return `At ${clock(Date.parse(e.at))} ${who} ${how}; ${now}.`;
}
