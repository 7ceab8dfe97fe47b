/**
 * What the Node side needs of one engine (electron/core/engines/table.ts holds one per name of
 * the shared engine table, shared/engines/table.ts).
 */
import type { ProxyPlan } from '../../../shared/types';
import type { DnsmasqDrop } from '../../../shared/dnsmasq-config';
import type { ProxyConfigFacts } from '../../../shared/proxy-config-facts';

/** The account an engine that drops root by its own option switches to (dnsmasq `--user`), with start's warning. */
export type SelfDrop = DnsmasqDrop;

/** Binary paths a Start may pass (StartOptions); each engine reads its own. */
export interface BinaryOptions {
  dnsproxyPath?: string;
  dnsmasqPath?: string;
  installDir?: string;
}

/** One engine's config file, renderer, command line and service account. */
export interface EngineRuntime {
  /** Host path of its config file (under /etc/k2s). */
  configPath: string;
  /**
   * The config text for `plan`; rejects when the engine could not serve it (start: PROXY_CONFIG).
   * Asynchronous so that an engine's renderer (and its packages) loads only when a start needs it.
   */
  renderConfig(plan: ProxyPlan): Promise<string>;
  /** Host path of its binary for these options (an explicit path, else the default). */
  binaryOf(opts: BinaryOptions): string;
  /** NO_ENGINE message when it was asked for and `binary` is not an executable file. */
  missingText(binary: string): string;
  /** What to install to get it, for the NO_ENGINE message when no engine exists. */
  installText: string;
  /**
   * argv after the binary: `config` the config's real path, `listenAddresses` every listener's
   * address (an engine that reads them from the config ignores them), `drop` selfDrop's account
   * (null for an engine without selfDrop).
   */
  args(config: string, verbose: boolean, listenAddresses: readonly string[], drop: SelfDrop | null): string[];
  /**
   * For an engine that drops root by its own option: the account to drop to on a host whose
   * /etc/passwd reads `passwdText`. null when it does not (runAs, or it stays root).
   */
  selfDrop: ((passwdText: string) => SelfDrop) | null;
  /** `argv` (binary + args) changed to serve only `addresses` (a second unit's share, lateListenersFor). */
  onlyListeners(argv: readonly string[], addresses: readonly string[]): string[];
  /** Account the service manager runs it as; null when it drops root itself (or runs as root). */
  runAs: { user: string; group: string } | null;
  /**
   * The kube-dns address its config text (as renderConfig wrote it) sends the cluster zones to,
   * `IP` or `IP:PORT` (shared/zone-server.ts); null when the text names none.
   */
  zoneServer(configText: string): string | null;
  /**
   * The listeners, default upstreams and zones its config text (as renderConfig wrote it) names
   * (shared/proxy-config-facts.ts, loaded on call: its yaml package costs every other command);
   * null when the text is no such config.
   */
  configFacts(configText: string): Promise<ProxyConfigFacts | null>;
}
