/**
 * Every periodic read of the app in one table (an idle window must cost next to nothing; every
 * view live or labelled). What a user loses by each, in detection time, is said next to it;
 * docs/bench.md measures the idle CPU they cost. The renderer and the backend both import it.
 * The window's views poll only while they are on screen (their tab or the overview is open) and
 * the page is visible (renderer/src/lib/use-poll.ts).
 */

/** Intervals and ages in ms, by what is read. */
export const CADENCE_MS = {
  /**
   * The window asks `dns:status` (the verdict line, the card, drift) this often: a CLI start
   * shows within ~1.3 s. The answer is cheap: the backend keeps the host status and re-reads it
   * only after an inotify event, a dead proxy PID, or `statusSafety`
   * (electron/core/health/status-watch.ts), so a poll spawns no process when nothing changed.
   */
  status: 1000,
  /**
   * The backend re-reads the host status at least this often even without an event: the net
   * under the events, for a change no watched directory shows (e.g. a proxy started by hand with
   * `systemctl start` on a systemd too old for /run/systemd/units). Worst-case detection then.
   */
  statusSafety: 30_000,
  /**
   * The end-to-end health check (getaddrinfo → resolv.conf → listeners → kube-dns → upstreams)
   * runs on every status change and, while K2s DNS is on the path, again when its report is this
   * old. CoreDNS going down is then shown within this + one status poll + the check's own query
   * deadline (1.5 s): ≤ 5 + 1 + 1.5 = 7.5 s (goal ≤ 10 s, with room for a busy host).
   */
  healthActive: 5000,
  /**
   * While K2s DNS is stopped the check only reaches your own nameservers: again when the report
   * is this old. A nameserver of yours going unreachable shows up to this much later.
   */
  healthStopped: 60_000,
  /** cluster:status while the Overview is open. */
  cluster: 3000,
  /** zones:list while the Zones tab is open (discovery reads the Corefile ConfigMap: heavier). */
  zones: 4000,
  /**
   * Opening the Zones tab reads the zones at once when what it holds is older than this (or a
   * read failed), instead of showing them until the first `zones` tick.
   */
  zonesOnOpen: 2000,
  /** resolver:diff while the Resolver diff tab is open (local files only). */
  diff: 3000,
} as const;
