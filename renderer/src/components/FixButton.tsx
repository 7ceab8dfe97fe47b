/** The button for a fix's action (shared/fix.ts), wired to the stores; the GUI side of "a fix is data". */
import { ACTION_LABEL, type FixAction } from '../../../shared/fix';
import { uiState } from '../lib/ui-state';
import { effectiveEngine, engineGates } from '../lib/start-gates';
import { stores, useDns } from '../stores';
import { focusDriftBanner } from './DriftBanner';

/** Runs `action`: lifecycle calls go through the dns store (one at a time); the others navigate or re-check. */
export function runFixAction(action: FixAction): void {
  const dns = stores.dns.getState();
  switch (action) {
    case 'start': {
      // As the select shows it: Automatic while the checks find the chosen engine not installed.
      const engine = effectiveEngine(uiState.getState().engine, engineGates(stores.diagnostics.getState().findings));
      void dns.start(engine === 'auto' ? {} : { engine });
      return;
    }
    case 'stop':
      void dns.stop({});
      return;
    case 'keep-theirs':
    case 'restore-original':
      // The drift choice is made in the drift banner only (it asks before restoring).
      uiState.getState().setTab('overview');
      setTimeout(() => focusDriftBanner(), 0);
      return;
    case 'show-diff':
      uiState.getState().setTab('diff');
      return;
    case 'run-checks':
      void stores.diagnostics.getState().run();
      return;
    case 'choose-dnsmasq':
      uiState.getState().chooseEngine('dnsmasq');
      uiState.getState().setTab('overview');
      return;
  }
}

/** A button labelled per ACTION_LABEL; lifecycle actions are disabled while an operation runs. */
export function FixButton({ action, testId }: { action: FixAction; testId?: string }) {
  const busy = useDns((s) => s.busy);
  const lifecycle = action === 'start' || action === 'stop';
  return (
    <button type="button" className="secondary" disabled={lifecycle && busy !== null} title={lifecycle && busy ? `Wait: ${busy} is still running.` : undefined} onClick={() => runFixAction(action)} data-testid={testId}>
      {ACTION_LABEL[action]}
    </button>
  );
}
