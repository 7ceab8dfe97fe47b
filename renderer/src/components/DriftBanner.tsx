/**
 * Drift banner (issue #4 item 3): shown while K2s DNS is active and /etc/resolv.conf was
 * rewritten by another program (resolverOwner `foreign`). Shows what changed and offers the
 * two ways to stop; the default of `k2s-dns stop` is keep, so the other program wins.
 */
import { useEffect } from 'react';
import { unifiedDiff } from '../lib/side-by-side';
import { stores, useDiff, useDns } from '../stores';

/** Status poll period while active (ms): drift shows within about one period. */
export const DRIFT_POLL_MS = 1000;

/** Polls dns:status every DRIFT_POLL_MS while K2s DNS is active; renders the banner on drift. */
export function DriftBanner() {
  const status = useDns((s) => s.status);
  const busy = useDns((s) => s.busy);
  const stop = useDns((s) => s.stop);
  const diff = useDiff((s) => s.diff);
  const active = status !== null && (status.state !== 'stopped' || status.savedAt !== null);
  const drifted = status?.resolverOwner === 'foreign';

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      // No poll during an operation: its own result refreshes the status.
      if (!stores.dns.getState().busy) void stores.dns.getState().refresh();
    }, DRIFT_POLL_MS);
    return () => clearInterval(timer);
  }, [active]);

  // Fetch the diff once drift appears, so the banner shows what the other program wrote.
  useEffect(() => {
    if (drifted) void stores.diff.getState().refresh();
  }, [drifted]);

  if (!drifted) return null;
  return (
    <div className="banner warn" role="alert" data-testid="drift-banner">
      <strong>Another program rewrote /etc/resolv.conf while K2s DNS was running.</strong>
      <p>
        Cluster names may no longer resolve on this host. Choose what happens to the file when K2s DNS stops. The default (also of
        <code> k2s-dns stop</code>) is to keep their file, because the program that wrote it (NetworkManager, a VPN client…) usually
        knows the current network better than the copy saved at start.
      </p>
      {diff?.savedText != null && (
        <pre className="code" data-testid="drift-diff">
          {unifiedDiff(diff.savedText, diff.currentText ?? '').split('\n').map((l, i) => (
            <div key={i} className={l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : ''}>{l || ' '}</div>
          ))}
        </pre>
      )}
      <div className="row">
        <button type="button" disabled={busy !== null} title={busy ? `Wait: ${busy} is still running.` : 'Stop K2s DNS and leave their /etc/resolv.conf as it is'} onClick={() => void stop({ onDrift: 'keep' })} data-testid="drift-keep">
          Keep their file (default)
        </button>
        <button type="button" className="secondary" disabled={busy !== null} title={busy ? `Wait: ${busy} is still running.` : 'Stop K2s DNS and put back the exact original saved at start'} onClick={() => void stop({ onDrift: 'restore' })} data-testid="drift-restore">
          Restore my original
        </button>
      </div>
    </div>
  );
}
