/** Doctor check `lifecycle-state`: the K2s DNS state as `k2s-dns status` reports it (electron/core/lifecycle/status.ts). */
import type { DoctorFinding } from '../../../shared/doctor';
import { cliCommand, handResolverWays, type FrontEnd } from '../../../shared/fix';
import { dnsStatus } from '../lifecycle/status';
import type { DoctorContext } from './context';
import { healthFixPointer, healthOf } from './health';
import { checkedAgainWords, operationSentenceStart, type OperationNow } from './operation-now';
import { GLIBC_DEFAULT_NAMESERVER, viaK2sWords } from '../../../shared/drift-route';
import { missingResolverWords } from '../../../shared/resolver-missing';
import { keepRisk, keepRiskWords, verdictKeepRisk } from '../../../shared/drift-default';
import { fixText, STOP_FINISHES, verdictFix, type HealthReport } from '../../../shared/health';
import { driftRestoreLabel } from '../../../shared/saved-copy';
import { cliTimeText, timeText } from '../../../shared/clock';
import type { HostDnsStatus } from '../../../shared/types';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { lastRunWords } from '../../../shared/exit-status';
import { codeSpan } from '../../../shared/code-span';
import { watchdogRestartWords } from '../../../shared/watchdog-backoff';

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
  if (s.resolverOwner === 'foreign') return driftFinding(s, await healthOf(ctx), ctx.opts.frontEnd ?? 'cli', base, detail);
  const restart = s.state === 'degraded' ? restartNow(s) : null;
  if (restart) return restartFinding(restart, await healthOf(ctx), base, detail);
  if (s.originalBack) return originalBackFinding(base, detail);
  const down = s.state === 'degraded' ? proxyDownFinding(s, base, detail) : null;
  if (down) return down;
  // The proxy runs for a K2s-owned file with no saved original (moved aside as corrupt, or
  // removed): neither recover nor stop can put one back (stop fails NO_SAVED_ORIGINAL), so the fix
  // is status's meaning — the user's own file written back by hand, then stop (walk 23).
  if (s.state === 'degraded' && s.resolverOwner === 'k2s' && ctx.service.running && !ctx.state && !ctx.stateUnreadable && !s.stateProblem) {
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: degraded',
      meaning: `K2s DNS is half started or half stopped: ${s.messages.join(' ')}`,
      fix: `Write your own resolv.conf back by hand (${handResolverWays()}), then run \`${cliCommand('stop', true)}\`; then ${codeSpan(cliCommand('start', true))} if you want K2s DNS again.`,
      remedy: { action: null, gui: 'Write your own /etc/resolv.conf back by hand as root, then press Stop (and Start if you want K2s DNS again).', cli: cliCommand('stop', true) },
      detail,
    };
  }
  if (s.state === 'degraded') {
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: degraded',
      meaning: `K2s DNS is half started or half stopped${s.messages.length ? `: ${s.messages.join(' ')}` : ' (state file, proxy and /etc/resolv.conf disagree).'}`,
      fix: `Run \`${cliCommand('recover', true)}\` if an operation was interrupted, else \`${cliCommand('stop', true)}\` to restore the saved resolver, then ${codeSpan(cliCommand('start', true))}.`,
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
        ...healthFixPointer(v),
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

/**
 * The finding while another program's file is /etc/resolv.conf (drift; status's `foreign`), by
 * the one drift rule (shared/drift-default.ts): the fix is the drift choice in the words `status`
 * prints on its health line (shared/health.ts verdictFix with the verdict's keepRisk, the restore
 * named as the banner's button: driftRestoreLabel), so the default comes first and a deleted file
 * is "both choices restore" here too (walk 10 M4). Never start's refusal of the file in place
 * (NOT_RESOLVER_FILE is about the file a start would save; with a saved original a start saves
 * none, walk 10 M3): its reason is said as the follower's, the file named as "the file in
 * /etc/resolv.conf now (another program's)" (L3). A warning: the health finding is the error when
 * names do not resolve, as `status` marks that hop. The CLI's health finding already gives the
 * follower's reason with what keeping does (checkHealthPath): then it is not said twice. When the
 * verdict is this drift's and not ok, the health finding prints this same fix: this one points at
 * it instead (healthFixPointer; walk 11 L5), keeping the window's Open Resolver diff button.
 */
function driftFinding(s: HostDnsStatus, report: HealthReport, frontEnd: FrontEnd, base: { id: string; title: string }, detail: Record<string, unknown>): DoctorFinding {
  const v = report.verdict;
  const drift = v.cause === 'drift' && (v.action === 'restore' || v.action === 'restore-via');
  const route = s.driftRoute ?? null;
  const via = route?.viaK2s === true;
  // The verdict's own keepRisk when the verdict is the drift's; else the same rule on the same hops.
  const risk = drift ? (v.keepRisk ?? null) : verdictKeepRisk(s, report.hops);
  const kind = keepRisk(s, { hops: report.hops, forResolver: s.resolverStamp ?? null, ...(report.theirNameservers ? { theirNameservers: report.theirNameservers } : {}) })?.kind ?? null;
  const fixFor = (fe: FrontEnd) => verdictFix({ action: drift ? v.action : via ? 'restore-via' : 'restore', keepRisk: risk }, fe, driftRestoreLabel(s, [], false, fe === 'cli' ? cliTimeText : timeText));
  // The health finding carries the drift's fix when the verdict is the drift's and not ok (checkHealthPath).
  const pointer = drift && v.level !== 'ok' ? healthFixPointer(v) : null;
  const cli = pointer ? pointer.fix : (fixFor('cli') ?? '');
  const gui = pointer ? pointer.remedy.gui : (fixFor('gui') ?? '');
  const cliRemedy = pointer ? pointer.remedy.cli : cli;
  const gone = s.driftGone ?? null;
  if (gone) {
    const what = keepRiskWords({ kind: 'gone', what: gone }, route);
    return {
      ...base,
      severity: 'warn',
      title: `K2s DNS state: /etc/resolv.conf ${gone} while K2s DNS runs`,
      meaning: `${what} Until then host apps still ask the proxy: with no file glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5)), k2s-dnsproxy's listener.`,
      fix: cli,
      remedy: { action: null, gui, cli: cliRemedy },
      detail: { ...detail, driftGone: gone, keepRisk: 'gone', driftDefault: 'restore', ...(pointer ? { pointsAt: 'health' } : {}) },
    };
  }
  // The follower's reason (no resolver file, its owner or mode), unless the CLI's health finding says it.
  const reason = (s.driftFileRefusal ?? s.driftOwnerRefusal ?? '').replace(/^the new file /, 'it ').replace(/\.$/, '');
  const healthSaysWhy = frontEnd === 'cli' && drift && (kind === 'not-resolver' || kind === 'refused');
  const why = reason && !healthSaysWhy ? ` K2s DNS did not follow the file in /etc/resolv.conf now (another program's): ${reason}.` : '';
  return {
    ...base,
    severity: 'warn',
    title: via ? 'K2s DNS state: /etc/resolv.conf changed by another program (still through K2s DNS)' : 'K2s DNS state: /etc/resolv.conf changed by another program',
    // The verb status says (status.ts driftVerb, the follower's fileWriteHow: walk 11 L10).
    meaning: `/etc/resolv.conf was ${s.driftVerb ?? 'replaced'} by ${s.driftWriter ?? 'another program'} while K2s DNS ran, ${via && route ? `but host apps still ask the proxy: ${viaK2sWords(route)}` : 'so host apps no longer ask the proxy'}.${why}`,
    fix: cli,
    remedy: { action: 'show-diff', gui, cli: cliRemedy },
    detail: { ...detail, ...(route ? { driftRoute: route } : {}), keepRisk: kind, driftDefault: risk ? 'restore' : 'keep', ...(pointer ? { pointsAt: 'health' } : {}) },
  };
}

/**
 * The restart of k2s-dnsproxy in progress by status's restart fields (status.ts: `watchdogRestart`
 * from host/watchdog-restart.ts restartInProgress, or systemd's `serviceRestart` before it gives
 * up), as one sentence without a fix; null when nothing restarts it. The rule status-watch.ts
 * restartInProgress keeps: no new probe here.
 */
function restartNow(s: HostDnsStatus): string | null {
  const w = s.watchdogRestart;
  if (w) return `the watchdog is restarting k2s-dnsproxy (${watchdogRestartWords(w)})`;
  const sd = s.serviceRestart;
  if (sd && !sd.gaveUp) return `systemd is restarting k2s-dnsproxy (attempt ${sd.attempt}${sd.lastExit ? `; ${lastRunWords(sd.lastExit)}` : ''})`;
  return null;
}

/**
 * The finding after K2s's own `k2s stop` that the network follower did not finish
 * (HostDnsStatus.originalBack: the saved original back, k2s-dnsproxy stopped, not crashed): status's
 * rule (its `original-back` verdict, shared/health.ts) — not a proxy to start again, nor "half
 * started or half stopped": K2s DNS's own stop finishes it over the user's file.
 */
function originalBackFinding(base: { id: string; title: string }, detail: Record<string, unknown>): DoctorFinding {
  return {
    ...base,
    severity: 'warn',
    title: 'K2s DNS state: its stop has not run',
    meaning: "Your original resolver is back at /etc/resolv.conf and k2s-dnsproxy is stopped, as K2s's own `k2s stop` leaves them, but K2s DNS's saved state and companions are left: K2s DNS's own stop has not run yet.",
    fix: `Run \`${cliCommand('stop', true)}\` (${STOP_FINISHES}).`,
    remedy: { action: 'stop', gui: `Press Stop (${STOP_FINISHES}).`, cli: cliCommand('stop', true) },
    detail: { ...detail, originalBack: true },
  };
}

/**
 * The finding when K2s DNS is started (its state and /etc/resolv.conf are K2s's) but the proxy is
 * not running and nothing restarts it: the watchdog or systemd gave up, or it died with neither
 * watching. Not "half started or half stopped" with recover / stop + start: nothing was
 * interrupted, and start alone runs it again over the kept saved original (status.ts says the
 * same; after systemd's start limit, stop then start, as status says). Only status's messages
 * about k2s-dnsproxy are its meaning (the others have their own findings). Null otherwise.
 */
function proxyDownFinding(s: HostDnsStatus, base: { id: string; title: string }, detail: Record<string, unknown>): DoctorFinding | null {
  if (s.pid !== null || s.savedAt === null || s.resolverOwner !== 'k2s' || s.stateProblem || s.stateUnreadable || s.operation) return null;
  const about = s.messages.filter((m) => m.includes('k2s-dnsproxy'));
  const limit = s.serviceRestart?.gaveUp === true;
  const then = limit ? `\`${cliCommand('stop', true)}\`, then ${codeSpan(cliCommand('start', true))}` : codeSpan(cliCommand('start', true));
  return {
    ...base,
    severity: 'warn',
    title: 'K2s DNS state: degraded',
    meaning: `K2s DNS is started (the saved original is kept) but k2s-dnsproxy is not running, and nothing restarts it${about.length ? `: ${about.join(' ')}` : '.'}`,
    fix: `Fix the cause (${K2S_PATHS.log} says why), then run ${then}: it starts k2s-dnsproxy again and keeps your saved original.`,
    remedy: limit
      ? { action: 'stop', gui: 'Fix the cause (the Logs view says why), then press Stop, then Start.', cli: `fix the cause, then ${cliCommand('stop', true)}, then ${cliCommand('start', true)}` }
      : { action: 'start', gui: 'Fix the cause (the Logs view says why), then press Start: it starts k2s-dnsproxy again and keeps your saved original.', cli: `fix the cause, then ${cliCommand('start', true)}` },
    detail: { ...detail, proxyDown: true },
  };
}

/**
 * The finding while the watchdog or systemd restarts the proxy (walk 13 M1): an info, never
 * "half started or half stopped" with recover / stop + start, which would race the restart. Only
 * the restart is said: status's other messages have their own findings (the writable-file
 * paragraph is resolv-writable's). The fix is to wait (shared/health.ts `wait-watchdog`); when
 * the health finding already gives it (its verdict waits for the restart), this one points there.
 */
function restartFinding(restart: string, report: HealthReport, base: { id: string; title: string }, detail: Record<string, unknown>): DoctorFinding {
  const v = report.verdict;
  const pointer = v.action === 'wait-watchdog' && v.level !== 'ok' ? healthFixPointer(v) : null;
  const wait = { cli: fixText('wait-watchdog', 'cli') ?? '', gui: fixText('wait-watchdog', 'gui') ?? '' };
  return {
    ...base,
    severity: 'info',
    title: 'K2s DNS state: restarting k2s-dnsproxy',
    meaning: `K2s DNS is started and k2s-dnsproxy is not running now: ${restart}. Nothing was interrupted; the saved original and /etc/resolv.conf stay as they are.`,
    fix: pointer ? pointer.fix : wait.cli,
    remedy: pointer ? pointer.remedy : { action: null, gui: wait.gui, cli: wait.cli },
    detail: { ...detail, restart, ...(pointer ? { pointsAt: 'health' } : {}) },
  };
}
