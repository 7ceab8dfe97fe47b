/**
 * Start/Stop/Uninstall states for every place that offers them (the Host DNS card and the
 * verdict line), so no button is enabled in one place and refused in the other: host status,
 * the running operation, a missing kubeconfig, what Diagnostics already knows would refuse a
 * Start (lib/start-gates.ts), and a backend that no longer answers.
 */
import { buttonStates, followerDown, noKubeconfigReason, runsAsStarted, type ButtonState } from '../lib/button-states';
import { freshFindings, startBlock } from '../lib/start-gates';
import type { JournaledOperation } from '../../../shared/lifecycle-events';
import { useCluster, useDiagnostics, useDns } from '../stores';

/** Reason on every lifecycle button while status reads fail. */
export const BACKEND_LOST_REASON = 'The app backend does not answer: what this window shows may be out of date.';

/**
 * The three lifecycle buttons' states; `editable` is Start's state without the kubeconfig and
 * Diagnostics gates (the options stay editable so the user can fix those), and false while Start
 * would only restart the network follower (the running options are not changed by it);
 * `findingBlocks`: Start is off for a Diagnostics finding (its reason is startBlock's, which ends
 * "then press Check again"): a Check again must then run the checks again too.
 */
export function useLifecycleButtons(): Record<JournaledOperation, ButtonState> & { editable: boolean; findingBlocks: boolean } {
  const status = useDns((s) => s.status);
  const info = useDns((s) => s.info);
  const busy = useDns((s) => s.busy);
  const lost = useDns((s) => s.lost);
  // The backend names the line that restarts this app with a kubeconfig (k2s-dns app, or npm start in a checkout).
  // None of this user's but one a start finds as root (K2s's root-only admin.conf: startKubeconfig): Start stays on, as the helper reads it.
  const noKubeconfig = useCluster((s) => (s.status?.state === 'no-kubeconfig' && !s.status.startKubeconfig ? noKubeconfigReason(s.status.appKubeconfigCommand) : null));
  const allFindings = useDiagnostics((s) => s.findings);
  const forResolver = useDiagnostics((s) => s.forResolver);
  // Never gate on a finding older than the last resolver change (freshFindings).
  const findings = freshFindings(allFindings, forResolver, status?.resolverStamp);
  if (lost) {
    // A refused token is no lost backend: it answered, and its words say what to open.
    const off = { enabled: false, reason: lost.startsWith('Missing or wrong token') ? lost : BACKEND_LOST_REASON };
    return { start: off, stop: off, uninstall: off, editable: false, findingBlocks: false };
  }
  // The port is ours while running (also folded into degraded: runsAsStarted); only a stopped or otherwise degraded host can be blocked (port holder, immutable file, …).
  const blocked = status && !runsAsStarted(status) ? startBlock(findings) : null;
  const states = buttonStates(status, info, busy, noKubeconfig, blocked);
  return { ...states, editable: buttonStates(status, info, busy).start.enabled && !followerDown(status), findingBlocks: blocked !== null && states.start.reason === blocked };
}
