/**
 * Keeps the host DNS status (lifecycle/status.ts) between reads and re-reads it only when
 * something it depends on may have changed, so a window polling `dns:status` every second costs
 * no process and no file read while nothing happens. A re-read follows:
 *  - an inotify event (fs.watch) in a watched directory: /etc (resolv.conf; its symlink target's
 *    directory too), the state directory, the run directory (pidfile, watchdog state), systemd's
 *    /run/systemd/units (the `invocation:k2s-dnsproxy.service` link systemd adds at start and
 *    removes at stop) — a directory that does not exist yet is watched through its nearest parent;
 *  - the proxy PID it reported no longer existing (/proc/PID, a stat, no process spawned), or the
 *    network follower's (its pidfile stays after a kill -9: no directory event says it died);
 *  - an operation in progress (its journal moves step by step: always read fresh), or a restart of
 *    the proxy by the watchdog or systemd (its exec changes no watched file);
 *  - `invalidate()` (the backend calls it for each event of its own helper operations);
 *  - the safety age (shared/cadence.ts CADENCE_MS.statusSafety).
 * A directory that cannot be watched (no inotify watches left, EACCES) makes every read fresh,
 * as before this cache.
 */
import type { HostDnsStatus } from '../../../shared/types';

/** The host access the watch needs (injected: tests use a temp directory and a fake /proc). */
export interface StatusWatchDeps {
  /** Reads the status now (lifecycle/status.ts dnsStatus). */
  read(): Promise<HostDnsStatus>;
  /** Real paths of the directories whose entries the status depends on; `names`: only these entries count (all when absent). */
  dirs(): { dir: string; names?: string[] }[];
  /** Starts watching `dir` (calls `onEvent(filename)` per event); returns the stop function. Throws when it cannot watch. */
  watch(dir: string, onEvent: (filename: string | null) => void): () => void;
  /** Whether `dir` exists (for the nearest-parent rule). */
  exists(dir: string): boolean;
  /** Whether process `pid` exists. */
  pidAlive(pid: number): boolean;
  /** ms, monotonic enough for ages. */
  now(): number;
  /** Safety age in ms. */
  maxAgeMs: number;
}

/** The cached status. */
export interface StatusWatch {
  /** The current status: the kept one when nothing changed, else a fresh read (concurrent callers share it). */
  get(): Promise<HostDnsStatus>;
  /** Forgets the kept status: the next get reads. */
  invalidate(): void;
  /** Stops every watcher. */
  close(): void;
  /** How many reads went to the host (for tests and the bench). */
  readonly reads: number;
}

/** The nearest existing directory of `dir` (itself, or a parent). */
function nearest(dir: string, exists: (d: string) => boolean): string {
  let d = dir;
  while (d !== '/' && !exists(d)) d = d.slice(0, d.lastIndexOf('/')) || '/';
  return d;
}

/**
 * True while the watchdog or systemd restarts the proxy (status `watchdogRestart`, or
 * `serviceRestart` before it gives up): never kept, as during an operation. The new proxy's exec
 * changes no watched file (the watchdog's shell writes the pidfile before it: supervisor-script.ts),
 * and the status has no PID yet to see die, so a kept "restarting" would outlive the restart (walk 12 M1).
 */
function restartInProgress(s: HostDnsStatus): boolean {
  return !!s.watchdogRestart || (!!s.serviceRestart && !s.serviceRestart.gaveUp);
}

/** Creates the watch; watchers start at the first get. */
export function createStatusWatch(deps: StatusWatchDeps): StatusWatch {
  let kept: { status: HostDnsStatus; at: number; generation: number } | null = null;
  let generation = 0; // bumped by every event and invalidate
  let inflight: Promise<HostDnsStatus> | null = null;
  let stops: (() => void)[] = [];
  let watching = false;
  let blind = false; // some directory could not be watched: always read
  let reads = 0;

  const unwatch = () => {
    stops.forEach((s) => s());
    stops = [];
    watching = false;
  };
  const changed = () => {
    generation++;
  };
  const setUp = () => {
    unwatch();
    blind = false;
    watching = true;
    for (const { dir: wanted, names } of deps.dirs()) {
      const dir = nearest(wanted, deps.exists);
      // Watching a parent for a directory not there yet: only its first missing component counts.
      const counts = dir === wanted ? names : [wanted.slice(dir === '/' ? 1 : dir.length + 1).split('/')[0]!];
      try {
        stops.push(
          deps.watch(dir, (filename) => {
            if (counts && filename !== null && !counts.includes(filename)) return;
            changed();
            // The layout may have changed (a directory created or removed, resolv.conf now a
            // symlink elsewhere): the next get sets the watchers up again.
            watching = false;
          }),
        );
      } catch {
        blind = true;
      }
    }
  };
  const fresh = (): Promise<HostDnsStatus> => {
    if (inflight) return inflight;
    const at = generation;
    reads++;
    const p = deps.read().then(
      (status) => {
        kept = { status, at: deps.now(), generation: at };
        return status;
      },
    );
    inflight = p;
    void p.finally(() => {
      if (inflight === p) inflight = null;
    }).catch(() => undefined);
    return p;
  };
  return {
    get reads() {
      return reads;
    },
    async get() {
      if (!watching) setUp();
      const k = kept;
      const current =
        k !== null &&
        !blind &&
        k.generation === generation &&
        deps.now() - k.at < deps.maxAgeMs &&
        k.status.operation === null &&
        k.status.state !== 'starting' &&
        k.status.state !== 'stopping' &&
        !restartInProgress(k.status) &&
        (k.status.pid === null || deps.pidAlive(k.status.pid)) &&
        (k.status.follower?.pid == null || deps.pidAlive(k.status.follower.pid));
      return current ? k.status : fresh();
    },
    invalidate: changed,
    close: unwatch,
  };
}
