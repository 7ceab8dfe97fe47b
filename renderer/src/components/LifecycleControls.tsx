/** Start / Stop / Uninstall buttons: one operation at a time, disabled ones say why. */
import { useState } from 'react';
import type { EngineName } from '../../../shared/types';
import { buttonStates } from '../lib/button-states';
import { useCluster, useDns } from '../stores';

/** The lifecycle controls. Uninstall asks for confirmation; a drifted resolver asks keep/restore. Engine "auto" sends no `engine`. */
export function LifecycleControls() {
  const status = useDns((s) => s.status);
  const info = useDns((s) => s.info);
  const busy = useDns((s) => s.busy);
  const start = useDns((s) => s.start);
  const stop = useDns((s) => s.stop);
  const uninstall = useDns((s) => s.uninstall);
  // Automatic by default: the lifecycle picks AdGuard dnsproxy if its binary exists, else dnsmasq.
  const [engine, setEngine] = useState<EngineName | 'auto'>('auto');
  const clusterState = useCluster((s) => s.status?.state ?? null);
  const [confirming, setConfirming] = useState(false);
  // Start options (dns:start input): empty means "let discovery decide".
  const [kubeconfig, setKubeconfig] = useState('');
  const [kubeSwitchMode, setKubeSwitchMode] = useState<'auto' | 'none' | 'address'>('auto');
  const [kubeSwitchAddress, setKubeSwitchAddress] = useState('');
  const startInput = {
    ...(engine === 'auto' ? {} : { engine }),
    ...(kubeconfig.trim() ? { kubeconfig: kubeconfig.trim() } : {}),
    ...(kubeSwitchMode === 'none' ? { kubeSwitch: 'none' } : kubeSwitchMode === 'address' && kubeSwitchAddress.trim() ? { kubeSwitch: kubeSwitchAddress.trim() } : {}),
  };
  const noKubeconfig = clusterState === 'no-kubeconfig' && kubeconfig.trim() === '';
  const b = buttonStates(status, info, busy, noKubeconfig);
  // The options stay editable when only the kubeconfig is missing: that is how the user fixes it.
  const editable = buttonStates(status, info, busy).start.enabled;
  const drifted = status?.resolverOwner === 'foreign';
  const reasons = [...new Set([b.start.reason, b.stop.reason, b.uninstall.reason].filter((r): r is string => r !== null))];

  return (
    <div className="controls" data-testid="lifecycle-controls">
      <div className="row">
        <label>
          Engine{' '}
          <select value={engine} onChange={(e) => setEngine(e.target.value as EngineName | 'auto')} disabled={!editable} title="Which DNS proxy serves 127.0.0.1:53: Automatic uses AdGuard dnsproxy if K2s installed it, else dnsmasq" data-testid="engine-select">
            <option value="auto">Automatic</option>
            <option value="adguard">AdGuard dnsproxy</option>
            <option value="dnsmasq">dnsmasq</option>
          </select>
        </label>
        <button type="button" disabled={!b.start.enabled} title={b.start.reason ?? 'Save the resolver, start the proxy, activate'} onClick={() => void start(startInput)} data-testid="btn-start">
          {busy === 'start' ? 'Starting…' : 'Start'}
        </button>
        {!drifted && (
          <button type="button" disabled={!b.stop.enabled} title={b.stop.reason ?? 'Restore the saved resolver, then stop the proxy'} onClick={() => void stop({})} data-testid="btn-stop">
            {busy === 'stop' ? 'Stopping…' : 'Stop'}
          </button>
        )}
        {drifted && (
          <>
            <button type="button" disabled={!b.stop.enabled} title="Someone changed /etc/resolv.conf since start: restore the saved original" onClick={() => void stop({ onDrift: 'restore' })} data-testid="btn-stop-restore">
              Stop, restore saved
            </button>
            <button type="button" disabled={!b.stop.enabled} title="Keep the file another program wrote" onClick={() => void stop({ onDrift: 'keep' })} data-testid="btn-stop-keep">
              Stop, keep current
            </button>
          </>
        )}
        <button type="button" className="danger" disabled={!b.uninstall.enabled || confirming} title={b.uninstall.reason ?? 'Restore, then remove K2s DNS files'} onClick={() => setConfirming(true)} data-testid="btn-uninstall">
          {busy === 'uninstall' ? 'Uninstalling…' : 'Uninstall'}
        </button>
      </div>
      <details className="start-options" open={noKubeconfig || undefined} data-testid="start-options">
        <summary>Start options</summary>
        <div className="options-grid">
        <label htmlFor="start-kubeconfig">Kubeconfig</label>
          <input id="start-kubeconfig" value={kubeconfig} onChange={(e) => setKubeconfig(e.target.value)} placeholder="default: $KUBECONFIG, ~/.kube/config, K2s’s admin.conf" disabled={!editable} title="Absolute path of the kubeconfig to discover the cluster with" data-testid="start-kubeconfig" />
        <label htmlFor="start-kubeswitch">KubeSwitch listener</label>
          <div className="options-inline">
          <select id="start-kubeswitch" value={kubeSwitchMode} onChange={(e) => setKubeSwitchMode(e.target.value as typeof kubeSwitchMode)} disabled={!editable} title="Also listen on the KubeSwitch address so Windows nodes can use this host" data-testid="start-kubeswitch">
            <option value="auto">auto (172.19.1.1 when assigned)</option>
            <option value="address">address…</option>
            <option value="none">none (127.0.0.1 only)</option>
          </select>
        {kubeSwitchMode === 'address' && (
          <input value={kubeSwitchAddress} onChange={(e) => setKubeSwitchAddress(e.target.value)} placeholder="172.19.1.1" aria-label="KubeSwitch address" disabled={!editable} data-testid="start-kubeswitch-address" />
        )}
          </div>
        </div>
      </details>
      {reasons.length > 0 && (
        <ul className="reasons" data-testid="disabled-reasons">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {confirming && (
        <div className="confirm" role="alertdialog" aria-label="Confirm uninstall" data-testid="confirm-uninstall">
          <p>Restore the original /etc/resolv.conf and remove the k2s-dnsproxy unit, proxy config and saved state?</p>
          <button type="button" className="danger" onClick={() => { setConfirming(false); void uninstall(); }} data-testid="btn-confirm-uninstall">
            Yes, uninstall
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)} data-testid="btn-cancel-uninstall">
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}
