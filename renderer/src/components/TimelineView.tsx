/** Live step timeline of the latest lifecycle operation: refused, rolled back (and why) or done. */
import { buildTimeline, staleResultSuffix, stepText, timelineRows, withoutVerdictFix } from '../lib/timeline';
import { clockTime, timeText, windowTimes } from '../lib/last-known';
import { useDns, useHealth } from '../stores';
import { RichText } from './RichText';
import { stepWarns } from '../../../shared/step-warn';
import { proxyExitLine, withCurrentPid } from '../lib/proxy-exit';
import { networkChangeLine } from '../lib/network-changes';
import { withoutCarriedWarnings } from '../../../shared/result-warnings';
import type { HostDnsStatus } from '../../../shared/types';

const ICON = { pending: '○', running: '◔', done: '●', failed: '✕', skipped: '–' } as const;

const HEADING = { running: '— running', done: '— done', unchanged: '— nothing changed', warned: '— done, with warnings', refused: '— refused', 'rolled-back': '— rolled back', failed: '— failed' } as const;

/**
 * A RESOLV_CONF_WRITABLE warning while the Host DNS card's note above says the same with the
 * window's fix (status.savedOriginalWritable, shared/writable-resolver.ts savedOriginalWritable):
 * one short reference, not the paragraph again (walk 11 L5: four times in the window); null
 * otherwise (the warning's own text).
 */
export function writableRefers(code: string, status: Pick<HostDnsStatus, 'savedOriginalWritable'> | null): string | null {
  if (code !== 'RESOLV_CONF_WRITABLE' || !status?.savedOriginalWritable) return null;
  return `the saved original /etc/resolv.conf is ${status.savedOriginalWritable} (RESOLV_CONF_WRITABLE); the note above says what that means and how to fix it.`;
}

/** The timeline list. The failure message is shown once: on its step row, or in the result line. */
export function TimelineView() {
  const events = useDns((s) => s.events);
  const busy = useDns((s) => s.busy);
  const status = useDns((s) => s.status);
  const lost = useDns((s) => s.lost);
  const t = buildTimeline(events, busy);
  // After a successful start: the proxy's crash and restart since (time, how, the new PID). Also
  // in a window that saw no operation (opened after a CLI start): status records only this run's.
  const live = (t.op === null || (t.op === 'start' && t.result?.ok)) && status && status.state !== 'stopped' ? status : null;
  const exitLine = live ? proxyExitLine(live, t.result?.at ?? 0) : null;
  // …and each network change since (NetworkManager, resolvconf, a VPN): followed or left as drift, when.
  const networkChanges = useDns((s) => s.networkChanges);
  const changes = live && t.result ? networkChanges.filter((c) => Date.parse(c.at) >= t.result!.at - 1000) : [];
  // A green Start result under a red or amber verdict checked after it is history, not the present
  // (new-user pass: "START — DONE … resolves" under a dead proxy): shown muted, with its time.
  // A Stop's or Uninstall's result never goes stale (staleResultSuffix null): it stays as it is.
  const suffix = staleResultSuffix(t);
  const staleSince = useHealth((s) => {
    const r = s.report;
    return r && suffix !== null && t.result?.ok && (r.verdict.level === 'error' || r.verdict.level === 'warn') && r.checkedAt > t.result.at ? r.checkedAt : null;
  });
  // The verdict's fix, when it is the one a stop result gives for a kept file start refuses: said there once (walk 12 M3).
  const verdictAction = useHealth((s) => s.report?.verdict.action ?? null);
  if (!t.op) {
    return exitLine ? (
      <div className="timeline" data-testid="timeline">
        <p className="warn-text" data-testid="timeline-proxy-exit">{exitLine}</p>
      </div>
    ) : null;
  }
  // The failed step row already carries the cause; repeat the result message only when it adds something.
  const repeated = t.failed !== null && t.result !== null && t.result.message === t.failed.message;
  return (
    <div className="timeline" data-testid="timeline">
      {/* tabIndex -1: Start/Stop move focus here while their button is disabled (LifecycleControls). */}
      <h3 tabIndex={-1} data-testid="timeline-heading">
        {/* A running operation whose end this window cannot learn: the backend is gone (issue 20 low: "running" for good). */}
        {t.op} {(t.outcome ?? 'running') === 'running' && lost ? '— how it ended is not known: the app backend does not answer' : HEADING[t.outcome ?? 'running']}
      </h3>
      <ol>
        {timelineRows(t, timeText).map((row) => {
          if (row.kind === 'unseen') {
            return (
              <li key={row.steps[0]!.step} className="step done" data-testid="step-unseen" data-steps={row.steps.map((s) => s.step).join(' ')} data-status="done">
                <span className="icon" aria-hidden>{ICON.done}</span>
                <span className="step-name">{row.name}</span>
                <span className="step-msg">{row.text}</span>
              </li>
            );
          }
          const s = row.step;
          const warn = stepWarns(s.step, s.status, s.message);
          return (
            <li key={s.step} className={`step ${s.status}${warn ? ' warn' : ''}`} data-testid={`step-${s.step}`} data-status={s.status} data-warn={String(warn)}>
              <span className="icon" aria-hidden>{warn ? '!' : ICON[s.status]}</span>
              <span className="step-name">{s.step}</span>
              <span className="step-msg"><RichText text={windowTimes(s.step === 'service' ? withCurrentPid(s.message, live, changes) : stepText(s, repeated ? null : t.result))} /></span>
            </li>
          );
        })}
      </ol>
      {t.outcome === 'refused' && (
        <p className="error-text" data-testid="refused">
          <strong>Refused — nothing was changed.</strong>
          {t.result?.code ? ` (${t.result.code})` : ''}
        </p>
      )}
      {t.outcome === 'rolled-back' && (
        <p className="error-text" data-testid="rollback-cause">
          Rolled back after <strong>{t.failed?.step ?? 'a failure'}</strong>; the host is as before.
          {t.result?.code ? ` (${t.result.code})` : ''}
        </p>
      )}
      {t.result && !repeated && (
        <p className={staleSince !== null ? 'muted' : t.result.ok ? (t.outcome === 'warned' ? 'warn-text' : 'ok-text') : 'error-text'} data-testid="timeline-result" data-stale={String(staleSince !== null)}>
          {staleSince !== null && `At ${clockTime(t.result.at)}: `}
          {/* A warning the message carries is shown once, in the list below (walk 11 L5). */}
          <RichText text={windowTimes(withoutVerdictFix(t.outcome === 'warned' ? withoutCarriedWarnings(t.result.message, t.result.warnings) : t.result.message, verdictAction))} />
          {staleSince !== null && suffix}
          {t.result.code && t.outcome === 'failed' ? ` (${t.result.code})` : ''}
        </p>
      )}
      {exitLine && (
        <p className="warn-text" data-testid="timeline-proxy-exit">
          {exitLine}
        </p>
      )}
      {changes.length > 0 && (
        <ul className="network-changes" data-testid="timeline-network-changes">
          {changes.map((c) => (
            <li key={`${c.at}|${c.outcome}`} className={c.outcome === 'followed' ? 'ok-text' : 'warn-text'} data-outcome={c.outcome}>
              {networkChangeLine(c)}
            </li>
          ))}
        </ul>
      )}
      {t.outcome === 'warned' && (
        <ul className="warn-text" data-testid="timeline-warnings">
          {t.result!.warnings!.map((w) => (
            <li key={w.code} data-code={w.code}>
              <strong>Warning:</strong> <RichText text={windowTimes(writableRefers(w.code, status) ?? w.message)} />
            </li>
          ))}
        </ul>
      )}
      {t.outcome === 'failed' && repeated && t.result?.code && (
        <p className="error-text" data-testid="timeline-result">Failed ({t.result.code}).</p>
      )}
      {t.result?.code === 'NO_ENGINE' && !/neither/.test(t.result.message) && (
        <p className="hint" data-testid="no-engine-hint">
          Pick <strong>dnsmasq</strong> (or Automatic) in the Engine select above, then press Start again.
        </p>
      )}
    </div>
  );
}
