/**
 * The shapes of the health model (health.ts): the hops of the resolution path, the verdict and
 * the whole report. Types only, so shared/types.ts can name a report without importing the
 * model's code. Pure module: no Node or DOM imports.
 */
import type { ResolverMissing } from './resolver-missing';

/** Which part of the path a hop is. */
export type HopKind = 'system' | 'resolver' | 'listener' | 'kube-dns' | 'upstream';

/**
 * What one hop's probe found:
 * - `answer`: NOERROR with records (for an upstream: any DNS reply, it only has to answer);
 * - `nodata`: NOERROR without records (RFC 2308 §2.2);
 * - `nxdomain` / `servfail` / `refused`: that rcode (RFC 1035 §4.1.1);
 * - `timeout`: no reply in time (getaddrinfo's EAI_AGAIN, a temporary failure, is this too);
 * - `unreachable`: nothing listens (ECONNREFUSED / ICMP port unreachable);
 * - `error`: anything else, with the message;
 * - resolver only: `k2s` (K2s-owned, points at a listener), `original`, `foreign` (changed by
 *   another program while K2s ran), `k2s-edited` (K2s header, other nameservers);
 * - `idle`: not on the path now (K2s DNS is stopped), never a failure;
 * - `skipped`: not probed (no address known).
 */
export type HopOutcome =
  | 'answer'
  | 'nodata'
  | 'nxdomain'
  | 'servfail'
  | 'refused'
  | 'timeout'
  | 'unreachable'
  | 'error'
  | 'k2s'
  | 'original'
  | 'foreign'
  | 'k2s-edited'
  | 'idle'
  | 'skipped';

/** One hop of the path with what was asked and what came back. */
export interface HealthHop {
  /** Stable id: `system`, `resolver`, `listener:127.0.0.1:53`, `kube-dns`, `upstream:192.168.1.1`. */
  id: string;
  kind: HopKind;
  /** Where it was asked: `getaddrinfo`, `/etc/resolv.conf`, or the server as `IP:PORT`. */
  target: string;
  /** The name asked (`kubernetes.default.svc.cluster.local`, `.` for an upstream), null for the resolver hop. */
  name: string | null;
  /** Query type asked (`A`, `NS`), null for the resolver hop. */
  type: string | null;
  outcome: HopOutcome;
  /** True when this hop does what the path needs. */
  ok: boolean;
  /** Addresses/records answered, or the resolver's nameservers. */
  answers: string[];
  /** rcode as received, or TIMEOUT/ERROR; null when not a query. */
  rcode: string | null;
  /** One sentence: the probe's error or what is off. */
  reason: string | null;
  /** Round-trip time in ms, null when not a query. */
  latencyMs: number | null;
  /**
   * Resolver hop with outcome `original` only: true when no original is saved (no K2s state):
   * the file is then the host's own, not a saved original (walk 9 L4; shared/health.ts
   * resolverOwnerWords). Absent otherwise.
   */
  hostOwn?: boolean;
  /**
   * Resolver hop only: why start would refuse this file as the original (HostDnsStatus.startRefusal,
   * preflight NOT_RESOLVER_FILE: "the new file is not text (it holds NUL bytes)"). A stopped host's
   * own file start refuses is never drawn ✓ (walk 9 L2: doctor calls it an error). Absent otherwise.
   */
  startRefusal?: string;
  /**
   * Resolver hop with outcome `original` only: what makes the host's own file one a user could
   * write (HostDnsStatus.resolverWritable: `writable by every user (mode 0666)`): drawn `!`, never
   * ✓, and named in the hop's line (walk 11 L8). Absent otherwise.
   */
  writable?: string;
  /**
   * Resolver hop only: /etc/resolv.conf resolves to no file (absent, or a dangling symlink;
   * HostDnsStatus.resolverMissing), so glibc asks 127.0.0.1:53 (resolv.conf(5)); said as missing,
   * never as a file with no nameserver line (walk 10 M5). Absent otherwise.
   */
  missing?: ResolverMissing;
  /**
   * kube-dns hop only: where its address came from. `discovered`: read from the cluster's DNS
   * Service at start (the saved state's kube-dns ClusterIP); `default`: K2s's default
   * (shared/k2s-paths.ts K2S_DEFAULTS.kubeDnsIp), as nothing was discovered, with `why` in a
   * few words (`no kubeconfig`); `unread`: K2s's default too, as start's address is in a saved
   * state this user cannot read (`why` says so) — it was discovered, just not seen here;
   * `cluster`: K2s DNS is stopped and the window's cluster discovery (the Cluster card's, `zones:list`)
   * read this ClusterIP from the cluster. The hop's title says a default as one, and a cluster read
   * as one (kubeDnsDefaultWords). Absent on other hops.
   */
  addressFrom?: { source: 'discovered' | 'default' | 'unread' | 'cluster'; why: string | null };
  /**
   * Listener and upstream hops only: the proxy config file (`/etc/k2s/dnsproxy.yaml`) whose
   * listeners or default upstreams this hop probes, for a user who cannot read root's saved
   * state while K2s DNS runs (HostDnsStatus.configFacts; check-health.ts pathTargets). Absent:
   * the target is the saved state's.
   */
  fromConfig?: string;
}

/** Why cluster names do (not) resolve; one code per verdict, in path order. */
export type HealthCause =
  | 'ok'
  | 'ok-without-k2s'
  | 'upstream-down'
  | 'busy'
  | 'interrupted'
  | 'state-corrupt'
  | 'stopped'
  | 'original-back'
  | 'resolver-not-k2s'
  | 'drift'
  | 'no-nameserver'
  | 'proxy-down'
  | 'proxy-routing'
  | 'coredns-down'
  | 'coredns-answer'
  | 'coredns-loop'
  | 'system-resolver';

/**
 * The action that fixes a cause. The front end turns it into its own words: the GUI into a
 * button or a step (fixText(…, 'gui')), the CLI into a command (fixText(…, 'cli')).
 * `replace-resolver`: K2s DNS is stopped and start would refuse /etc/resolv.conf as it is
 * (NOT_RESOLVER_FILE, HostDnsStatus.startRefusal): start's own fix, replace the file, never a start.
 * `stop`: the saved original is back and k2s-dnsproxy stopped by another program (cause
 * `original-back`): a plain stop finishes K2s DNS's stop over the user's own file.
 */
export type HealthAction = 'stop' | 'start' | 'restart' | 'restore' | 'recover' | 'wait' | 'wait-watchdog' | 'check-coredns' | 'fix-coredns-loop' | 'check-upstream' | 'check-nsswitch' | 'restore-via' | 'fix-resolver' | 'check-network' | 'replace-resolver';

/** The verdict: does a cluster name resolve for host apps, and if not, where and why. */
export interface HealthVerdict {
  /** `ok`: resolves through K2s DNS; `warn`: resolves but something is off, or busy; `error`: does not resolve; `off`: K2s DNS is stopped. */
  level: 'ok' | 'warn' | 'error' | 'off';
  /** True when getaddrinfo answered the cluster name. */
  resolves: boolean;
  cause: HealthCause;
  /** The hop where the path breaks (its failure is not explained by a later hop), null when none. */
  hopId: string | null;
  /** One line for people, e.g. "Cluster names do not resolve on this host: CoreDNS (172.21.0.10:53) does not answer". */
  summary: string;
  /** The fix, or null when nothing is to do. */
  action: HealthAction | null;
  /**
   * Only on a drift verdict (action `restore` or `restore-via`) whose default is Restore my
   * original, as the drift banner's (shared/drift-default.ts keepRisk): `words`, the banner's
   * warning against Keep their file (keepRiskWords); `stopRestores`, true when a plain `stop`
   * restores too (electron/core/lifecycle/teardown.ts restoreByDefault: every risk but `dead`,
   * which only the banner judges from the health check); `gone`: when /etc/resolv.conf was
   * deleted or left a dangling link, how (HostDnsStatus.driftGone: `deleted`…), else null (stop
   * puts the saved original back whatever the choice); `refused`: why the network follower refused
   * their file (shared/drift-default.ts followerRefusal, e.g. "it is writable by every user (mode
   * 0666)"), else null: then Keep their file is printed as a stop only, with no start chained
   * (a start would save that refused file as the original); `startRefuses`: true when a start
   * after Keep their file would refuse that file instead (NOT_RESOLVER_FILE,
   * HostDnsStatus.startRefusal: NUL bytes…), so the fix says that, not that start saves it.
   * `short`: the same risk in one clause (shared/drift-default.ts keepRiskShort), which the
   * verdict's fix says; the long `words` are said once where the choice is (the banner, status's
   * note, doctor's meaning: walk 9 M3). Absent when Keep their file is the default. verdictFix
   * turns it into the fix's words. `outcome`: what Keep leaves without why the follower refused
   * the file (keepRiskOutcome), status's note when the follower's note already says why.
   * `ownerFix`: their file was refused for its owner or mode only, with the follow policy: the
   * command line that makes it pass (HostDnsStatus.driftOwnerFix), which keeps K2s DNS running;
   * verdictFix offers it first (walk 11 M3).
   */
  keepRisk?: { words: string; outcome?: string; short?: string; stopRestores: boolean; gone: string | null; refused?: string | null; startRefuses?: boolean; ownerFix?: string } | null;
  /**
   * Only with action `check-coredns`: the kube-dns ClusterIP the check probed (the kube-dns hop's
   * address, e.g. `172.21.0.10`), so the CLI fix routes to it as printed (verdictFix).
   */
  kubeDnsIp?: string;
  /**
   * Only with action `check-coredns`: the fix's two commands as the user pastes them, built where
   * the check ran (shared/health.ts corednsCommands: kubectlCommand, shellCommand), so they carry
   * the kubeconfig K2s DNS uses and the sandbox's wrapper of that runtime: `logs`, the CoreDNS
   * pods' log (`kubectl --kubeconfig PATH -n kube-system logs -l k8s-app=kube-dns`); `route`, the
   * route to the ClusterIP (`ip route get 172.21.0.10`), null when no ClusterIP is known. The
   * window cannot build them (its renderer knows neither): its fix shows these (walk 10 H1).
   */
  corednsCommands?: { logs: string; route: string | null };
  /**
   * Only with action `fix-resolver` or `replace-resolver`: how to get a resolver file into
   * /etc/resolv.conf, as the runtime where the check ran words it (shared/fix.ts
   * resolverFileWays: in the sandbox a command through its wrapper), so the window's fix, whose
   * renderer knows no wrapper, says what the CLI says (walk 11 M1).
   */
  resolverWays?: string;
  /**
   * Only with action `check-network` or `check-upstream`: the upstream hops' targets (`IP:PORT`,
   * e.g. `192.0.2.53:53`) that did not answer, so the CLI fix checks a real one and its override
   * names none of them (shared/health.ts checkNetworkCli; walk 7 M4: no placeholder line).
   */
  silentUpstreams?: string[];
}

/** The whole check: hops in path order, the verdict, and when it ran. */
export interface HealthReport {
  /** The cluster name probed, `kubernetes.default.svc.<cluster domain>`. */
  name: string;
  /** Where the cluster domain came from: the saved start state, discovery, or the kubeadm default. */
  domainSource: 'state' | 'discovery' | 'default';
  hops: HealthHop[];
  verdict: HealthVerdict;
  /** ms since the epoch when the check finished. */
  checkedAt: number;
  /** Wall time of the whole check in ms. */
  durationMs: number;
  /**
   * statusFingerprint of the host DNS status the check ran for (set by the backend's health
   * cache): a window whose status has another fingerprint knows this verdict is about a host
   * state that is gone.
   */
  forStatus?: string;
  /**
   * HostDnsStatus.resolverStamp of the /etc/resolv.conf the check read (null: not known): a hop
   * result is about that file only, so a front end compares it with the status's stamp before
   * it judges the file by it (e.g. the drift banner: does their file's nameserver answer?).
   */
  forResolver?: string | null;
  /**
   * The nameservers of the other program's /etc/resolv.conf (drift, K2s DNS running), each
   * asked `. NS` now unless it is one of K2s DNS's listeners (shared/drift-default.ts
   * silentAfterStop: the drift default's one rule); absent without drift.
   */
  theirNameservers?: AfterStopAnswer[];
  /**
   * Set by the backend's health cache on a report it hands out while a new check runs because
   * this one is older than the check cadence (shared/cadence.ts; e.g. no window asked for a while
   * during an outage): the last known verdict, not a current one. A window shows it as such
   * ("last known at …, checking again") until the new report arrives.
   */
  rechecking?: true;
}

/**
 * One nameserver of the other program's file as it stands once K2s DNS is stopped: `own` when it
 * is one of K2s DNS's listeners (shared/listener-reach.ts: nothing answers there after stop),
 * otherwise `answered` says whether it replied to a query asked now (any rcode is a reply;
 * TIMEOUT or ERROR is none).
 */
export interface AfterStopAnswer {
  nameserver: string;
  own: boolean;
  answered?: boolean;
}
