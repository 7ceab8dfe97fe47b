import type { EngineName } from '../../../shared/types';
import type { StartInput } from '../../../shared/operation-input';
import type { NetworkChangePolicy, ResolverStateFile, StartedWith } from '../../../shared/state-file';
import { runningStartFlags } from '../../../shared/running-start';
import type { StartFlag } from '../../../shared/start-flag';
import { asRootStartWays, cliStartCommand } from '../../../shared/fix';

/** Options of `start`; every field has a documented default. */
export interface StartOptions {
  /** Kubeconfig chosen by findKubeconfig; null refuses the start (NO_KUBECONFIG). */
  kubeconfigPath: string | null;
  /** What findKubeconfig tried, for the NO_KUBECONFIG message. */
  kubeconfigLookup?: { tried: string[]; explicit: boolean };
  /** Default: adguard when its binary exists, else dnsmasq, else refused (NO_ENGINE). */
  engine?: EngineName;
  /**
   * True when `engine` was asked for this start on purpose (the CLI's `--engine`), not a stored
   * preference (the window's Engine select, sent with every Start): a running K2s DNS with
   * another engine then refuses the start (RUNNING_OTHER_OPTIONS, start.ts otherOptions).
   */
  engineExplicit?: boolean;
  /**
   * True when this start came through the CLI (startOptionsOf's `cli` door): its `kubeSwitch` and
   * `allowZones` were typed for this start, so a running K2s DNS with others refuses it
   * (RUNNING_OTHER_OPTIONS, start.ts otherOptions). The window sends its stored KubeSwitch choice
   * and the Zones panel's allows with every Start: never compared.
   */
  cliDoor?: boolean;
  /** AdGuard dnsproxy binary (host path). Default `<installDir>/bin/dnsproxy`. */
  dnsproxyPath?: string;
  /** dnsmasq binary (host path). Default /usr/sbin/dnsmasq (Debian dnsmasq-base). */
  dnsmasqPath?: string;
  /** K2s install dir. Default K2S_DEFAULTS.installDir. */
  installDir?: string;
  /** KubeSwitch listener address, or 'none'. Default 172.19.1.1 when assigned on the host. */
  kubeSwitch?: string;
  /** Default upstreams to use instead of the saved resolver's nameservers. */
  upstreams?: string[];
  /** External name verify resolves through the proxy and an upstream. Default kubernetes.io. */
  verifyExternalName?: string;
  /** Deadline for the proxy to answer on every listener, ms. Default READY_TIMEOUT_MS (start.ts). */
  readyTimeoutMs?: number;
  /** Log every query (dnsproxy -v, dnsmasq log-queries). Default true: the log viewer shows them. */
  logQueries?: boolean;
  /** Zones the zone policy refused that the user forwards anyway (`--allow-zone`). */
  allowZones?: string[];
  /** A new resolver file the network writes while running: follow (default) or keep as drift (follow.ts). */
  onNetworkChange?: NetworkChangePolicy;
}

/** What stop does when someone else changed /etc/resolv.conf while K2s ran. */
export type DriftChoice = 'keep' | 'restore';

/** Options of `stop` and `uninstall`. */
export interface StopOptions {
  /**
   * keep (default): leave the file someone else wrote (NetworkManager, a DHCP client) — it is
   * newer than our saved original. restore: put the saved original back anyway. Absent:
   * keep, except when their file names no nameserver but the proxy's (driftRoute().keepLeavesNone,
   * shared/drift-route.ts): keeping it would leave no DNS, so the original is restored.
   */
  onDrift?: DriftChoice;
  /**
   * Which saved copy a restore puts back: newest (default) the saved original (after a follow,
   * the network's newest file); start the file in place at Start (host/start-copy.ts), which
   * also restores over a drifted file unless `onDrift` is keep.
   */
  restore?: RestoreChoice;
  /**
   * Internal: the network follower runs this stop itself, because K2s's own `k2s stop` put the
   * saved original back and stopped the proxy (follow-main.ts). Its own unit is left out of the
   * proxy's stop job (its link still goes): it ends by returning once the stop is done.
   */
  byFollower?: boolean;
  /**
   * Internal, with `byFollower`: the state file as the follower last read or saved it, used when
   * the file is gone (K2s's own `k2s uninstall` removes it right after it stops the proxy), so the
   * original still goes back with its owner and mode, and the systemd-resolved route is reverted.
   */
  heldState?: ResolverStateFile;
  /**
   * Internal: the network follower was SIGKILLed after this many ms because its follow did not end
   * (companions.ts lockPastFollower): a proxy found not running had stopped in that follow's
   * restart of it, and stop-service says so rather than "was not running".
   */
  followKilledAfterMs?: number;
}

/** `--restore`: which saved copy stop puts back. */
export type RestoreChoice = 'newest' | 'start';

/** The kubeconfig lookup's result, as startOptionsOf takes it (electron/core/cluster/kubeconfig.ts). */
export interface KubeconfigFound {
  path: string | null;
  tried: string[];
  explicit: boolean;
}

/**
 * The door a Start came through, for what its engine means: `cli` (`k2s-dns start --engine E`:
 * asked for this start) or `window` (the app through its helper: the Engine select's stored
 * preference, sent with every Start).
 */
export type StartDoor = 'cli' | 'window';

/**
 * THE one conversion of a Start input (shared/operation-input.ts, whichever door it came
 * through) into the lifecycle's StartOptions: `found` is the kubeconfig lookup's result (the
 * input's `kubeconfig`, if any, was the lookup's explicit path). Absent fields keep their
 * defaults. An engine from the `cli` door is explicit (StartOptions.engineExplicit), and the
 * start is marked as the CLI's (StartOptions.cliDoor).
 */
export function startOptionsOf(input: StartInput, found: KubeconfigFound, door: StartDoor = 'window'): StartOptions {
  return {
    kubeconfigPath: found.path,
    kubeconfigLookup: found,
    ...(door === 'cli' ? { cliDoor: true } : {}),
    ...(input.engine ? { engine: input.engine, ...(door === 'cli' ? { engineExplicit: true } : {}) } : {}),
    ...(input.dnsproxyPath !== undefined ? { dnsproxyPath: input.dnsproxyPath } : {}),
    ...(input.kubeSwitch !== undefined ? { kubeSwitch: input.kubeSwitch } : {}),
    ...(input.upstreams !== undefined ? { upstreams: input.upstreams } : {}),
    ...(input.verifyName !== undefined ? { verifyExternalName: input.verifyName } : {}),
    ...(input.logQueries !== undefined ? { logQueries: input.logQueries } : {}),
    ...(input.allowZones?.length ? { allowZones: input.allowZones } : {}),
    ...(input.onNetworkChange !== undefined ? { onNetworkChange: input.onNetworkChange } : {}),
  };
}

/**
 * What the state file keeps of a start's options (shared/state-file.ts StartedWith): the fields
 * given, so a printed fix can start K2s DNS again as it ran (shared/running-start.ts).
 */
export function startedWithOf(opts: StartOptions): StartedWith {
  return {
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(opts.kubeSwitch !== undefined ? { kubeSwitch: opts.kubeSwitch } : {}),
    ...(opts.upstreams?.length ? { upstreams: opts.upstreams } : {}),
    ...(opts.verifyExternalName !== undefined ? { verifyName: opts.verifyExternalName } : {}),
    ...(opts.dnsproxyPath !== undefined ? { dnsproxyPath: opts.dnsproxyPath } : {}),
    ...(opts.logQueries !== undefined ? { logQueries: opts.logQueries } : {}),
    ...(opts.allowZones?.length ? { allowZones: opts.allowZones } : {}),
  };
}

/**
 * The root `start` line that starts K2s DNS again as `opts` asks (shared/running-start.ts
 * runningStartFlags of what the start records: its startedWith, the zones allowed and the
 * network-change policy, which a resumed start keeps from `existing`), as shared/fix.ts
 * cliStartCommand writes it. What a start prints names this line, not a bare `start` (sixth walk
 * M1: the RESOLV_CONF_WRITABLE fix of a `start --engine dnsmasq --verify-name …` said `start`
 * only, and run as printed brought AdGuard back): that fix, the watchdog's give-up line.
 */
export function startLineOf(opts: StartOptions, existing: Pick<ResolverStateFile, 'allowedZones' | 'onNetworkChange'> | null = null): string {
  return cliStartCommand(startFlagsOf(opts, existing));
}

/** The flags of startLineOf's line. */
function startFlagsOf(opts: StartOptions, existing: Pick<ResolverStateFile, 'allowedZones' | 'onNetworkChange'> | null = null): StartFlag[] {
  const allowedZones = [...new Set([...(opts.allowZones ?? []), ...(existing?.allowedZones ?? [])])];
  return runningStartFlags({ engine: null, listeners: [], skippedListeners: [], allowedZones, onNetworkChange: opts.onNetworkChange ?? existing?.onNetworkChange ?? 'follow', startedWith: startedWithOf(opts) });
}

/**
 * The root `start` line of the options `opts` asked for (startLineOf without a state), for the
 * RUNNING_OTHER_OPTIONS fix and NOT_ROOT's "run it as root": an engine only when asked on
 * purpose (`engineExplicit`, the CLI's `--engine`): the window's stored preference is not an
 * option to repeat there.
 */
export function askedStartLine(opts: StartOptions): string {
  if (opts.engineExplicit) return startLineOf(opts);
  const { engine: _preference, ...asked } = opts;
  return startLineOf(asked);
}

/**
 * askedStartLine's start as NOT_ROOT's clause "run it …": asRootStartWays, so `su -c '…'` is
 * offered beside sudo (a minimal Debian has no sudo).
 */
export function askedStartWays(opts: StartOptions): string {
  if (opts.engineExplicit) return asRootStartWays(startFlagsOf(opts));
  const { engine: _preference, ...asked } = opts;
  return asRootStartWays(startFlagsOf(asked));
}
