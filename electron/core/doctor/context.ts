/**
 * What every doctor check may look at, read once per run and never changed: /etc/resolv.conf now,
 * the saved state, the proxy service and the original resolver the proxy would forward to.
 */
import type { LifecycleDeps } from '../lifecycle/deps';
import type { ResolverEntry } from '../../../shared/types';
import type { FrontEnd, HealthReport } from '../../../shared/health';
import type { ResolverStateFile } from '../../../shared/state-file';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { captureResolverWithNotes, readState, sameResolver } from '../host/resolver-state';
import { isManagedEntry, resolverText } from '../lifecycle/preflight';
import { setCliRunningStart } from '../../../shared/fix';
import { runningStartFlags } from '../../../shared/running-start';
import type { SudoLookupHost } from '../cluster/kubeconfig-default';

/** Options of runDoctor; paths are absolute host paths. */
export interface DoctorOptions {
  /** Kubeconfig to check the cluster with; null skips the cluster check (info finding). */
  kubeconfigPath: string | null;
  /**
   * The lookup that gave `kubeconfigPath` (cluster/kubeconfig.ts locateKubeconfig): with
   * `explicit` (--kubeconfig) and no path, the cluster finding is an error naming that file and
   * why (missing, or one this user may not read); absent: none was asked for.
   */
  kubeconfigLookup?: { tried: string[]; explicit: boolean; unreadable?: { path: string; rootOwned: boolean }[] };
  /** AdGuard dnsproxy binary (default `<installDir>/bin/dnsproxy`). */
  dnsproxyPath?: string;
  /** K2s install dir (default K2S_DEFAULTS.installDir). */
  installDir?: string;
  /** KubeSwitch address, or `none` (default K2S_DEFAULTS.kubeSwitchAddress). */
  kubeSwitch?: string;
  /** The end-to-end path check to report (default: run electron/core/health/check-health.ts on deps). */
  health?: () => Promise<HealthReport>;
  /** Who reads the fixes: the GUI gets buttons and steps, the CLI commands (default `cli`). */
  frontEnd?: FrontEnd;
  /**
   * What `sudo k2s-dns start` would find is looked up on, for the path check's kube-dns hop when
   * `kubeconfigPath` is null (cluster/kubeconfig-default.ts startFindsKubeconfig); default: this
   * host and process. Injected by tests.
   */
  sudoLookup?: SudoLookupHost;
}

/** Host facts shared by the checks. */
export interface DoctorContext {
  deps: LifecycleDeps;
  opts: DoctorOptions;
  /** /etc/resolv.conf now, or null with `currentError` when it cannot be read (e.g. a directory). */
  current: ResolverEntry | null;
  currentError: string | null;
  /** Notes of the capture, e.g. lsattr could not tell the immutable flag. */
  currentNotes: string[];
  /** The saved state, or null (none, or unreadable: `stateError`). */
  state: ResolverStateFile | null;
  stateError: string | null;
  /**
   * True when this user (not root) may not read the root-only state (EACCES/EPERM): the saved
   * original is unknown here, not missing; checks that need it say so and name `sudo k2s-dns doctor`.
   */
  stateUnreadable: boolean;
  /** True when /etc/resolv.conf is the K2s-owned file (first line MANAGED_HEADER). */
  k2sOwnsResolver: boolean;
  service: { running: boolean; pid: number | null };
  /**
   * The original: the saved one while K2s DNS has one (a start recorded: K2s owns the file, or
   * another program's file replaced it while K2s DNS ran — drift, which is never the original:
   * walk 10 L3), else /etc/resolv.conf now (the file a start would save); null when K2s owns the
   * file with no saved original.
   */
  original: ResolverEntry | null;
  /**
   * True when `original` is /etc/resolv.conf now, the file a start would save (no start
   * recorded): start's own rules on that file (NOT_RESOLVER_FILE) apply to it. False while a
   * saved original exists: a start then keeps the saved one and judges no file (preflight).
   */
  originalIsCurrent: boolean;
  /**
   * True while a start is recorded and /etc/resolv.conf is neither K2s's file nor the saved
   * original (replaced, deleted or unreadable): another program's file, drift (status's `foreign`).
   */
  drift: boolean;
  /** Text of `original` (link targets followed), null when unreadable or absent. */
  originalText: string | null;
  /** The KubeSwitch address to check, or `none`. */
  kubeSwitch: string;
}

/** Reads the shared host facts; never throws (unreadable parts become `*Error` fields). */
export async function readDoctorContext(deps: LifecycleDeps, opts: DoctorOptions): Promise<DoctorContext> {
  let current: ResolverEntry | null = null;
  let currentError: string | null = null;
  let currentNotes: string[] = [];
  try {
    const captured = await captureResolverWithNotes(deps.fs, deps.exec);
    current = captured.entry;
    currentNotes = captured.notes;
  } catch (err) {
    currentError = (err as Error).message;
  }
  let stateError: string | null = null;
  let stateUnreadable = false;
  const state = await readState(deps.fs).catch((err: unknown) => {
    stateError = (err as Error).message;
    const code = (err as NodeJS.ErrnoException).code;
    stateUnreadable = deps.uid() !== 0 && (code === 'EACCES' || code === 'EPERM');
    return null;
  });
  // The findings' `start` commands start K2s DNS again as it ran (shared/fix.ts setCliRunningStart).
  setCliRunningStart(state ? runningStartFlags(state) : null);
  const service = await deps.services.status().catch(() => ({ running: false, pid: null }));
  const k2sOwnsResolver = current !== null && isManagedEntry(current);
  // While a start is recorded the original is the saved one, also during drift (the file in place
  // is then another program's); while K2s owns the file without a saved one there is none.
  // A user who may not read the root-only state while k2s-dnsproxy runs: a start is recorded
  // (status's stateImplied), so the file in place is not what a start would save either.
  const originalIsCurrent = !k2sOwnsResolver && state === null && !(stateUnreadable && service.running);
  const original = originalIsCurrent ? current : (state?.resolvConf ?? null);
  return {
    deps,
    opts,
    current,
    currentError,
    currentNotes,
    state,
    stateError,
    stateUnreadable,
    k2sOwnsResolver,
    service,
    original,
    originalIsCurrent,
    drift: state !== null && !k2sOwnsResolver && (current === null || !sameResolver(current, state.resolvConf)),
    originalText: original ? resolverText(original) : null,
    kubeSwitch: opts.kubeSwitch ?? K2S_DEFAULTS.kubeSwitchAddress,
  };
}
