/**
 * Whether the watchdog (supervisor-script.ts, hosts without systemd) is restarting k2s-dnsproxy
 * now, and which restart that is. One rule (walk 12 M1): while the watchdog shell itself is alive
 * (its PID's /proc cmdline is the watchdog's argv: supervised-service.ts watchdogAlive) and its
 * state file does not say it stopped (gave-up, exited, refused), a proxy that is not running is
 * being restarted — never "nothing restarts it". The state file alone lags the process: it says
 * `running` in the few ms between the proxy's death and the watchdog's `restarting` line, and
 * again from the end of the backoff sleep until the new proxy has exec'd (measured in the bed
 * with dnsmasq: ~15 ms and ~60 ms; longer on a busy host).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { WatchdogState } from './supervisor-script';

/** What the rule reads: the watchdog's state file (null: none or unreadable) and its liveness, and the proxy pidfile. */
export interface WatchdogSnapshot {
  /** parseWatchdogState of the state file, null when there is none. */
  state: WatchdogState | null;
  /** The watchdog shell named by its pidfile is alive (watchdogAlive). */
  alive: boolean;
  /** The PID the proxy pidfile names (recordedProxyPid), null when none. */
  recordedPid: number | null;
  /** That PID is a live process (not a zombie): with the proxy not running, the new proxy's shell before its exec. */
  recordedAlive: boolean;
}

/** State words after which the watchdog exits without restarting (supervisor-script.ts `break`). */
const ENDED: ReadonlySet<WatchdogState['state']> = new Set(['gave-up', 'exited', 'refused']);

/**
 * The restart in progress while the proxy is not running, or null when nothing restarts it (no
 * live watchdog, or it ended: gave up, exited cleanly, refused a directory). `restarts` is the
 * one to say as "restart N of MAX_RESTARTS": the state file's in-a-row count (supervisor-script.ts
 * `in-a-row=`; its total `restarts=` in a file from before that key), plus one in the gap before
 * the watchdog has recorded the exit it is handling: the file then says `running` and neither
 * names the dead proxy as `last-pid` nor has a new proxy's shell written the pidfile yet.
 */
export function restartInProgress(s: WatchdogSnapshot): { restarts: number } | null {
  if (!s.alive) return null;
  const dog = s.state;
  if (dog && ENDED.has(dog.state)) return null;
  const total = dog?.restarts ?? 0;
  const inARow = dog?.inARow ?? total;
  if (dog?.state === 'restarting') return { restarts: Math.max(1, inARow) };
  // `running`: recorded already when the pidfile still names the proxy the watchdog logged as
  // ended (the backoff is over, the new one is being spawned) or names a live process (that new
  // proxy's shell, before its exec).
  const recorded = total > 0 && s.recordedPid !== null && (s.recordedAlive || s.recordedPid === dog?.lastPid);
  return { restarts: recorded ? Math.max(1, inARow) : inARow + 1 };
}

/** True when `pid` is a live process whose /proc cmdline is readable and not empty (a zombie's is empty). */
export async function pidLive(pid: number, procDir = '/proc'): Promise<boolean> {
  const cmdline = await fsp.readFile(path.join(procDir, String(pid), 'cmdline')).catch(() => null);
  return cmdline !== null && cmdline.length > 0;
}
