/**
 * The proxy's own life after a start, for the timeline: a crash or kill and the restart that
 * followed (HostDnsStatus.proxyExit), so the step that names the proxy's PID never keeps a dead one.
 */
import type { HostDnsStatus, NetworkChangeView } from '../../../shared/types';
import { clockTime } from './last-known';
import { proxyExitSentence } from '../../../shared/proxy-exit';

/** The timeline's line for the proxy's end and restart since `sinceMs` (the start's result): shared/proxy-exit.ts. */
export function proxyExitLine(status: HostDnsStatus | null, sinceMs: number): string | null {
  return proxyExitSentence(status, sinceMs, clockTime);
}

/**
 * A step message naming the proxy's PID (`k2s-dnsproxy (dnsmasq, PID 1234) answers on …`) with
 * the PID that runs now: `PID 1240 since a restart at 18:50:12`, `PID 1250 since the network
 * change at 18:52:03` (a followed change restarts the proxy with the new upstreams; `changes`:
 * the window's network changes, newest last), or `PID 1234 ended at …) answered on …` while none runs.
 * Unchanged when the named PID still runs or nothing ended.
 */
export function withCurrentPid(message: string, status: HostDnsStatus | null, changes: readonly NetworkChangeView[] = []): string {
  const m = /PID (\d+)/.exec(message);
  if (!m || status === null || Number(m[1]) === status.pid) return message;
  const e = status.proxyExit;
  const followed = changes.filter((c) => c.outcome === 'followed').at(-1);
  // The newer of a crash and a followed change restarted the proxy last.
  if (followed && status.pid !== null && (!e || e.at === null || Date.parse(followed.at) >= Date.parse(e.at))) {
    return message.replace(m[0], `PID ${status.pid} since the network change at ${clockTime(Date.parse(followed.at))}`);
  }
  if (!e) return message;
  const at = e.at === null ? null : clockTime(Date.parse(e.at));
  if (status.pid !== null) return message.replace(m[0], `PID ${status.pid} since a restart${at ? ` at ${at}` : ''}`);
  // Past tense for a proxy that has ended: it answered there, it does not now (walk 7 L7).
  return message.replace(m[0], `PID ${e.pid ?? m[1]} ended${at ? ` at ${at}` : ''}`).replace(/\banswers on\b/, 'answered on');
}
