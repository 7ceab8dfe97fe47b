/** Doctor check `lifecycle-state`: the K2s DNS state as `k2s-dns status` reports it (electron/core/lifecycle/status.ts). */
import type { DoctorFinding } from '../../../shared/doctor';
import { cliCommand, DRIFT_CHOICE } from '../../../shared/fix';
import { dnsStatus } from '../lifecycle/status';
import type { DoctorContext } from './context';
import { healthOf } from './health';
import { checkedAgainWords, operationSentenceStart, type OperationNow } from './operation-now';
import { keepLeavesNoneWords, viaK2sWords } from '../../../shared/drift-route';
import { missingResolverWords } from '../../../shared/resolver-missing';

/** `lifecycle-state`: ok when running or stopped cleanly, warn when degraded or the resolver was changed by someone else. */
export async function checkLifecycleState(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'lifecycle-state', title: 'K2s DNS state' };
  // Its messages are shown as the finding's meaning: in the words of the front end that asks.
  const s = await dnsStatus(ctx.deps, ctx.opts.frontEnd ?? 'cli');
  const detail = { state: s.state, resolverOwner: s.resolverOwner, pid: s.pid, messages: s.messages };
  // An operation runs now (its journal, status.ts): the host is halfway through a change, neither
  // stopped nor running; no fix, and the checks are taken again when it ends.
  if (s.state === 'starting' || s.state === 'stopping') {
    const op: OperationNow = s.operation ? { op: s.operation.op, step: s.operation.step, pid: s.operation.pid } : { op: null, step: null, pid: null };
    return {
      ...base,
      severity: 'info',
      title: `K2s DNS state: ${s.state}`,
      meaning: `${operationSentenceStart(op)} is changing K2s DNS right now, so these checks see the host halfway through it. ${checkedAgainWords(ctx.opts.frontEnd ?? 'cli')}`,
      fix: null,
      detail: { ...detail, operation: op },
    };
  }
  if (s.resolverOwner === 'foreign' && s.driftRoute?.viaK2s) {
    // Their file still reaches the proxy (shared/drift-route.ts): say so, and never advise keep
    // when keeping it leaves no nameserver that answers.
    const route = s.driftRoute;
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: /etc/resolv.conf changed by another program (still through K2s DNS)',
      meaning: `/etc/resolv.conf was replaced by ${s.driftWriter ?? 'another program'} while K2s DNS ran, but host apps still ask the proxy: ${viaK2sWords(route)}.${route.keepLeavesNone ? ` ${keepLeavesNoneWords(route)}` : ''}`,
      fix: `Nothing is broken now. To end the drift, run \`${DRIFT_CHOICE.restore.cli}\` (${DRIFT_CHOICE.restore.label.toLowerCase()})${route.keepLeavesNone ? '; not --on-drift keep: nothing would answer then' : ''}.`,
      remedy: {
        action: 'show-diff',
        gui: `Nothing is broken now; to end the drift, choose ${DRIFT_CHOICE.restore.label} in the banner on the Overview${route.keepLeavesNone ? ` (${DRIFT_CHOICE.keep.label} would leave no nameserver that answers)` : ''}.`,
        cli: `${cliCommand('diff')}, then ${DRIFT_CHOICE.restore.cli}`,
      },
      detail: { ...detail, driftRoute: route },
    };
  }
  if (s.resolverOwner === 'foreign') {
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: /etc/resolv.conf changed by another program',
      meaning: `/etc/resolv.conf was replaced by ${s.driftWriter ?? 'another program'} while K2s DNS ran, so the host no longer asks the proxy.`,
      fix: `See what changed with \`${cliCommand('diff')}\`, then run \`${DRIFT_CHOICE.keep.cli}\` (${DRIFT_CHOICE.keep.label.toLowerCase()}) or \`${DRIFT_CHOICE.restore.cli}\` (${DRIFT_CHOICE.restore.label.toLowerCase()}).`,
      remedy: {
        action: 'show-diff',
        gui: `Open Resolver diff to see what changed, then choose ${DRIFT_CHOICE.keep.label} or ${DRIFT_CHOICE.restore.label} on the Overview.`,
        cli: `${cliCommand('diff')}, then ${DRIFT_CHOICE.keep.cli} or ${DRIFT_CHOICE.restore.cli}`,
      },
      detail,
    };
  }
  if (s.state === 'degraded') {
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: degraded',
      meaning: `K2s DNS is half started or half stopped${s.messages.length ? `: ${s.messages.join(' ')}` : ' (state file, proxy and /etc/resolv.conf disagree).'}`,
      fix: `Run \`${cliCommand('recover', true)}\` if an operation was interrupted, else \`${cliCommand('stop', true)}\` to restore the saved resolver, then \`${cliCommand('start', true)}\`.`,
      // The app runs recovery itself before each operation, so Stop then Start is the whole fix there.
      remedy: { action: 'stop', gui: 'Press Stop to restore the saved resolver (an interrupted operation is finished first), then Start.', cli: `${cliCommand('recover', true)}, or ${cliCommand('stop', true)}, then ${cliCommand('start', true)}` },
      detail,
    };
  }
  // One fact, one wording (the Host DNS card folds the verdict in: shared/health.ts applyHealth):
  // running while cluster names fail is degraded, pointing at the finding that says why.
  if (s.state === 'running') {
    const v = (await healthOf(ctx)).verdict;
    if (v.level === 'error') {
      return {
        ...base,
        severity: 'warn',
        title: 'K2s DNS state: degraded',
        // The health finding by the title the output shows (its verdict's summary), not the check's topic.
        meaning: `k2s-dnsproxy runs (PID ${s.pid ?? '?'}) and owns /etc/resolv.conf, but the path check fails (${v.cause}); the cause and its fix are in the error "${v.summary}" above.`,
        fix: `See the error "${v.summary}" above: its fix is this one's.`,
        remedy: { action: null, gui: `See the error "${v.summary}" above: its fix is this one's.`, cli: `see the error "${v.summary}" above` },
        detail: { ...detail, state: 'degraded', healthCause: v.cause, pointsAt: 'health' },
      };
    }
  }
  return {
    ...base,
    severity: 'ok',
    title: s.state === 'running' ? 'K2s DNS state: running' : 'K2s DNS state: stopped',
    // No file at all is said as missing, never as the host's own file (walk 10 M5).
    meaning: s.state === 'running' ? `K2s DNS is running (proxy PID ${s.pid ?? '?'}) and owns /etc/resolv.conf.` : s.resolverMissing ? `K2s DNS is stopped and /etc/resolv.conf ${missingResolverWords(s.resolverMissing)} (not K2s-owned).` : "K2s DNS is stopped and /etc/resolv.conf is the host's own (not K2s-owned).",
    fix: null,
    detail,
  };
}
