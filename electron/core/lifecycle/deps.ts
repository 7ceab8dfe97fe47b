import type { Exec } from '../host/exec';
import type { HostFs } from '../host/host-fs';
import type { ServiceManager } from '../host/service-manager';
import type { Follower } from '../host/follower';
import type { CaptureCompanion } from '../host/capture-companion';
import type { ZonePolicyInput } from '../../../shared/corefile-policy';
import type { ClusterDiscovery, QueryResult, QueryType } from '../../../shared/types';

/** One lookup path host programs use (host-paths.ts): a label for messages and how to ask it for `name` within `timeoutMs`. */
export interface HostPath {
  /** e.g. `nss dns (getent -s dns)`, `systemd-resolved (resolvectl query)`, `nameserver 127.0.0.53 (as Go reads /etc/resolv.conf)`. */
  label: string;
  ask(name: string, timeoutMs: number): Promise<QueryResult>;
}

/**
 * Everything the lifecycle touches on the host, injected at the composition root
 * (electron/core/lifecycle/node-deps.ts) so the same code runs on `/` as root, on a temp root in
 * unit tests, and in the e2e sandbox.
 */
export interface LifecycleDeps {
  fs: HostFs;
  exec: Exec;
  services: ServiceManager;
  /**
   * Discovers kube-dns, the Corefile zones and the CIDRs; `policy` is the host side of the zone
   * policy (search domains, user-allowed zones). Throws typed cluster errors.
   */
  discover(kubeconfigPath: string, policy?: ZonePolicyInput): Promise<ClusterDiscovery>;
  /** DNS query to `server` (`IP` or `IP:PORT`); never throws, TIMEOUT/ERROR are results. */
  query(opts: { name: string; type: QueryType; server: string; transport?: 'udp' | 'tcp'; timeoutMs?: number }): Promise<QueryResult>;
  /** getaddrinfo through the system resolver (in-process: verify and the query tester). */
  systemLookup(name: string): Promise<QueryResult>;
  /** Pays systemLookup's first-call costs now, off the path that waits for it (probes/gai-lookup.ts warmLookup); absent: nothing to warm. */
  warmLookup?(): void;
  /**
   * getaddrinfo for the health check's own probe: the name reaches the nameserver with its case
   * as given (electron/core/probes/probe-lookup.ts), so the Logs panel can hide it; `timeoutMs` caps the wait.
   */
  probeLookup(name: string, timeoutMs: number): Promise<QueryResult>;
  /** The system resolver for the query tester: A/AAAA via getaddrinfo, PTR via getnameinfo. */
  systemQuery(name: string, type: QueryType): Promise<QueryResult>;
  /** Whether something accepts a TCP connection on the listener (readiness: dnsmasq and
   * dnsproxy bind TCP and UDP together). Resolves false after `timeoutMs` ms. */
  tcpListening(address: string, port: number, timeoutMs: number): Promise<boolean>;
  /** Addresses assigned to this host's interfaces (for the KubeSwitch listener). */
  hostAddresses(): Promise<string[]>;
  /** Names of this host's network interfaces (for IPv6 `%zone` upstreams). */
  interfaceNames(): Promise<string[]>;
  /**
   * Whether process `pid` runs (exists and is no zombie: its /proc/PID/cmdline is not empty,
   * host/watchdog-restart.ts pidLive); a read of the kernel's table, no process spawned. Absent in temp-root tests (their pids are not this host's).
   */
  processRunning?(pid: number): Promise<boolean>;
  /** Process holding `address:port`, or null (names the holder when the bind fails); `unit`: its system service, when it runs in one. */
  portHolder(port: number, proto: 'udp' | 'tcp', address: string): Promise<{ pid: number; command: string; unit?: string } | null>;
  /** /proc/self/mountinfo text, to detect a bind-mounted resolv.conf. */
  mountinfo(): Promise<string>;
  /**
   * Checks the kubeconfig can be read safely (regular file, size cap, no foreign credential
   * plugin as root: electron/core/cluster/kubeconfig-file.ts). Throws NoKubeconfigError.
   */
  checkKubeconfig(path: string): Promise<void>;
  /**
   * Loads the Kubernetes client's module (@kubernetes/client-node: the largest start loads, ~30 ms
   * of CPU; preflight's kubeconfig check and discover need it). Start calls it before preflight,
   * once the held capture companion's process is begun, so that process's Node start-up runs
   * alongside it. Absent in tests.
   */
  loadClusterClient?(): Promise<void>;
  /**
   * The lookup paths host programs use here besides getaddrinfo and 127.0.0.1 (nss sources,
   * systemd-resolved, each nameserver of /etc/resolv.conf: host-paths.ts), for verify. Absent in
   * temp-root tests, whose host paths would be this machine's.
   */
  lookupPaths?(opts: { resolved: boolean; resolvConfText: string; skip?: string[]; name?: string }): Promise<HostPath[]>;
  /**
   * The network follower (host/follower.ts) and the argv it runs; absent in temp-root tests
   * (there followNetwork is called directly).
   */
  follower?: { manager: Follower; argv: string[] };
  /**
   * Read-only view of the network follower for status in a process that cannot start one (the
   * app's backend, the sandbox: their entry is not the CLI or the helper, so `follower` is absent).
   * Status uses `follower.manager` when present, else this; absent in temp-root tests.
   */
  followerWatch?: Pick<Follower, 'running' | 'pid'>;
  /**
   * The exact query log's companion (host/capture-companion.ts): `argv` is the program before
   * the capture flags (node, entry, CAPTURE_VERB; or the package's launcher and CAPTURE_VERB,
   * capture/capture-program.ts); `tcpdump` where it is installed, null when it
   * is not (start then keeps the engine's own query log). Absent in temp-root tests.
   */
  capture?: { manager: CaptureCompanion; argv: string[]; tcpdump: string | null };
  /** Effective uid (0 = root). */
  uid(): number;
  /** ms since the epoch. */
  now(): number;
  /**
   * Sleeps `ms` ms (injected so tests of bounded waits stay fast); with `signal`, resolves at its
   * abort already, its timer cleared (abortable-sleep.ts): a stopped follower's watch ends then.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
