/** Start / Stop / Uninstall buttons: one operation at a time, disabled ones say why. */
import { plainText, RichText } from './RichText';
import { useEffect, useRef, useState } from 'react';
import { KUBECONFIG_ORDER_TEXT } from '../../../shared/kubeconfig-order';
import type { EngineName } from '../../../shared/types';
import { ENGINE_NAMES, ENGINES } from '../../../shared/engines/table';
import { startInputOf } from '../lib/start-input';
import { effectiveEngine, engineGates, freshFindings, startBlock } from '../lib/start-gates';
import { followEngineChoice } from '../lib/engine-preference';
import { useUi } from '../lib/ui-state';
import { disabledReasons, reasonLineIndex } from '../lib/disabled-reasons';
import { startAsRootLine } from '../../../shared/root-kubeconfig';
import { stores, useCluster, useDiagnostics, useDns, useZones } from '../stores';
import { focusDriftBanner } from './DriftBanner';
import { useLifecycleButtons } from './use-lifecycle-buttons';
import { FOLLOWER_START, followerDown, runsAsStarted } from '../lib/button-states';
import { runningOptions } from '../lib/running-options';
import { timeText } from '../lib/last-known';
import { uninstallQuestion } from '../lib/uninstall-words';

/** What each KubeSwitch choice means, under the select (the option itself stays one short word: never cut at 900 px). */
const KUBESWITCH_HINT: Record<'auto' | 'address' | 'none', string> = {
  auto: 'Also listens on 172.19.1.1 when it is assigned here.',
  address: 'Also listens on this address of the host.',
  none: 'Listens on 127.0.0.1 only.',
};

/** What each Network changes choice means, under the select. */
const NETWORK_CHANGE_HINT: Record<'follow' | 'keep', string> = {
  follow: 'New nameservers from the network become the upstreams; Stop restores the newest file.',
  keep: 'A new resolver file is left as drift: you decide at Stop.',
};

/**
 * The lifecycle controls. Uninstall asks in a modal `<dialog>` (showModal: focus moves in, Escape
 * cancels); with a drifted resolver Stop points at the drift banner, the one place to choose. Options the doctor
 * findings already know will fail (engine not installed, 127.0.0.1:53 taken) are disabled with why.
 * Engine "auto" sends no `engine`.
 */
export function LifecycleControls() {
  const status = useDns((s) => s.status);
  const info = useDns((s) => s.info);
  const busy = useDns((s) => s.busy);
  const start = useDns((s) => s.start);
  const stop = useDns((s) => s.stop);
  const uninstall = useDns((s) => s.uninstall);
  // Automatic by default: the lifecycle picks AdGuard dnsproxy if its binary exists, else dnsmasq.
  const engine = useUi((s) => s.engine);
  const setEngine = useUi((s) => s.setEngine);
  const clusterState = useCluster((s) => s.status?.state ?? null);
  // None of this user's, but Start finds K2s's root-only kubeconfig as root (ClusterStatus.startKubeconfig).
  const startKubeconfig = useCluster((s) => (s.status?.state === 'no-kubeconfig' ? s.status.startKubeconfig ?? null : null));
  // The kubeconfig the backend resolved (and Start passes), also while the API does not answer.
  const kubeconfigPath = useCluster((s) => s.status?.kubeconfigPath ?? s.lastReachable?.status.kubeconfigPath ?? null);
  const findings = useDiagnostics((s) => s.findings);
  const forResolver = useDiagnostics((s) => s.forResolver);
  const checking = useDiagnostics((s) => s.running);
  const gates = engineGates(findings);
  const [confirming, setConfirming] = useState(false);
  // Which saved copy Stop (and the drift banner's Restore) puts back (`--restore`), offered only while a file from before Start is kept.
  const restoreChoice = useUi((s) => s.stopRestore);
  const setRestoreChoice = useUi((s) => s.setStopRestore);
  const dialog = useRef<HTMLDialogElement>(null);
  const startBtn = useRef<HTMLButtonElement>(null);
  const stopBtn = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (confirming && !d.open) d.showModal?.();
    if (!confirming && d.open) d.close();
  }, [confirming]);
  // A chosen engine the checks find not installed is shown and started as Automatic, while they
  // say so only: the choice itself stays, so a check that misses it for a moment (the re-check
  // after Uninstall) never turns the user's AdGuard dnsproxy into Automatic for good (walk 10 L9).
  const shownEngine = effectiveEngine(engine, gates);
  // While K2s DNS runs (or is degraded), the select shows the engine in use, not "Automatic":
  // a later Start then keeps it unless the user picks another one.
  // Once it stops, a select the running engine set (not the user) goes back to what it was, so a
  // CLI `start --engine dnsmasq` does not become this window's next Start (new-user pass).
  const runningEngine = useDns((s) => (s.status && s.status.state !== 'stopped' ? s.status.engine : null));
  const shownForRunning = useRef<{ before: EngineName | 'auto' } | null>(null);
  useEffect(() => {
    if (runningEngine && gates[runningEngine].available) {
      shownForRunning.current ??= { before: engine };
      setEngine(runningEngine);
    } else if (!runningEngine && shownForRunning.current) {
      setEngine(shownForRunning.current.before);
      shownForRunning.current = null;
    }
  }, [runningEngine]);
  const choose = useUi((s) => s.chooseEngine);
  const chooseEngine = (e: EngineName | 'auto') => {
    // The user's own choice: it stays after a stop, and every window of the app shows it.
    shownForRunning.current = null;
    choose(e);
  };
  // Another window chose: shown here too, or (while this one shows the running engine) after the stop.
  useEffect(
    () =>
      followEngineChoice((e) => {
        if (shownForRunning.current) shownForRunning.current.before = e;
        else setEngine(e);
      }),
    [],
  );
  // Start options (dns:start input): empty means "let discovery decide".
  const kubeSwitchMode = useUi((s) => s.kubeSwitchMode);
  const kubeSwitchAddress = useUi((s) => s.kubeSwitchAddress);
  const setKubeSwitch = useUi((s) => s.setKubeSwitch);
  const upstreamsText = useUi((s) => s.upstreamsText);
  const setUpstreams = useUi((s) => s.setUpstreams);
  // Zones allowed in the Zones panel (zone policy).
  const allowZones = useZones((s) => s.allowZones);
  const onNetworkChange = useUi((s) => s.onNetworkChange);
  const setOnNetworkChange = useUi((s) => s.setOnNetworkChange);
  const startInput = startInputOf({ engine: shownEngine, kubeSwitchMode, kubeSwitchAddress, onNetworkChange, upstreamsText }, allowZones);
  // The page never names a kubeconfig: the backend uses the one it was started with.
  const noKubeconfig = clusterState === 'no-kubeconfig' && startKubeconfig === null;
  // The same gates as the verdict's Start (use-lifecycle-buttons.ts). The options stay editable
  // when only the kubeconfig is missing: that is how the user fixes it.
  const b = useLifecycleButtons();
  // The pressed button is disabled while its operation runs, which drops keyboard focus to the
  // body (new-user pass). While it runs focus goes to the timeline (its live steps); when it
  // ends, to the button for what comes next: Stop after a start, Start after a stop.
  const wasBusy = useRef<typeof busy>(null);
  const focusNext = useRef<'start' | 'stop' | null>(null);
  useEffect(() => {
    const before = wasBusy.current;
    wasBusy.current = busy;
    const active = document.activeElement as HTMLElement | null;
    const lost = !active || active === document.body || (active as HTMLButtonElement).disabled === true || active.closest('[data-testid=timeline]') !== null;
    const heading = () => document.querySelector<HTMLElement>('[data-testid=timeline-heading]');
    if (busy && !before && lost) heading()?.focus();
    if (!busy && before) {
      focusNext.current = before === 'start' ? 'stop' : 'start';
      if (lost) heading()?.focus();
    }
    // The next button is enabled once the status after the operation arrives.
    const next = focusNext.current === 'stop' ? stopBtn.current : focusNext.current === 'start' ? startBtn.current : null;
    if (!busy && next && !next.disabled) {
      focusNext.current = null;
      const now = document.activeElement as HTMLElement | null;
      if (!now || now === document.body || now.closest('[data-testid=timeline]') !== null) next.focus();
    }
  }, [busy, status?.state, b.start.enabled, b.stop.enabled]);
  const editable = b.editable;
  // While the options cannot be changed (K2s DNS runs), they show what runs, not the preference
  // kept for the next Start (walk5 L6); that preference comes back once they are editable.
  const runningOpts = editable ? null : runningOptions(status);
  const shownNetworkChange = runningOpts?.onNetworkChange ?? onNetworkChange;
  const shownKubeSwitch = runningOpts?.kubeSwitchMode ?? kubeSwitchMode;
  const shownKubeSwitchAddress = runningOpts?.kubeSwitchAddress ?? kubeSwitchAddress;
  const shownUpstreams = runningOpts?.upstreamsText ?? upstreamsText;
  // The engine that runs, also one the checks find missing where they look (a CLI `start --engine
  // adguard --dnsproxy PATH`): shown and labelled as running, never "Automatic" (new user).
  // From the status alone (also where the saved state is root's and runningOpts says nothing).
  const runningEngineShown = editable ? null : runningEngine;
  // The network follower died while K2s DNS runs: Start restarts only it (walk5 M3).
  const restartFollower = followerDown(status);
  // What Diagnostics knows would refuse a Start: offer to check again once it is fixed.
  // Only findings made for the resolver as it is now (freshFindings): older ones are being checked again.
  const blocked = status && !runsAsStarted(status) ? startBlock(freshFindings(findings, forResolver, status.resolverStamp)) : null;
  // Drift with a choice to make in the banner. Deleted (or a dangling link: status.driftGone) leaves
  // nothing of theirs to keep: a plain Stop puts the saved original back (teardown.ts isGone), so the
  // card shows its plain Stop, the one status's note names (walk 12 M2: "Stop… (choose at the top)").
  const drifted = status?.resolverOwner === 'foreign' && !status.driftGone;
  const reasons = disabledReasons(b);
  // A disabled button names its line under the buttons (aria-describedby): its reason stays reachable.
  const describedBy = (reason: string | null): string | undefined => {
    const i = reasonLineIndex(reason, reasons);
    return i >= 0 ? `lifecycle-reason-${i}` : undefined;
  };

  return (
    <div className="controls" data-testid="lifecycle-controls">
      {/* The Engine select on its own row: Start, Stop and Uninstall then fit one line at 900 px. */}
      <div className="row">
        <label>
          Engine{' '}
          <select value={runningEngineShown ?? shownEngine} onChange={(e) => chooseEngine(e.target.value as EngineName | 'auto')} disabled={!editable} title={runningEngineShown ? `K2s DNS runs with ${ENGINES[runningEngineShown].label}; stop it to choose the engine of the next Start` : 'Which DNS proxy serves 127.0.0.1:53: Automatic uses AdGuard dnsproxy if K2s installed it, else dnsmasq'} data-testid="engine-select">
            <option value="auto">Automatic</option>
            {ENGINE_NAMES.map((e) =>
              e === runningEngineShown ? (
                <option key={e} value={e} data-testid={`engine-option-${e}`}>
                  {ENGINES[e].label} — running
                </option>
              ) : (
                <option key={e} value={e} disabled={!gates[e].available} title={gates[e].reason ? plainText(gates[e].reason) : undefined} data-testid={`engine-option-${e}`}>
                  {ENGINES[e].label}
                  {gates[e].reason ? ` — ${plainText(gates[e].reason)}` : ''}
                </option>
              ),
            )}
          </select>
        </label>
      </div>
      <div className="row lifecycle-buttons" data-testid="lifecycle-buttons">
        <button type="button" ref={startBtn} disabled={!b.start.enabled} aria-describedby={describedBy(b.start.reason)} title={b.start.reason ? plainText(b.start.reason) : restartFollower ? FOLLOWER_START.title : 'Save the resolver, start the proxy, activate'} onClick={() => {
            // Start runs its own preflight; the findings are checked again with it, so a refusal
            // and Diagnostics say the same about the host as it is now.
            void start(startInput).then(() => stores.diagnostics.getState().run());
          }} data-testid="btn-start">
          {busy === 'start' ? 'Starting…' : restartFollower ? FOLLOWER_START.label : 'Start'}
        </button>
        {!drifted && (
          <button type="button" ref={stopBtn} disabled={!b.stop.enabled} aria-describedby={describedBy(b.stop.reason)} title={b.stop.reason ? plainText(b.stop.reason) : 'Restore the saved resolver, then stop the proxy'} onClick={() => void stop(restoreChoice === 'start' && status?.startCopy ? { restore: 'start' } : {})} data-testid="btn-stop">
            {busy === 'stop' ? 'Stopping…' : 'Stop'}
          </button>
        )}
        {status?.startCopy && (
          // A follow replaced the file from before Start (kept: stop --restore start); the newest stays the default.
          // The one control for it: with drift the banner's Restore my original reads it too.
          <label>
            Stop puts back{' '}
            <select value={restoreChoice} onChange={(e) => setRestoreChoice(e.target.value as 'newest' | 'start')} disabled={!b.stop.enabled} title={drifted ? 'Which saved /etc/resolv.conf the banner\'s restore button (named after it) puts back: the newest file the network wrote (followed), or the file that was in place when K2s DNS started' : 'Which saved /etc/resolv.conf Stop restores: the newest file the network wrote (followed), or the file that was in place when K2s DNS started'} data-testid="stop-restore-select">
              <option value="newest">the newest file (the default)</option>
              <option value="start">the file from before Start ({timeText(Date.parse(status.startCopy.savedAt))})</option>
            </select>
          </label>
        )}
        {drifted && (
          // One place for the drift choice: the banner at the top (Restore asks there first).
          <button type="button" className="secondary" disabled={!b.stop.enabled} title="Choose what happens to /etc/resolv.conf in the banner at the top" onClick={() => focusDriftBanner()} data-testid="btn-stop-drift">
            {/* Short: with Start and Uninstall it fits one line of the card at 900 px. */}
            Stop… (choose at the top)
          </button>
        )}
        <button type="button" className="danger" disabled={!b.uninstall.enabled || confirming} aria-describedby={describedBy(b.uninstall.reason)} title={b.uninstall.reason ? plainText(b.uninstall.reason) : 'Restore, then remove K2s DNS files'} onClick={() => setConfirming(true)} data-testid="btn-uninstall">
          {busy === 'uninstall' ? 'Uninstalling…' : 'Uninstall'}
        </button>
      </div>
      <details className="start-options" open={noKubeconfig || undefined} data-testid="start-options">
        <summary>Start options{runningOpts ? <span className="muted small" data-testid="start-options-running"> — what runs now (change them after Stop)</span> : null}</summary>
        <div className="options-grid">
        <span className="muted">Kubeconfig</span>
          {/* The file itself (the one Start passes: cluster status), not the lookup rules; the rules only when none was found. */}
          {startKubeconfig ? (
            <span data-testid="kubeconfig-file-root">
              <span className="mono">{startKubeconfig}</span> <span className="muted small">— the file Start reads as root (this user cannot read it)</span>
            </span>
          ) : kubeconfigPath ? (
            <span data-testid="kubeconfig-file" title={`Found as the first that exists of: ${KUBECONFIG_ORDER_TEXT}. To use another file, start the app with --kubeconfig PATH.`}>
              <span className="mono">{kubeconfigPath}</span> <span className="muted small">— the file Start uses (to use another, start the app with --kubeconfig PATH)</span>
            </span>
          ) : (
            <span className="muted small" data-testid="kubeconfig-order">None found. Looked for the first that exists: {KUBECONFIG_ORDER_TEXT}.</span>
          )}
        <label htmlFor="start-kubeswitch">KubeSwitch listener</label>
          <div className="options-inline">
          <select id="start-kubeswitch" value={shownKubeSwitch} onChange={(e) => setKubeSwitch(e.target.value as typeof kubeSwitchMode)} disabled={!editable} title="Also listen on the KubeSwitch address so Windows nodes can use this host" aria-describedby="start-kubeswitch-hint" data-testid="start-kubeswitch">
            <option value="auto">auto</option>
            <option value="address">address…</option>
            <option value="none">none</option>
          </select>
        {shownKubeSwitch === 'address' && (
          <input value={shownKubeSwitchAddress} onChange={(e) => setKubeSwitch('address', e.target.value)} placeholder="172.19.1.1" aria-label="KubeSwitch address" disabled={!editable} data-testid="start-kubeswitch-address" />
        )}
          <span id="start-kubeswitch-hint" className="muted small options-hint" data-testid="start-kubeswitch-hint">{KUBESWITCH_HINT[shownKubeSwitch]}</span>
          </div>
        <label htmlFor="start-network-change">Network changes</label>
          <div className="options-inline">
          <select id="start-network-change" value={shownNetworkChange} onChange={(e) => setOnNetworkChange(e.target.value as 'follow' | 'keep')} disabled={!editable} title="When NetworkManager, resolvconf, a VPN client or systemd-resolved writes a new resolver file while K2s DNS runs" aria-describedby="start-network-change-hint" data-testid="start-network-change">
            <option value="follow">follow</option>
            <option value="keep">keep as drift</option>
          </select>
          <span id="start-network-change-hint" className="muted small options-hint" data-testid="start-network-change-hint">{NETWORK_CHANGE_HINT[shownNetworkChange]}</span>
          </div>
        <label htmlFor="start-upstreams">Upstreams</label>
          <div className="options-inline">
            {/* Diagnostics' "start with `… --upstream <IP>` (replace <IP> with your nameserver's IP address)": the same choice as a field (space- or comma-separated). */}
            <input id="start-upstreams" value={shownUpstreams} onChange={(e) => setUpstreams(e.target.value)} disabled={!editable} placeholder="the saved nameservers" title="Nameservers for names outside the cluster instead of the saved /etc/resolv.conf's: IP or IP:PORT, e.g. 192.168.1.1 or [fd00::1]:53" data-testid="start-upstreams" />
          </div>
        </div>
      </details>
      {startKubeconfig && b.start.enabled && (
        <p className="muted small" data-testid="start-kubeconfig-root"><RichText text={startAsRootLine(startKubeconfig)} /></p>
      )}
      {reasons.length > 0 && (
        <ul className="reasons" data-testid="disabled-reasons">
          {reasons.map((r, i) => (
            <li key={r} id={`lifecycle-reason-${i}`}><RichText text={r} /></li>
          ))}
        </ul>
      )}
      {blocked && (
        <button type="button" className="secondary" disabled={checking} onClick={() => void stores.diagnostics.getState().run()} data-testid="btn-check-port">
          {checking ? 'Checking…' : 'Check again'}
        </button>
      )}
      {/* Native modal dialog: showModal moves focus inside and makes the page inert; Escape fires `cancel`. */}
      <dialog ref={dialog} className="confirm" aria-labelledby="confirm-uninstall-title" onClose={() => setConfirming(false)} data-testid="confirm-uninstall">
        <h3 id="confirm-uninstall-title">Uninstall K2s DNS?</h3>
        <p data-testid="confirm-uninstall-text">{uninstallQuestion(status)}</p>
        <div className="row">
          <button type="button" className="secondary" autoFocus onClick={() => setConfirming(false)} data-testid="btn-cancel-uninstall">
            Cancel
          </button>
          <button type="button" className="danger" onClick={() => { setConfirming(false); void uninstall(); }} data-testid="btn-confirm-uninstall">
            Yes, uninstall
          </button>
        </div>
      </dialog>
    </div>
  );
}
