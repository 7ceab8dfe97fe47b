/**
 * THE error-code catalogue: every machine-readable code that crosses a boundary (a lifecycle
 * result's `code`, a warning's `code`, an error envelope's `code`), one spelling per condition,
 * with the exit status(es) of `k2s-dns`/the helper, the HTTP status of the web bridge and a
 * one-line meaning. `scripts/error-codes.test.ts` fails when product code uses a code that is
 * not here. Add a code: one entry here, then use it (refused or failed with the code, a warning's code…).
 * Pure module: no Node or DOM imports.
 */
/**
 * Exit statuses of `k2s-dns` and the helper.
 * `failedRolledBack` and `failed` share 1 (scripts test "not 0"); the name says which one a
 * caller means, and the result's code and message say the rest.
 */
export const EXIT = {
  ok: 0,
  /** A host-changing operation failed after changing the host; its changes were rolled back: the host is as before. */
  failedRolledBack: 1,
  /**
   * Failed where nothing was rolled back: a read-only command found a fault (query got no
   * answer, doctor found an error, status is degraded), an unexpected error before any change,
   * or the helper ended without a result (then `k2s-dns status` shows the host).
   */
  failed: 1,
  usage: 2,
  /** Refused by a precondition: nothing changed. */
  refused: 3,
  /** `k2s-dns status` only: another operation runs now (starting or stopping); ask again. */
  busy: 4,
  /**
   * K2s DNS is stopped (nothing of it is left to fix), but no name resolves with the host's own
   * /etc/resolv.conf: its nameservers do not answer, or it names only loopback where nothing
   * listens. `k2s-dns status` (shared/health.ts verdicts `no-nameserver`, `upstream-down`), and
   * `stop`/`uninstall` that kept such a file on `--on-drift keep`, or put back a saved original
   * that is one (no file, no nameserver line: walk 10 M5) (warning RESOLVER_DOWN): the
   * status that `status` gives right after (walk 9 M2: stop said "OK" and exited 0).
   */
  resolverDown: 5,
} as const;

/** One code's facts. */
export interface ErrorCodeEntry {
  /**
   * Exit status of `k2s-dns`/the helper when an operation ends with this code (a warning: 0).
   * Two where the same condition is found before any change (refused, 3) and after changes
   * that were rolled back (1); the first is the usual one.
   */
  exit: readonly [number, ...number[]];
  /**
   * HTTP status the web bridge answers when a call ends in an error envelope with this code.
   * 200: the code only ever comes back inside a call's result (a ResultEvent with ok false, or a
   * warning), which the bridge answers 200; thrown as an envelope instead it would be a 500 —
   * unless `shownState` is set.
   */
  http: number;
  /**
   * The code names a state of the host or cluster that the window shows while it lasts (the API
   * server does not answer, no kubeconfig), not a failed call: the web bridge answers its error
   * envelope with HTTP 200 (`http`), so the browser logs no "Failed to load resource" for an
   * expected state (walk 6 L9: a 504 for zones:list while the API was down). The envelope's
   * `ok: false` and code still say it; the CLI's exit status is unchanged.
   */
  shownState?: true;
  /** What happened, in one line (the message itself names the cause and the fix). */
  meaning: string;
}

const refusedOnly = [EXIT.refused] as const;
const rolledBack = [EXIT.failedRolledBack] as const;
const either = [EXIT.refused, EXIT.failedRolledBack] as const;
const warning = [EXIT.ok] as const;

/** Every code, by name. */
export const ERROR_CODES = {
  // --- the call boundary (dispatch, IPC, web bridge, the renderer's client) ---
  UNKNOWN_CALL: { exit: [EXIT.usage], http: 404, meaning: 'No such contract call.' },
  INVALID_INPUT: { exit: [EXIT.usage], http: 400, meaning: 'The call input does not match its schema (shared/operation-input.ts, shared/contract.ts).' },
  METHOD: { exit: [EXIT.usage], http: 405, meaning: 'An API call that is not a POST.' },
  BUSY: { exit: refusedOnly, http: 409, meaning: 'Another k2s-dns operation runs (the lock is held, or the backend runs a lifecycle call); nothing changed.' },
  UNAUTHORIZED: { exit: refusedOnly, http: 401, meaning: 'A web API call without the per-launch token.' },
  FORBIDDEN: { exit: refusedOnly, http: 403, meaning: 'A call from a foreign origin or window.' },
  NETWORK: { exit: [EXIT.failed], http: 502, meaning: 'The client got no valid reply from the backend (made by the client, never sent by the bridge).' },
  BACKEND_ERROR: { exit: [EXIT.failed], http: 500, meaning: 'The backend failed without a code of its own.' },
  // --- cluster access (electron/core/cluster/errors.ts) ---
  NO_KUBECONFIG: { exit: refusedOnly, http: 200, shownState: true, meaning: 'No kubeconfig was found, or the one given cannot be read or loaded.' },
  CLUSTER_UNREACHABLE: { exit: [EXIT.failed], http: 200, shownState: true, meaning: 'The Kubernetes API server refused the connection, could not be resolved, or did not answer in time.' },
  CLUSTER_UNAUTHORIZED: { exit: [EXIT.failed], http: 200, shownState: true, meaning: 'The API server answered 401/403 to the kubeconfig\'s credentials.' },
  CLUSTER_BAD_RESPONSE: { exit: [EXIT.failed], http: 502, meaning: 'The API server answered something that is not the expected Kubernetes object.' },
  // --- the privileged helper and its elevation (electron/helper/) ---
  HELPER_NOT_INSTALLED: { exit: refusedOnly, http: 200, meaning: 'The root helper is not installed where pkexec may run it; nothing ran.' },
  PKEXEC_MISSING: { exit: refusedOnly, http: 200, meaning: 'pkexec is not installed; nothing ran.' },
  POLICY_MISSING: { exit: refusedOnly, http: 200, meaning: 'The polkit action of the helper is not installed; nothing ran.' },
  AUTH_DISMISSED: { exit: refusedOnly, http: 200, meaning: 'The password dialog was dismissed; the helper did not run.' },
  AUTH_NOT_AUTHORIZED: { exit: refusedOnly, http: 200, meaning: 'polkit refused this user the helper (a rule or the session said no, or the authentication failed or a text agent was interrupted); it did not run.' },
  AUTH_NO_AGENT: { exit: refusedOnly, http: 200, meaning: 'No polkit agent could ask for the password; the helper did not run.' },
  CALLER_ENV: { exit: refusedOnly, http: 200, meaning: 'The helper was started in an environment neither pkexec nor sudo makes; nothing ran.' },
  HELPER_FAILED: { exit: [EXIT.failed], http: 200, meaning: 'The helper ended without a result; what it changed is what `k2s-dns status` shows.' },
  // --- lifecycle preconditions: refused, nothing changed (electron/core/lifecycle/preflight.ts) ---
  NOT_ROOT: { exit: refusedOnly, http: 200, meaning: 'A host-changing command run without root.' },
  NOT_ROOT_OWNED: { exit: refusedOnly, http: 200, meaning: 'A directory root writes into is not owned by root.' },
  NO_ENGINE: { exit: refusedOnly, http: 200, meaning: 'No DNS proxy engine binary (AdGuard dnsproxy, dnsmasq) was found.' },
  BAD_KUBECONFIG: { exit: refusedOnly, http: 200, meaning: 'The kubeconfig found cannot be loaded (preflight\'s check).' },
  BAD_KUBESWITCH: { exit: refusedOnly, http: 200, meaning: 'The KubeSwitch address is not a private IPv4 address.' },
  KUBESWITCH_NOT_ASSIGNED: { exit: refusedOnly, http: 200, meaning: 'The KubeSwitch address is not assigned on this host.' },
  IMMUTABLE: { exit: refusedOnly, http: 200, meaning: '/etc/resolv.conf has the immutable attribute.' },
  APPEND_ONLY: { exit: refusedOnly, http: 200, meaning: '/etc/resolv.conf has the append-only attribute.' },
  BIND_MOUNTED: { exit: either, http: 200, meaning: '/etc/resolv.conf is a bind mount and cannot be replaced by rename.' },
  DRIFTED: { exit: refusedOnly, http: 200, meaning: 'Another program rewrote /etc/resolv.conf while K2s DNS ran; stop decides what to keep first.' },
  NO_SAVED_ORIGINAL: { exit: either, http: 200, meaning: '/etc/resolv.conf is K2s-owned but no saved original exists.' },
  PORT_IN_USE: { exit: either, http: 200, meaning: 'Another program holds port 53 on a listener address, or the port the web mode (ui, app) was asked to listen on with --port (exit 1).' },
  RESOLVED_LINK_TAKEN: { exit: refusedOnly, http: 200, meaning: 'systemd-resolved already has foreign DNS servers on the KubeSwitch address\'s link.' },
  RESOLVED_NO_KUBESWITCH: { exit: refusedOnly, http: 200, meaning: 'systemd-resolved runs and the proxy cannot listen on the KubeSwitch address that routes the cluster zones to it.' },
  RESOLV_CONF_GONE: { exit: refusedOnly, http: 200, meaning: '/etc/resolv.conf was deleted or became a dangling symlink while K2s DNS ran.' },
  STATE_UNREADABLE: { exit: [EXIT.failed], http: 200, shownState: true, meaning: 'diff as a user while K2s DNS runs: the saved original is root-only (state dir 0700); exit 1 with how to run it as root; window and --json show the current file (savedRootOnly).' },
  LOG_UNREADABLE: { exit: [EXIT.failed], http: 200, shownState: true, meaning: 'The proxy log is readable by root and the group adm only (root:adm 0640), and this user is neither; the message says how to get read access.' },
  STATE_CORRUPT: { exit: either, http: 200, meaning: 'The saved resolver state file is corrupt.' },
  UPSTREAM_LOOP: { exit: refusedOnly, http: 200, meaning: 'An upstream reaches k2s-dnsproxy itself: forwarding there would loop.' },
  NO_UPSTREAM: { exit: refusedOnly, http: 200, meaning: 'The original resolver lists no usable upstream nameserver.' },
  PROXY_RESTARTING: { exit: refusedOnly, http: 200, meaning: 'k2s-dnsproxy is being restarted (by its watchdog, up to 30 s after the exit, or systemd), so start waits; nothing changed: wait for that restart, then run status.' },
  RUNNING_OTHER_OPTIONS: { exit: refusedOnly, http: 200, meaning: 'K2s DNS already runs, with another engine (an explicit --engine), other upstreams or another network-change policy than the start asked for; nothing changed: stop, then start with them.' },
  WSL_RESOLV_CONF: { exit: refusedOnly, http: 200, meaning: 'WSL generates /etc/resolv.conf on every start (generateResolvConf in /etc/wsl.conf).' },
  NOT_RESOLVER_FILE: { exit: refusedOnly, http: 200, meaning: '/etc/resolv.conf is no resolver file (not text, not UTF-8, or a line that is no resolv.conf(5) directive in a file that names no nameserver), so start will not save it as the original.' },
  RESOLV_CONF_TOO_LARGE: { exit: refusedOnly, http: 200, meaning: '/etc/resolv.conf is larger than a resolver file (64 KiB), so start cannot save a copy of it.' },
  NO_SPACE: { exit: either, http: 200, meaning: 'No space left to write the lock, state or resolver file.' },
  // --- lifecycle steps: failed after changes, rolled back ---
  DISCOVERY_FAILED: { exit: rolledBack, http: 200, meaning: 'Cluster discovery (CoreDNS zones, upstreams) failed.' },
  PROXY_CONFIG: { exit: rolledBack, http: 200, meaning: 'The proxy configuration could not be rendered or written.' },
  SERVICE_EXITED: { exit: rolledBack, http: 200, meaning: 'The proxy process exited right after it started.' },
  SERVICE_NOT_READY: { exit: rolledBack, http: 200, meaning: 'The proxy did not answer on every listener in time.' },
  VERIFY_PROXY: { exit: rolledBack, http: 200, meaning: 'The proxy did not resolve a cluster name.' },
  VERIFY_SYSTEM: { exit: rolledBack, http: 200, meaning: 'The host resolver (getaddrinfo) did not resolve a cluster name through the proxy.' },
  VERIFY_EXTERNAL: { exit: rolledBack, http: 200, meaning: 'The external verify name resolves differently through the proxy than through its upstream.' },
  VERIFY_UPSTREAM: { exit: rolledBack, http: 200, meaning: 'The --upstream given does not resolve the external verify name.' },
  RESOLV_CONF_NOT_FILE: { exit: rolledBack, http: 200, meaning: '/etc/resolv.conf became a directory or special file while K2s ran.' },
  RESTORE_MISMATCH: { exit: rolledBack, http: 200, meaning: 'After restore /etc/resolv.conf still differs from the saved original.' },
  INTERNAL: { exit: rolledBack, http: 200, meaning: 'An unexpected error in a lifecycle step; the host was rolled back.' },
  // --- warnings of a successful operation (exit 0) ---
  UPSTREAM_UNVERIFIED: { exit: warning, http: 200, meaning: 'Started, but no upstream answered the external verify name.' },
  ALLOW_ZONE_UNUSED: { exit: warning, http: 200, meaning: 'Started, but an --allow-zone forwarded nothing: no zone the Corefile serves was refused by that name.' },
  UPSTREAM_NO_ADDRESS: { exit: warning, http: 200, meaning: 'Started, but the upstream answered the external verify name without an address (NXDOMAIN, NODATA).' },
  RUN_DIR_FULL: { exit: warning, http: 200, meaning: 'Stopped without a lock file: /run is full.' },
  RESOLV_CONF_WRITABLE: { exit: warning, http: 200, meaning: 'Started, but the saved /etc/resolv.conf is owned by a user account or writable by other users (the follower would refuse it); stop puts it back so.' },
  FOLLOW_NOT_STARTED: { exit: warning, http: 200, meaning: 'Started, but the network follower did not: a new network resolver file stays drift.' },
  SHARED_PROXY_ACCOUNT: { exit: warning, http: 200, meaning: 'Started, but dnsmasq runs as the shared nobody account (the host has no dnsmasq system user), which then owns the proxy log.' },
  CAPTURE_UNAVAILABLE: { exit: warning, http: 200, meaning: 'Started, but tcpdump is not installed: no exact query log; the engine logs its queries instead.' },
  CAPTURE_NOT_STARTED: { exit: warning, http: 200, meaning: 'Started, but the exact query log (tcpdump companion) did not start.' },
  CAPTURE_NOT_STOPPED: { exit: warning, http: 200, meaning: 'Stopped, but the exact query log companion did not end when asked.' },
  FOLLOW_NOT_STOPPED: { exit: warning, http: 200, meaning: 'Stopped, but the network follower did not end when asked.' },
  KEPT_RESOLV_CONF_WRITABLE: { exit: warning, http: 200, meaning: 'Stopped, keeping their /etc/resolv.conf (--on-drift keep), which a user account owns or other users may write.' },
  STATE_DIR_FULL: { exit: warning, http: 200, meaning: 'Done, but the journal in the state directory could not be written (full).' },
  // --- a warning with its own exit status ---
  RESOLVER_DOWN: { exit: [EXIT.resolverDown], http: 200, meaning: 'Stopped, but the /etc/resolv.conf left (kept, or put back) resolves no name: it names only the stopped proxy, or nameservers that do not answer (exit 5, as status gives then).' },
} as const satisfies Record<string, ErrorCodeEntry>;

/** Every catalogued code, e.g. `PORT_IN_USE`. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether `code` is in the catalogue (own keys only). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/**
 * HTTP status of an error envelope with `code`: the catalogue's; 200 for a state the window
 * shows (ErrorCodeEntry.shownState); 500 for a code the catalogue does not know or that only
 * comes back inside a result (its `http` is 200).
 */
export function httpStatusFor(code: string): number {
  if (!isErrorCode(code)) return 500;
  const entry: ErrorCodeEntry = ERROR_CODES[code];
  if (entry.shownState) return 200;
  return entry.http >= 400 ? entry.http : 500;
}
