/**
 * Domain types shared by the main process, the CLI, the helper and the renderer.
 * Pure types only: no Node or DOM imports.
 */
import type { EngineName } from './engines/table';
import type { HealthReport } from './health-report';
import type { DoctorFinding } from './doctor';
import type { CaptureUnitState } from './capture-unit-state';
import type { ResolverMissing } from './resolver-missing';

/** A parsed resolv.conf(5). Unknown or malformed lines are kept verbatim in `unknown`. */
export interface ResolvConf {
  /** `nameserver` values in file order, IPv6 `%zone` kept (resolv.conf(5)). */
  nameservers: string[];
  /** Search domains of the last `search`/`domain` line (resolv.conf(5): the last one wins). */
  search: string[];
  /** `options` tokens in order, e.g. `ndots:5`, `edns0`. */
  options: string[];
  /** `sortlist` tokens. */
  sortlist: string[];
  /** Lines that are not comments, blank, or a known directive. */
  unknown: string[];
}

/** Where a zone came from: a Corefile server block/plugin, a cluster CIDR, or a fallback. */
export type ZoneSource = 'corefile' | 'cidr' | 'fallback';

/**
 * One stub domain the proxy sends to a specific upstream instead of the default upstreams.
 * `zone` is lower-case, without trailing dot (`cluster.local`, `21.172.in-addr.arpa`).
 */
export interface ZoneRoute {
  zone: string;
  /** `IP` or `IP:PORT` (IPv6 as `[addr]:port` when a port is given). */
  upstream: string;
  source: ZoneSource;
  /** Human-readable: e.g. `Corefile block ".:53", plugin kubernetes` or `service CIDR 172.21.0.0/16`. */
  reason: string;
  /** True for the cluster domain itself (from the `kubernetes` plugin). */
  clusterDomain: boolean;
  /** True for reverse (in-addr.arpa / ip6.arpa) zones. */
  reverse: boolean;
}

/** A zone CoreDNS serves that the host does not forward, and why (zone policy). */
export interface RefusedZone {
  zone: string;
  /** Where the Corefile serves it, as in ZoneRoute.reason. */
  reason: string;
  /** Why it is not forwarded, e.g. `a top-level domain: …`. */
  why: string;
  /** True when `--allow-zone ZONE` (or the Zones panel toggle) would forward it. */
  allowable: boolean;
}

/** Where the service/pod CIDRs came from. */
export type CidrSource = 'kubeadm-config' | 'node-podcidr' | 'fallback';

/** Result of cluster discovery: everything the proxy config is built from. */
export interface ClusterDiscovery {
  kubeconfigPath: string;
  context: string;
  apiServer: string;
  /** ClusterIP of the Service labelled k8s-app=kube-dns in kube-system. */
  kubeDnsIp: string;
  /** ClusterIP of default/kubernetes, the name verify resolves. */
  kubernetesServiceIp: string;
  /** From the Corefile's `kubernetes` plugin, e.g. `cluster.local`. */
  clusterDomain: string;
  serviceCidrs: string[];
  podCidrs: string[];
  cidrSource: CidrSource;
  zones: ZoneRoute[];
  /** Non-fatal findings, one sentence each (e.g. an unresolvable `import`). */
  warnings: string[];
  // --- zone policy ---
  /** Served zones the policy keeps on the host's own upstreams, with why. */
  refusedZones?: RefusedZone[];
  /** Zones forwarded only because the user allowed them. */
  allowedZones?: string[];
  /** `namespace/name` of the ConfigMap the Corefile was read from (found via kube-dns's pods). */
  corefileSource?: string;
}

/** Proxy engines: the names of the engine table (shared/engines/table.ts). */
export type { EngineName } from './engines/table';

/** One socket the proxy listens on; both UDP and TCP are bound. */
export interface Listener {
  address: string;
  port: number;
}

/** Everything an engine renderer needs to write the proxy's config. */
export interface ProxyPlan {
  engine: EngineName;
  listeners: Listener[];
  /** Stub domains: zone → upstream. */
  zones: ZoneRoute[];
  /** Default upstreams for everything else: the pre-K2s nameservers minus our listeners. */
  upstreams: string[];
  /** Cluster CIDRs whose reverse zones go to CoreDNS (for dnsproxy's private-rdns rules). */
  clusterCidrs: string[];
  /** Log file path (absolute host path). */
  logFile: string;
  /** Upstream timeout in ms: the saved resolv.conf's `options timeout:N` (glibc's wait for one nameserver). */
  timeoutMs: number;
  /**
   * How the default upstreams are chosen (shared/upstream-policy.ts): `ordered` (default, glibc
   * without `rotate`): the first, the next only when it fails; `rotate`: spread over all.
   */
  order?: 'ordered' | 'rotate';
  /** Log each query (dnsproxy `-v`, dnsmasq `log-queries`). */
  verbose: boolean;
}

/** Saved state of /etc/resolv.conf: exact bytes or exact link target string. */
export type ResolverEntry =
  | {
      kind: 'file';
      /** Exact bytes, base64. */
      contentBase64: string;
      /** Permission bits, e.g. 0o644 (st_mode & 0o7777). */
      mode: number;
      uid: number;
      gid: number;
      /** `chattr +i` was set. */
      immutable: boolean;
    }
  | {
      kind: 'symlink';
      /** Exact readlink(2) string, relative or absolute, as found. */
      target: string;
      uid: number;
      gid: number;
      /** The target did not exist when saved. */
      dangling: boolean;
      /** Bytes the link pointed to when saved (base64), for diffs and upstream discovery. */
      targetContentBase64: string | null;
    }
  | { kind: 'absent' };

/** One parsed dnsproxy or dnsmasq log line. */
export interface LogLine {
  /** ISO-8601 time or null when the line has none. */
  time: string | null;
  level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  message: string;
  /** key=value pairs (dnsproxy slog) or dnsmasq query fields. */
  fields: Record<string, string>;
  raw: string;
}

/**
 * The proxy log's lines are gone (pushed as `logs:reset` to every window): the file the live
 * follower read was removed (Uninstall), replaced by a new file, or emptied without a rotated copy
 * holding its lines. Lines pushed after it belong to the new file only.
 */
export interface LogReset {
  reason: 'removed' | 'replaced' | 'truncated';
  /** The log's path. */
  path: string;
  /** ms since the Unix epoch. */
  at: number;
}

/** A place in the proxy log file set: lines before byte `offset` of the file with inode `ino` (`log` or `log.1`). */
export interface LogCursor {
  ino: number;
  offset: number;
}

/** One page of the proxy log history (logs:page), oldest line first. */
export interface LogPage {
  lines: LogLine[];
  /** Pass as `before` for the page before this one; null at the oldest line of the file set. */
  older: LogCursor | null;
  /** True when the cursor's file left the set (rotated away twice): start again from the newest page. */
  lost: boolean;
  /** The log's files that exist, oldest first (e.g. `/var/log/dnsproxy/dnsproxy.log` alone until the first rotation); absent when not known. */
  files?: string[];
}

/** A search over the whole proxy log file set (logs:search). */
export interface LogSearch {
  /** The text searched (case-insensitive, literal). */
  text: string;
  /** The newest matching lines with their context lines, oldest first. */
  lines: LogLine[];
  /** Matching lines in the whole file set (health probe lines not counted unless asked for). */
  matches: number;
  /** True when older matches were left out of `lines` (the cap of the call). */
  truncated: boolean;
  /** Bytes read over all files. */
  bytesScanned: number;
  /** Files searched, oldest first (e.g. `/var/log/dnsproxy/dnsproxy.log.1`, `…/dnsproxy.log`). */
  files: string[];
  /** Wall time of the search in the backend, ms. */
  tookMs: number;
}

/** rcode names (RFC 1035 §4.1.1, RFC 6895). */
export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED' | string;

/** DNS record types the query tester and CLI accept. */
export const QUERY_TYPES = ['A', 'AAAA', 'PTR', 'SRV', 'TXT', 'CNAME', 'MX', 'NS', 'SOA'] as const;
/** One of QUERY_TYPES. */
export type QueryType = (typeof QUERY_TYPES)[number];

/** One answer record, `data` rendered as text (dig-like). */
export interface AnswerRecord {
  name: string;
  type: string;
  /** Seconds (RFC 1035 §3.2.1); null when the source gives none: getaddrinfo returns addresses without a TTL (getaddrinfo(3)). */
  ttl: number | null;
  data: string;
}

/** Result of one DNS query (or getaddrinfo for the system resolver). */
export interface QueryResult {
  name: string;
  type: QueryType;
  /** `system`, or the server as `IP:PORT`. */
  server: string;
  transport: 'udp' | 'tcp' | 'getaddrinfo';
  /** rcode, or `TIMEOUT` / `ERROR` when no response came back. */
  rcode: Rcode;
  answers: AnswerRecord[];
  /** Round-trip time in ms. */
  latencyMs: number;
  /** Set when rcode is TIMEOUT/ERROR. */
  error?: string;
  /**
   * The first reply, when it was a bare NOERROR (no record, no SOA) and the question asked again
   * alone got another rcode or records (electron/core/probes/dns-query.ts isBareNoerror): what
   * AdGuard dnsproxy sends a question merged with an identical one in flight. The result above is
   * the second reply; `latencyMs` here is the first one's.
   */
  recheck?: { rcode: Rcode; latencyMs: number };
}

/** What glibc does with one resolver file, seen from k2s-dnsproxy's listeners (shared/drift-route.ts driftRoute). */
export interface DriftRoute {
  /** The nameservers glibc asks, in order: the file's first MAXNS, or GLIBC_DEFAULT_NAMESERVER when it lists none. */
  nameservers: string[];
  /** True when the file has no nameserver line (glibc's default applies). */
  implicit: boolean;
  /** True when glibc's first nameserver is a k2s-dnsproxy listener: host apps still ask K2s DNS. */
  viaK2s: boolean;
  /**
   * True when every nameserver glibc asks is a k2s-dnsproxy listener: stopping the proxy with this
   * file kept leaves the host with no nameserver that answers.
   */
  keepLeavesNone: boolean;
}

/** What `status` reports about host DNS. */
export interface HostDnsStatus {
  /**
   * running: proxy up and resolver K2s-owned; degraded: one of the two is off or drifted, or
   * cluster names do not resolve (health); starting/stopping: an operation runs now (journal).
   */
  state: 'running' | 'stopped' | 'degraded' | 'starting' | 'stopping';
  /**
   * The operation in progress (from the lifecycle journal), so a reloaded window can rebuild its
   * timeline: the step it runs, and `done`, the steps that ended before it with their messages
   * (absent when none ended yet, or the journal is of an older version).
   */
  operation?: { op: 'start' | 'stop' | 'uninstall'; step: string; pid: number; startedAt: string; done?: Array<{ step: string; status: 'done' | 'skipped' | 'failed'; message: string }> } | null;
  /** The end-to-end path check (shared/health.ts), when the caller ran it. */
  health?: HealthReport;
  engine: EngineName | null;
  /** The running engine's version as its `--version` prints it (`v0.83.1`, `2.90`); null when stopped or unknown. */
  engineVersion: string | null;
  /** Why engineVersion is null while the proxy runs (its binary printed no version, could not run or did not finish, was replaced or removed since the proxy started, or is not named). */
  engineVersionUnknown?: string;
  listeners: Listener[];
  /** Listeners not opened and why (e.g. KubeSwitch address not assigned on this host). */
  skippedListeners: { address: string; reason: string }[];
  /** Who owns /etc/resolv.conf now. `foreign`: changed by someone else since start. */
  resolverOwner: 'original' | 'k2s' | 'foreign';
  /**
   * True when a start is saved, /etc/resolv.conf is that saved original put back by another
   * program (same bytes, or the same link: shared/resolver-compare.ts originalBack; mode and owner
   * may differ) and k2s-dnsproxy is stopped, not crashed (systemd is not restarting it), as K2s's
   * own `k2s stop` and `k2s uninstall` leave them (docs/host-integration.md). `resolverOwner` is
   * then `original` (no drift) and the health verdict `original-back`: a plain stop finishes.
   */
  originalBack?: true;
  /**
   * While `resolverOwner` is `foreign` (or `k2s` with `resolverEdited`) and the file is readable:
   * where glibc sends host apps' queries with it (shared/drift-route.ts) — still to k2s-dnsproxy
   * (`viaK2s`: no nameserver line, or 127.0.0.1 first) or past it. Absent or null otherwise.
   */
  driftRoute?: DriftRoute | null;
  /**
   * True when `resolverOwner` is `k2s` (the K2s header is there) but another program changed
   * the file's bytes in place (`sed -i`, `ex`): `driftRoute` then says what glibc does with it now.
   */
  resolverEdited?: boolean;
  /**
   * While `resolverOwner` is `foreign`: why the network follower does not follow the other
   * program's file for its owner or mode (a user owns or may write it: shared/network-writer.ts
   * resolverOwnerRefusal), in that rule's words; absent or null when the owner rule passes.
   */
  driftOwnerRefusal?: string | null;
  /**
   * With `driftOwnerRefusal` and the follow policy: the command line that makes their file pass
   * the owner rule (shared/writable-resolver.ts followFixLine, e.g. `sudo chmod o-w
   * /etc/resolv.conf`), after which the network follower follows it and K2s DNS keeps running:
   * the drift fix's first choice (walk 11 M3). Absent otherwise.
   */
  driftOwnerFix?: string;
  /**
   * While a start is recorded: what of the saved original's owner or mode fails the network
   * follower's owner rule (shared/network-writer.ts resolverOwnerProblem: `writable by every user
   * (mode 0666)`), so stop would put back a file a user could write; `messages` has the note with
   * the fix (shared/writable-resolver.ts). Absent when it passes or is unknown (sixth walk M3).
   */
  savedOriginalWritable?: string;
  /**
   * While no start is recorded: what of /etc/resolv.conf's owner or mode fails the follower's
   * owner rule (resolverOwnerProblem: `writable by every user (mode 0666)`), e.g. a file `stop
   * --on-drift keep` kept; `messages` has the note with the fix (shared/writable-resolver.ts
   * currentResolverWritable) and the health check's resolver hop is drawn `!` (walk 11 L8).
   * Absent when it passes or K2s DNS has a start recorded.
   */
  resolverWritable?: string;
  /**
   * While `resolverOwner` is `k2s`: what of K2s DNS's own /etc/resolv.conf's owner or mode fails
   * that rule now (K2s writes it 0644 root:root; a `chmod 666` in place lets any user redirect the
   * host's DNS); `messages` has the warning with the fix. Absent when it passes (sixth walk L1).
   */
  liveResolverWritable?: string;
  /**
   * While `resolverOwner` is `foreign`: why their file is no resolver file at all — larger than
   * 64 KiB, not text, not UTF-8, a line that is no resolv.conf(5) directive, or a link that ends
   * at a directory or FIFO — in the follower's words ("the new file is not a resolver file (line
   * "hello" is no resolv.conf(5) directive)", shared/network-writer.ts notResolverFileRefusal);
   * absent or null when it is one. The drift banner and a plain stop then restore by default.
   */
  driftFileRefusal?: string | null;
  /**
   * While /etc/resolv.conf is not K2s's and not gone: why start would refuse to save this very
   * file as the original (NOT_RESOLVER_FILE: not text, not UTF-8, over 64 KiB, or a line that is
   * no resolv.conf(5) directive in a file naming no nameserver; shared/network-writer.ts
   * startRefusesResolverFile), in the follower's words ("the new file is not text (it holds NUL
   * bytes)") — a start now when stopped, or one after `stop --on-drift keep` keeps their file
   * during drift. Absent or null when start would save it. No printed fix offers start then
   * (shared/health.ts: the verdict's `replace-resolver`; verdictFix for Keep their file).
   */
  startRefusal?: string | null;
  /**
   * While `resolverOwner` is `foreign` because /etc/resolv.conf is gone: how, `deleted` or
   * `replaced by a dangling symlink (→ TARGET)` (electron/core/lifecycle/resolver-gone.ts isGone).
   * There is no file of theirs to keep: stop puts the saved original back whatever the drift
   * choice. Absent or null otherwise.
   */
  driftGone?: string | null;
  /**
   * When /etc/resolv.conf resolves to no file (absent, or a symlink to nothing), stopped or
   * running: what is there (shared/resolver-missing.ts), so status, doctor and the window say the
   * file is missing rather than "no nameserver line" (walk 10 M5). Absent otherwise.
   */
  resolverMissing?: ResolverMissing;
  /** While `resolverOwner` is `foreign`: who wrote their file, shared/network-writer.ts writerWords. */
  driftWriter?: string | null;
  /**
   * With `driftWriter`: how their file came there, by the follower's rule (inode and birth time,
   * electron/core/lifecycle/managed-file-id.ts fileWriteHow): `rewritten in place`
   * (`printf … > /etc/resolv.conf`) or `replaced` (a new file or link put over it, or unknown);
   * the verb status's drift note and doctor's K2s DNS state both say (walk 11 L10).
   */
  driftVerb?: 'rewritten in place' | 'replaced';
  /**
   * A short hash of /etc/resolv.conf as it is now (kind, link target, bytes): changes whenever
   * the resolver changes, so a front end knows which findings are older than the file. Absent when not read.
   */
  resolverStamp?: string | null;
  upstreams: string[];
  /**
   * For a user who cannot read root's saved state (stateUnreadable) while the proxy runs: the
   * listeners, default upstreams and routed zones (zone → kube-dns) its engine's config names
   * (`file`, 0644; dnsmasq's config names no listener), shared/proxy-config-facts.ts. `listeners`,
   * `upstreams` and `zonesInUse` stay empty then (the saved state's); absent otherwise.
   */
  configFacts?: { file: string; listeners: Listener[]; upstreams: string[]; zones: { zone: string; upstream: string }[] };
  clusterDomain: string | null;
  /**
   * The kube-dns address start discovered (`IP` or `IP:PORT`): the saved state's, or for a user
   * who cannot read it (stateUnreadable) the one the running proxy's config sends the cluster
   * zones to (electron/core/host/proxy-kube-dns.ts); null when neither is known.
   */
  kubeDnsIp: string | null;
  /**
   * The zones the running proxy routes (the saved plan's stub domains, zone → upstream): what the
   * Zones tab shows while the API does not answer. Absent when not known (stopped, no plan saved,
   * the saved state unreadable).
   */
  zonesInUse?: ZoneRoute[];
  /** ISO time the original resolver was saved, null when nothing is saved. */
  savedAt: string | null;
  /**
   * Which tool wrote the saved state: this app, or K2s's own CLI — the tool that saved the copy,
   * not who wrote the file (after a follow that is the network's writer: `savedOriginal`).
   */
  savedBy: 'k2s-dns' | 'k2s-cli' | null;
  /**
   * What a plain stop puts back, in words (shared/saved-copy.ts savedOriginalWords): "written by another
   * program (the file does not say which) at 12:05:00 UTC, followed while K2s DNS ran" or "the file in place
   * at Start, saved at … by k2s-dns"; absent when nothing is saved.
   */
  savedOriginal?: string;
  /**
   * The file from before Start, kept once a follow replaced the saved original
   * (electron/core/host/start-copy.ts): `stop --restore start` (the window: Stop puts back →
   * the file from before Start) restores it. Absent when no follow replaced start's file.
   */
  startCopy?: { savedAt: string } | null;
  /**
   * True while a proxy config (K2S_PATHS.proxyConfig or dnsmasqConfig) or the proxy log is on the
   * host: stop keeps them, uninstall removes them (electron/core/lifecycle/owned-files.ts OWNED_FILES).
   * A window that saw K2s DNS go from running to stopped between two polls, without the journal,
   * tells an outside uninstall from an outside stop by it turning false. Absent when not checked.
   */
  proxyFilesLeft?: boolean;
  /**
   * While K2s DNS is stopped: whether any file uninstall removes (electron/core/lifecycle/owned-files.ts
   * OWNED_FILES, or a temp file a killed write left beside one: ownTempFiles) is on the host;
   * false: an uninstall would change nothing. Absent while it runs,
   * and where this user cannot see them all (root's 0700 state directory).
   */
  ownedFilesLeft?: boolean;
  /**
   * systemd, while the proxy is not running: the capture unit (k2s-dnsproxy-capture.service) when
   * it is not inactive — still draining after a stop (`deactivating`), or `failed` (its last rows
   * may be missing: lastRowsMayBeMissing); `messages` has the line (shared/capture-unit-state.ts).
   */
  captureUnit?: CaptureUnitState;
  pid: number | null;
  /** One sentence each: what is off and what to do. */
  messages: string[];
  /**
   * Set when the state file exists but is corrupt (not JSON, wrong schema): the sentence naming
   * the file, the problem and the fix. The health verdict is then an error (cause state-corrupt).
   */
  stateProblem?: string | null;
  /**
   * Set when this process (a user, not root) cannot read the saved state (K2S_PATHS.stateFile in
   * root's 0700 directory): why, one phrase. `listeners`, `upstreams` and `savedAt` are then
   * unknown, not empty: a front end says so instead of "none" or "nothing saved".
   */
  stateUnreadable?: string | null;
  /**
   * Hosts without systemd: the watchdog is restarting k2s-dnsproxy now (its state file says
   * `restarting`): restart `restarts` of `max` (electron/core/host/supervisor-script.ts MAX_RESTARTS).
   */
  watchdogRestart?: { restarts: number; max: number } | null;
  /**
   * Each listener as the kernel's socket table shows it (/proc/<proxy pid>/net/udp{,6}, read by
   * the app backend: electron/host/listener-sockets.ts); `bound` null when the table was not readable.
   * Absent when not read (CLI, fake).
   */
  listenerSockets?: { address: string; port: number; bound: boolean | null }[];
  /**
   * systemd hosts: systemd itself is restarting k2s-dnsproxy after a failure (SubState
   * auto-restart) — attempt `attempt`, how the last run ended and the proxy's own last error
   * line from its log — or gave up on it (`gaveUp`, Result=start-limit-hit).
   */
  serviceRestart?: { attempt: number; lastExit: string | null; reason: string | null; gaveUp: boolean } | null;
  /**
   * The last time k2s-dnsproxy ended by itself since this start (a crash or a kill, not a stop):
   * the PID that ended, when (ISO time) and how (`killed by signal KILL (exit status 137)`).
   * Hosts without systemd, from the watchdog's state file (supervisor-script.ts); systemd hosts,
   * from systemd's journal entry of the exit (systemd resets ExecMain* at each restart; that
   * entry names no PID, so `pid` is null there); absent when the proxy never ended or the
   * source does not say (a user who cannot read the journal). Always the current outage's: when
   * the proxy and its watchdog both ended after an earlier, healed crash, the watchdog's record
   * is of that earlier PID, so the entry names the PID the pidfile still holds with `at` null
   * (nothing recorded when or how it ended).
   */
  proxyExit?: { pid: number | null; at: string | null; how: string; restartedBy: 'watchdog' | 'systemd' } | null;
  /**
   * systemd-resolved hosts: the routing-only link start set up for the cluster zones (the
   * K2s-owned resolv.conf then names resolved's stub or the KubeSwitch address, not 127.0.0.1).
   */
  resolvedRoute?: { link: string; address: string; domains: string[] } | null;
  /**
   * systemd-resolved hosts while the proxy runs: doctor's `resolved-route` finding (is that route
   * still on the link?), so a lost route shows without running doctor. Absent when no route is held.
   */
  routeCheck?: DoctorFinding;
  /** `--on-network-change` of the running start (absent when stopped or unknown). */
  onNetworkChange?: 'follow' | 'keep';
  /**
   * false while the saved state says the running start was asked to log no query
   * (`--no-log-queries`: startedWith.logQueries false, shared/state-file.ts); absent otherwise
   * (it logs them, stopped, or not known). The Logs panel says it above older rows (walk 24).
   */
  logQueries?: false;
  /** The last new resolver file the network wrote while running, and what K2s did (followed, or left as drift with why). */
  networkChange?: NetworkChangeView | null;
  /**
   * The follow that made the saved copy (state `followedChange`, its `at` is `savedAt`), kept
   * when a later drift replaced `networkChange`: a window opened after both still names the
   * followed file (shared/saved-copy.ts). Absent when stopped or no follow happened.
   */
  followedChange?: NetworkChangeView | null;
  /**
   * The network follower (electron/core/host/follower.ts) while K2s DNS runs with
   * `onNetworkChange` follow: `running` false after it died (kill -9, OOM; a Start restarts it,
   * electron/core/lifecycle/start.ts), `pid` its process while it runs (null when not known).
   * Absent when not checked: stopped, keep, the proxy down, or no way to look.
   */
  follower?: { running: boolean; pid: number | null } | null;
}

/** One network change seen while K2s ran, as the state file keeps it and status and the app show it. */
export interface NetworkChangeView {
  /** ISO-8601 time it was handled. */
  at: string;
  /** followed: upstreams switched and the saved original replaced; drift: left alone (why in `reason`). */
  outcome: 'followed' | 'drift';
  /** Who wrote it: NetworkManager, resolvconf, systemd-resolved, a VPN client, or `an unknown program`. */
  writer: string;
  /** What says so: the header line or the link target. */
  evidence: string;
  /** How the new file reached the host: `/etc/resolv.conf replaced` or `link target <path> rewritten`. */
  how: string;
  /** Upstreams before and after (after = before for drift). */
  from: string[];
  to: string[];
  /** For drift: why it was not followed. */
  reason?: string;
  /**
   * For drift, set by status only (never stored): true when that drift is over because
   * /etc/resolv.conf is K2s DNS's own file again, so the change is told in the past.
   */
  ended?: boolean;
  /**
   * For drift by the follower's file or owner rule (shared/network-writer.ts resolverFileRefusal,
   * resolverOwnerRefusal): the file it judged — uid, gid, mode (st_mode & 0o7777) and the sha256
   * (hex) of its bytes — so a later look can tell that its owner or mode was fixed since.
   */
  judged?: { uid: number; gid: number; mode: number; sha256: string };
  /**
   * For followed: the follower had refused these very bytes for their owner or mode, and follows
   * them now that the owner or mode was fixed (walk 9 H1, L6). `refusedAt` is the refusal's time
   * (ISO-8601), `problem` what failed then (`writable by every user (mode 0666)`), `fix` what
   * changed (`mode fixed to 0664`).
   */
  fixed?: { refusedAt: string; problem: string; fix: string };
  /**
   * For followed: `kept` when the proxy's config renders to the same bytes (only the file's search
   * list, or options the engine's config does not carry, changed), so the running engine was left
   * as it is (same PID, cache kept); `restarted` when the new config was written and the engine
   * restarted. Absent in a record written before this field.
   */
  proxy?: 'kept' | 'restarted';
  /**
   * For followed: the exact query log's companion was restarted by this follow — `why`: it was
   * marked failed (`failed`: /run/k2s/capture.failed) or the plan's ports changed (`ports`); `ok`:
   * its start returned (false: the follower's log has its error). Absent when it was not touched.
   */
  capture?: { why: 'failed' | 'ports'; ok: boolean };
  /**
   * For drift, set by status only (never stored): the stored `reason` is no longer true of the
   * file at /etc/resolv.conf now (its owner, mode or bytes changed since the follower judged it);
   * what is true now, a clause (networkChangeNowWords). The stored reason is then told as past,
   * without its fix (walk 9 H1: a printed chmod fix repeated after it was run).
   */
  now?: string;
}

/** Saved original vs current /etc/resolv.conf. */
export interface ResolverDiff {
  /** null when no original is saved (K2s DNS never started), or when this user cannot see it (`savedUnknown`, `savedRootOnly`). */
  saved: ResolverEntry | null;
  /**
   * Set when this user cannot look in root's 0700 state directory and nothing says a copy is
   * saved there (the proxy is not running, /etc/resolv.conf is not K2s's): one sentence saying
   * nothing is saved as far as this user can tell, and how to be sure. Absent otherwise.
   */
  savedUnknown?: string;
  /**
   * Set when a start saved a copy (k2s-dnsproxy runs, or /etc/resolv.conf is K2s's) in root's 0700
   * state directory and this user is not root: one sentence naming the file, why it cannot be
   * shown, and how to run the diff as root (code STATE_UNREADABLE). `saved` and `savedText` are
   * null and `identical` false then; `current` is the file as it is now. Absent otherwise.
   */
  savedRootOnly?: string;
  current: ResolverEntry;
  /** Text of the saved file, or of the saved link's target; null when none. */
  savedText: string | null;
  currentText: string | null;
  /** True when kind, bytes / link target, mode and owner all match. */
  identical: boolean;
  /**
   * One line per metadata change, e.g. `mode 0644 → 0640`, `symlink → regular file`, then one
   * per saved nameserver past glibc's MAXNS (not an upstream).
   */
  changes: string[];
}

/** Cluster health as the Cluster panel shows it. */
export interface ClusterStatus {
  state: 'ok' | 'unreachable' | 'unauthorized' | 'no-kubeconfig' | 'error';
  /** One sentence: what is wrong and what to do, or a summary when ok. */
  message: string;
  kubeconfigPath: string | null;
  context: string | null;
  apiServer: string | null;
  /** Kubernetes gitVersion, e.g. `v1.33.3`. */
  version: string | null;
  nodes: { name: string; ready: boolean; kubeletVersion: string }[];
  coreDnsPods: { name: string; ready: boolean; restarts: number; node: string | null }[];
  kubeDnsIp: string | null;
  /**
   * `no-kubeconfig` only: the line that starts this app with a kubeconfig, as this install runs
   * it (shared/fix.ts appKubeconfigCommand: `k2s-dns app --kubeconfig PATH` where the package is
   * installed, `npm start -- --kubeconfig PATH` in a checkout). The window's Start reason names it.
   */
  appKubeconfigCommand?: string;
  /**
   * `no-kubeconfig` only: the kubeconfig a Start finds by itself as root although this user's
   * lookup finds none (K2s's root-only /etc/kubernetes/admin.conf: electron/core/cluster/kubeconfig-default.ts
   * kubeconfigForSudo). Start stays on, and says it reads this file as root (shared/root-kubeconfig.ts).
   */
  startKubeconfig?: string;
}
