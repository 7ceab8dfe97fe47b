/**
 * The Overview's first line: does a cluster name resolve on this host, and if not, where the
 * path breaks and the one action that fixes it (shared/health.ts, GUI words).
 */
import { RichText } from './RichText';
import { useEffect, useState } from 'react';
import { verdictFix, reportFitsStatus, windowSummary, type HealthAction } from '../../../shared/health';
import { startInputOf } from '../lib/start-input';
import { timeText } from '../lib/last-known';
import { uiState, useUi } from '../lib/ui-state';
import { driftRestoreLabel } from '../../../shared/saved-copy';
import { stores, useDns, useHealth } from '../stores';
import { useLifecycleButtons } from './use-lifecycle-buttons';
import { isNoKubeconfigReason, type ButtonState } from '../lib/button-states';


/** Runs a verdict's action through the lifecycle store (the same calls as the Host DNS buttons). */
async function runAction(action: HealthAction): Promise<void> {
  const dns = stores.dns.getState();
  // The same start input as the Host DNS card's Start: engine, KubeSwitch and allowed zones.
  const startInput = startInputOf(uiState.getState(), stores.zones.getState().allowZones);
  if (action === 'recover') await dns.stop({});
  else if (action === 'restart') {
    await dns.stop({});
    if (!stores.dns.getState().error) await stores.dns.getState().start(startInput);
  }
  await stores.health.getState().check();
}

/**
 * Actions the window can run itself; the others are steps shown as text. `restore` (drift) is
 * not one: the drift choice is made in the drift banner only, which asks before restoring. Nor
 * is `start`: the window has one Start button, the Host DNS card's, and the verdict points at it.
 */
const RUNNABLE: ReadonlySet<HealthAction> = new Set(['restart', 'recover']);

/** The verdict's words for Start: one Start button in the window, the Host DNS card's (with its Engine and options). */
export const START_POINTER = 'press Start in Host DNS below';

/**
 * START_POINTER while Start is off for want of a kubeconfig (lib/button-states.ts
 * noKubeconfigReason): what to do first, and where the Cluster card says how (its message names
 * where the app looked and the command that names one), so the line never invites a Start that
 * cannot run (new-user walk: "press Start" above a Cluster card saying "No kubeconfig").
 */
export const KUBECONFIG_FIRST_POINTER = `point the app at a kubeconfig first (the Cluster card below says where it looked and how), then ${START_POINTER}`;

/**
 * The verdict's words for its Start as the Host DNS card's Start button stands (`start`, the same
 * state: use-lifecycle-buttons.ts): START_POINTER while it is on; KUBECONFIG_FIRST_POINTER while
 * it is off for want of a kubeconfig; for any other reason it is off (a Diagnostics finding that
 * refuses Start: 127.0.0.1:53 held by another process, an immutable /etc/resolv.conf, …; a
 * restart under way) that it is off and the button's own reason, which says what to do first —
 * never an invitation to a Start that cannot run.
 */
export function startPointer(start: ButtonState): string {
  if (start.enabled || !start.reason) return START_POINTER;
  if (isNoKubeconfigReason(start.reason)) return KUBECONFIG_FIRST_POINTER;
  return `Start in Host DNS below is off: ${start.reason.replace(/\.$/, '')}`;
}

/**
 * A stopped verdict's clause for a /etc/resolv.conf a user may write (HostDnsStatus.resolverWritable,
 * e.g. `writable by every user (mode 0666)`): Start saves it as your original and warns
 * (RESOLV_CONF_WRITABLE), so the line you read first says so and points at the Host DNS note with
 * the fix (walk 12 L1: only the note said it). Empty otherwise.
 */
export function writableClause(cause: string, status: { resolverWritable?: string } | null): string {
  return cause === 'stopped' && status?.resolverWritable ? `; /etc/resolv.conf is ${status.resolverWritable}: Start will warn (the note under Host DNS gives the fix)` : '';
}

/**
 * The line for a report marked `rechecking` (shared/health-report.ts: older than the check
 * cadence, a new check runs): `Last known at 22:29:21 (35 s ago): SUMMARY; checking again…`.
 * `checkedAt` and `now` are ms since the epoch.
 */
export function lastKnownVerdictText(summary: string, checkedAt: number, now: number): string {
  const ago = Math.max(0, Math.round((now - checkedAt) / 1000));
  return `Last known at ${timeText(checkedAt, now)} (${ago} s ago): ${summary}; checking again…`;
}

/** The verdict line with its primary action. */
export function HealthVerdict() {
  const report = useHealth((s) => s.report);
  const checking = useHealth((s) => s.checking);
  const error = useHealth((s) => s.error);
  const lost = useDns((s) => s.lost);
  const status = useDns((s) => s.status);
  const busy = useDns((s) => s.busy);
  const lifecycle = useLifecycleButtons();
  const networkChanges = useDns((s) => s.networkChanges);
  const stopRestore = useUi((s) => s.stopRestore);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  // No answer from the backend: the last verdict may be false now (never leave a stale green).
  if (lost) {
    return (
      <div className="verdict error" role="status" data-testid="verdict" data-level="unknown" data-cause="backend-lost">
        <span className="verdict-text" data-testid="verdict-text">Cannot tell whether cluster names resolve: <RichText text={lost} /></span>
      </div>
    );
  }
  // An operation runs now (this window, the CLI or another window): the last verdict is about
  // the host before it; say what is happening instead.
  const operation = busy ?? (status?.state === 'starting' || status?.state === 'stopping' ? status.operation?.op ?? (status.state === 'starting' ? 'start' : 'stop') : null);
  if (operation) {
    const doing = { start: 'starting', stop: 'stopping', uninstall: 'uninstalling' }[operation];
    return (
      <div className="verdict" role="status" data-testid="verdict" data-level="unknown" data-cause="operation">
        <span className="verdict-text" data-testid="verdict-text">K2s DNS is {doing}{status?.operation ? ` (step ${status.operation.step})` : ''}; the verdict follows when it finishes.</span>
      </div>
    );
  }
  // No report yet, the last check failed, or the report is about a host state that is gone
  // (the status changed since: a Stop, a CLI start, a killed proxy): never show its verdict.
  const stale = report !== null && status !== null && !reportFitsStatus(report, status);
  if (!report || error || stale) {
    return (
      <div className="verdict" role="status" data-testid="verdict" data-level="unknown" data-cause={error ? 'check-failed' : 'checking'}>
        <span className="verdict-text" data-testid="verdict-text">{error ? <RichText text={`Cannot check cluster names: ${error}`} /> : 'Checking whether cluster names resolve on this host…'}</span>
        <button type="button" className="secondary" disabled={checking} onClick={() => void stores.health.getState().check()} data-testid="verdict-recheck">
          {checking ? 'Checking…' : 'Check again'}
        </button>
      </div>
    );
  }
  // A report older than the check cadence, handed out while a new check runs (a window opened
  // after a while with none open, e.g. during an outage): the last known verdict, never shown as
  // current (new-user finding: a green line for 2.3 s while CoreDNS was down).
  if (report.rechecking) {
    return (
      <div className="verdict" role="status" data-testid="verdict" data-level="unknown" data-cause="last-known">
        <span className="verdict-text" data-testid="verdict-text">
          {lastKnownVerdictText(windowSummary(report.verdict), report.checkedAt, now)}
        </span>
        <button type="button" className="secondary" disabled={checking} onClick={() => void stores.health.getState().check()} data-testid="verdict-recheck">
          {checking ? 'Checking…' : 'Check again'}
        </button>
      </div>
    );
  }
  const v = report.verdict;
  // Start off for a Diagnostics finding: its reason (the line below may quote it) ends "then press
  // Check again", so this Check again runs those checks again too, as the one under Start does.
  const recheck = () => {
    void stores.health.getState().check();
    if (lifecycle.findingBlocks) void stores.diagnostics.getState().run();
  };
  // The drift restore named as the banner's button names it (one function: walk 9 L1).
  const fix = verdictFix(v, 'gui', driftRestoreLabel(status, networkChanges, stopRestore === 'start', timeText));
  const canRun = v.action !== null && RUNNABLE.has(v.action) && lifecycle.stop.enabled;
  return (
    <div className={`verdict ${v.level}`} role="status" data-testid="verdict" data-level={v.level} data-cause={v.cause}>
      <span className="verdict-text" data-testid="verdict-text">
        {/* Drift: the banner above says what happened; the verdict refers to it (walk 12 M3). */}
        <RichText text={windowSummary(v)} />
        {v.level === 'ok' ? `, checked ${timeText(report.checkedAt, now)}` : ''}
        {fix && !canRun && v.level !== 'ok' ? <RichText text={` — ${v.action === 'start' ? startPointer(lifecycle.start) : fix}`} /> : ''}
        {writableClause(v.cause, status)}
      </span>
      {fix && canRun && (
        <button type="button" onClick={() => void runAction(v.action!)} data-testid="verdict-action">
          {fix}
        </button>
      )}
      <button type="button" className="secondary" disabled={checking} onClick={recheck} data-testid="verdict-recheck">
        {checking ? 'Checking…' : 'Check again'}
      </button>
    </div>
  );
}
