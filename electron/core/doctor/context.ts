/**
 * What every doctor check may look at, read once per run and never changed: /etc/resolv.conf now,
 * the saved state, the proxy service and the original resolver the proxy would forward to.
 */
import type { LifecycleDeps } from '../lifecycle/deps';
import type { ResolverEntry } from '../../../shared/types';
import type { FrontEnd, HealthReport } from '../../../shared/health';
import type { ResolverStateFile } from '../../../shared/state-file';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import { captureResolverWithNotes, readState } from '../host/resolver-state';
import { isManagedEntry, resolverText } from '../lifecycle/preflight';
import { setCliRunningStart } from '../../../shared/fix';
import { runningStartFlags } from '../../../shared/running-start';

/** Options of runDoctor; paths are absolute host paths. */
export interface DoctorOptions {
  /** Kubeconfig to check the cluster with; null skips the cluster check (info finding). */
  kubeconfigPath: string | null;
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
  /** The resolver K2s forwards to: the saved original while K2s owns the file, else the current one. */
  original: ResolverEntry | null;
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
  // While K2s owns the file, the original is the saved one; without a saved one there is none.
  const original = k2sOwnsResolver ? (state?.resolvConf ?? null) : current;
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
    originalText: original ? resolverText(original) : null,
    kubeSwitch: opts.kubeSwitch ?? K2S_DEFAULTS.kubeSwitchAddress,
  };
}
