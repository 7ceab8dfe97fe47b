/**
 * The saved-state file at K2S_PATHS.stateFile: the exact original /etc/resolv.conf plus what
 * the running proxy was started with. Pure (no Node imports) so the renderer can show it.
 */
import type { EngineName, Listener, NetworkChangeView, ProxyPlan, ResolverEntry } from './types';
import type { ResolvedRoute } from './resolved-link';
import { ENGINE_NAMES, isEngineName } from './engines/table';

/**
 * Contents of /var/lib/k2s/dns-resolver-state.json. `writtenBy: 'k2s-cli'` marks a file written by
 * K2s's own Go CLI, converted on read (only `resolvConf` is meaningful then).
 */
export interface ResolverStateFile {
  version: 1;
  writtenBy: 'k2s-dns' | 'k2s-cli';
  /** ISO-8601 time the original was saved. */
  savedAt: string;
  resolvConf: ResolverEntry;
  upstreams: string[];
  /**
   * True when the systemd-resolved drop-in of earlier versions was written (remove it on stop).
   * Current versions write none (shared/resolved-link.ts) and keep it false.
   */
  resolvedDropIn: boolean;
  /** The routing-only systemd-resolved link start set up (revert it on stop); absent/null where none. */
  resolvedRoute?: ResolvedRoute | null;
  engine: EngineName | null;
  listeners: Listener[];
  skippedListeners: { address: string; reason: string }[];
  clusterDomain: string | null;
  kubeDnsIp: string | null;
  kubernetesServiceIp: string | null;
  /** sha256 (hex) of the K2s-owned resolv.conf we wrote, to detect drift. */
  managedResolvConfSha256: string | null;
  /**
   * sha256 (hex) of the K2s-owned resolv.conf a follow is writing now (follow.ts): saved before
   * the file is replaced and dropped once the follow ends, so a reader in between (status, the
   * window, a stop after a crash) takes either file as K2s's (isK2sWrittenSha), never as an edit.
   */
  pendingManagedResolvConfSha256?: string | null;
  /**
   * st_ino of the K2s-owned resolv.conf K2s wrote last (start, a follow): a regular file there
   * with this inode was rewritten in place (`printf … > /etc/resolv.conf`), another inode is a
   * new file renamed over it (NetworkManager, resolvconf). Absent in state files of earlier versions.
   */
  managedResolvConfIno?: number | null;
  /**
   * Birth time (statx(2) stx_btime, ms since the epoch) of that same file, or null when its file
   * system keeps none: a file at the same inode number born at another time is a new file that
   * got the freed number again (a `mv` over it), not a write in place (follow.ts fileWriteHow).
   * Absent in state files of earlier versions.
   */
  managedResolvConfBirthMs?: number | null;
  /** The kubeconfig start used, so zones/doctor/the app default to the same cluster. */
  kubeconfigPath?: string | null;
  /**
   * The options the start that runs was asked for and that nothing else here records (absent
   * field: its default), so a printed fix starts K2s DNS again as it ran (shared/running-start.ts).
   * Absent in state files of earlier versions.
   */
  startedWith?: StartedWith;
  // --- zone policy ---
  /** Zones the user allowed past the zone policy (`--allow-zone`, the Zones panel toggle). */
  allowedZones?: string[];
  // --- following the network (electron/core/lifecycle/follow.ts) ---
  /** What a new resolver file the network writes while K2s runs does: follow (default) or keep (drift). */
  onNetworkChange?: NetworkChangePolicy;
  /** The proxy plan start ran with, so a follow can restart the engine with new upstreams only. */
  plan?: ProxyPlan | null;
  /** Binary of the engine start ran (host path), for the same restart. */
  engineBinary?: string | null;
  /** nameserver line of the K2s-owned resolv.conf (127.0.0.1, or the stub/KubeSwitch address where resolved runs). */
  managedNameserver?: string | null;
  /** The last network change seen while running: followed, or left as drift with why. */
  lastNetworkChange?: NetworkChange | null;
  /**
   * The follow that made the saved copy (its `at` is `savedAt`): kept when a later change that
   * was not followed replaces lastNetworkChange, so stop still names the file it restores.
   */
  followedChange?: NetworkChange | null;
}

/**
 * What a start was asked for beyond what the state records otherwise (the network-change policy,
 * the allowed zones and the engine that runs are their own fields): `engine` the one asked for
 * (absent: Automatic), `kubeSwitch` (`--kubeswitch`), `upstreams` (`--upstream`, absent: the
 * saved resolver's nameservers), `verifyName`, `dnsproxyPath` (`--dnsproxy`), `logQueries`
 * (false: `--no-log-queries`), `allowZones` the zones asked to allow (`--allow-zone`, the Zones
 * panel's allows: `allowedZones` keeps only those that forwarded a zone; absent in state files of
 * earlier versions). The values as shared/operation-input.ts START_FIELDS accepts them.
 */
export interface StartedWith {
  engine?: EngineName;
  kubeSwitch?: string;
  upstreams?: string[];
  verifyName?: string;
  dnsproxyPath?: string;
  logQueries?: boolean;
  allowZones?: string[];
}

/** The `--on-network-change` policy. */
export type NetworkChangePolicy = 'follow' | 'keep';

/** One network change seen while K2s ran (the one shape status and the app show: types.ts). */
export type NetworkChange = NetworkChangeView;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/**
 * Whether `sha` (hex sha256 of the K2s-owned resolv.conf's bytes) is one K2s wrote: the stored
 * one, or the one a follow is writing now (pendingManagedResolvConfSha256).
 */
export function isK2sWrittenSha(state: Pick<ResolverStateFile, 'managedResolvConfSha256' | 'pendingManagedResolvConfSha256'>, sha: string | null): boolean {
  return sha !== null && (sha === state.managedResolvConfSha256 || sha === (state.pendingManagedResolvConfSha256 ?? null));
}

/** Checks a ResolverEntry from JSON; returns a reason string when invalid, null when valid. */
export function resolverEntryProblem(v: unknown): string | null {
  if (!isObj(v)) return 'resolvConf is not an object';
  switch (v.kind) {
    case 'absent':
      return null;
    case 'file':
      if (!isStr(v.contentBase64)) return 'resolvConf.contentBase64 is missing';
      if (!isInt(v.mode) || v.mode > 0o7777) return 'resolvConf.mode is not a permission number';
      if (!isInt(v.uid) || !isInt(v.gid)) return 'resolvConf.uid/gid are not numbers';
      if (typeof v.immutable !== 'boolean') return 'resolvConf.immutable is not a boolean';
      return null;
    case 'symlink':
      if (!isStr(v.target) || v.target === '') return 'resolvConf.target is empty';
      if (!isInt(v.uid) || !isInt(v.gid)) return 'resolvConf.uid/gid are not numbers';
      if (typeof v.dangling !== 'boolean') return 'resolvConf.dangling is not a boolean';
      if (!isStrOrNull(v.targetContentBase64)) return 'resolvConf.targetContentBase64 is not a string';
      return null;
    default:
      return `resolvConf.kind "${String(v.kind)}" is not file, symlink or absent`;
  }
}

/** Validates this app's own state-file shape (version 1); returns a reason string or null. */
export function stateFileProblem(v: unknown): string | null {
  if (!isObj(v)) return 'the top level is not a JSON object';
  if (v.version !== 1) return `version ${JSON.stringify(v.version)} is not 1`;
  if (v.writtenBy !== 'k2s-dns' && v.writtenBy !== 'k2s-cli') return 'writtenBy is not k2s-dns or k2s-cli';
  if (!isStr(v.savedAt)) return 'savedAt is missing';
  const entry = resolverEntryProblem(v.resolvConf);
  if (entry) return entry;
  if (!Array.isArray(v.upstreams) || !v.upstreams.every(isStr)) return 'upstreams is not a list of strings';
  if (typeof v.resolvedDropIn !== 'boolean') return 'resolvedDropIn is not a boolean';
  if (v.engine !== null && !isEngineName(v.engine)) return `engine is not ${ENGINE_NAMES.join(', ')} or null`;
  if (!Array.isArray(v.listeners) || !v.listeners.every((l) => isObj(l) && isStr(l.address) && isInt(l.port)))
    return 'listeners is not a list of {address, port}';
  if (!Array.isArray(v.skippedListeners) || !v.skippedListeners.every((l) => isObj(l) && isStr(l.address) && isStr(l.reason)))
    return 'skippedListeners is not a list of {address, reason}';
  if (v.kubeconfigPath !== undefined && !isStrOrNull(v.kubeconfigPath)) return 'kubeconfigPath is not a string or null';
  if (v.resolvedRoute !== undefined && v.resolvedRoute !== null) {
    const r = v.resolvedRoute;
    if (!isObj(r) || !isStr(r.link) || !/^[A-Za-z0-9_.:-]{1,15}$/.test(r.link) || !isStr(r.address) || !Array.isArray(r.domains) || r.domains.length > 1000 || !r.domains.every((d) => isStr(d) && /^~[a-z0-9_.-]{1,253}$/.test(d)))
      return 'resolvedRoute is not {link, address, domains}';
  }
  if (v.allowedZones !== undefined && !(Array.isArray(v.allowedZones) && v.allowedZones.length <= 1000 && v.allowedZones.every((z) => isStr(z) && z.length <= 253)))
    return 'allowedZones is not a list of at most 1000 zone names';
  if (v.onNetworkChange !== undefined && v.onNetworkChange !== 'follow' && v.onNetworkChange !== 'keep') return 'onNetworkChange is not follow or keep';
  if (v.plan !== undefined && v.plan !== null && !(isObj(v.plan) && Array.isArray(v.plan.upstreams) && Array.isArray(v.plan.listeners) && Array.isArray(v.plan.zones)))
    return 'plan is not a proxy plan';
  if (v.startedWith !== undefined) {
    const w = v.startedWith;
    if (!isObj(w)) return 'startedWith is not an object';
    if (w.engine !== undefined && !isEngineName(w.engine)) return `startedWith.engine is not ${ENGINE_NAMES.join(', ')}`;
    for (const k of ['kubeSwitch', 'verifyName', 'dnsproxyPath'] as const) {
      if (w[k] !== undefined && !(isStr(w[k]) && w[k].length <= 4096)) return `startedWith.${k} is not a string`;
    }
    if (w.upstreams !== undefined && !(Array.isArray(w.upstreams) && w.upstreams.length <= 32 && w.upstreams.every((u) => isStr(u) && u.length <= 64))) return 'startedWith.upstreams is not a list of at most 32 upstreams';
    if (w.logQueries !== undefined && typeof w.logQueries !== 'boolean') return 'startedWith.logQueries is not a boolean';
    if (w.allowZones !== undefined && !(Array.isArray(w.allowZones) && w.allowZones.length <= 1000 && w.allowZones.every((z) => isStr(z) && z.length <= 253))) return 'startedWith.allowZones is not a list of at most 1000 zone names';
  }
  if (v.managedResolvConfIno !== undefined && v.managedResolvConfIno !== null && !isInt(v.managedResolvConfIno)) return 'managedResolvConfIno is not an inode number or null';
  if (v.managedResolvConfBirthMs !== undefined && v.managedResolvConfBirthMs !== null && !(typeof v.managedResolvConfBirthMs === 'number' && Number.isFinite(v.managedResolvConfBirthMs) && v.managedResolvConfBirthMs > 0)) return 'managedResolvConfBirthMs is not a time in ms or null';
  for (const k of ['engineBinary', 'managedNameserver', 'pendingManagedResolvConfSha256'] as const) {
    if (v[k] !== undefined && !isStrOrNull(v[k])) return `${k} is not a string or null`;
  }
  for (const k of ['clusterDomain', 'kubeDnsIp', 'kubernetesServiceIp', 'managedResolvConfSha256'] as const) {
    if (!isStrOrNull(v[k])) return `${k} is not a string or null`;
  }
  return null;
}
