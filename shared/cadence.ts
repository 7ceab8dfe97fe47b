/**
 * Every periodic read of the app in one place (an idle window must cost next to nothing).
 * What a user loses by each, in detection time, is said next to it; docs/bench.md measures the
 * idle CPU they cost. The renderer and the backend both import these.
 */

/**
 * The window asks `dns:status` this often (ms). The answer is cheap: the backend keeps the
 * host status and re-reads it only after an inotify event, a dead proxy PID, or STATUS_SAFETY_MS
 * (electron/health/status-watch.ts), so a poll spawns no process and reads no file when nothing changed.
 */
export const STATUS_POLL_MS = 1000;

/**
 * The backend re-reads the host status at least this often even without an event (ms): the net
 * under the events, for a change no watched directory shows (e.g. a proxy started by hand with
 * `systemctl start` on a systemd too old for /run/systemd/units). Worst-case detection then.
 */
export const STATUS_SAFETY_MS = 30_000;

/**
 * The end-to-end health check (getaddrinfo → resolv.conf → listeners → kube-dns → upstreams)
 * runs on every status change and, while K2s DNS is on the path, again when its report is this
 * old (ms). CoreDNS going down is then shown within this + one status poll + the check's own
 * query deadline (1.5 s): ≤ 5 + 1 + 1.5 = 7.5 s (goal ≤ 10 s, with room for a busy host).
 */
export const HEALTH_MAX_AGE_ACTIVE_MS = 5000;

/**
 * While K2s DNS is stopped the check only reaches your own nameservers: again when the report is
 * this old (ms). A nameserver of yours going unreachable shows up to this much later.
 */
export const HEALTH_MAX_AGE_STOPPED_MS = 60_000;
