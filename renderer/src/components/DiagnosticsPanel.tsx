/** Diagnostics panel: the doctor findings grouped by severity, each with what it means and the fix in app words. */
import { clockTime } from '../lib/last-known';
import { useEffect, useMemo } from 'react';
import type { DoctorSeverity } from '../../../shared/doctor';
import { countFindings, groupFindings, shownMeaning } from '../../../shared/doctor';
import { stores, useDiagnostics } from '../stores';
import { severityCountText } from '../lib/announce';
import { FixButton } from './FixButton';
import { RichText } from './RichText';

/** Findings older than this (ms) are checked again when the tab opens. */
const STALE_MS = 30_000;

const HEADING: Record<DoctorSeverity, string> = { error: 'Errors', warn: 'Warnings', info: 'Info', ok: 'OK' };
const BADGE: Record<DoctorSeverity, string> = { error: 'bad', warn: 'warn', info: 'neutral', ok: 'ok' };

/** The Diagnostics panel; runs the checks when first shown and on "Check again". */
export function DiagnosticsPanel() {
  const findings = useDiagnostics((s) => s.findings);
  const running = useDiagnostics((s) => s.running);
  const error = useDiagnostics((s) => s.error);
  const ranAt = useDiagnostics((s) => s.ranAt);
  // Grouped here, not in the selector: a selector returning a new array each time re-renders forever.
  const groups = useMemo(() => (findings ? groupFindings(findings) : []), [findings]);
  // Opening the tab checks again when the findings are older than STALE_MS (a window left open
  // showed a minutes-old "checked at" until Run checks was pressed: new-user pass).
  useEffect(() => {
    const d = stores.diagnostics.getState();
    if (d.findings === null || d.ranAt === null || Date.now() - d.ranAt > STALE_MS) void d.run();
  }, []);
  const counts = findings ? countFindings(findings) : null;
  return (
    <section className="panel" data-testid="panel-diagnostics">
      <h2>Diagnostics</h2>
      <div className="row">
        <button type="button" onClick={() => void stores.diagnostics.getState().run()} disabled={running} data-testid="diagnostics-run">
          {running ? 'Checking…' : 'Check again'}
        </button>
        {counts && (
          <span data-testid="diagnostics-summary">
            {(['error', 'warn', 'info', 'ok'] as const).map((s) => (
              <span key={s} className={`badge ${BADGE[s]}`}>
                {severityCountText(s, counts[s])}
              </span>
            ))}
          </span>
        )}
        {ranAt !== null && <span className="muted" data-testid="diagnostics-ran-at">checked {clockTime(ranAt)}</span>}
      </div>
      <p className="muted">Read-only checks of this host; nothing is changed.</p>
      {error && <p className="error-text" role="alert"><RichText text={error} /></p>}
      {!findings && !error && <p className="muted">Running checks…</p>}
      {groups.map((g) => (
        <div key={g.severity} data-testid={`diagnostics-group-${g.severity}`}>
          <h3>
            {HEADING[g.severity]} ({g.findings.length})
          </h3>
          {g.findings.map((f) => {
            // An ok row whose meaning only repeats its title is the title alone (shared/doctor.ts shownMeaning), as in the CLI.
            const meaning = shownMeaning(f);
            return (
              <div key={f.id} className="card" data-testid={`finding-${f.id}`}>
                <p>
                  <span className={`badge ${BADGE[f.severity]}`}>{f.severity}</span> <strong><RichText text={f.title} /></strong>
                </p>
                {/* pre-line: the health finding's path is one hop per line (electron/core/doctor/health.ts pathMeaning). */}
                {meaning !== null && <p style={{ whiteSpace: 'pre-line' }}><RichText text={meaning} /></p>}
                {(f.remedy || f.fix) && (
                  <p className={f.severity === 'error' ? 'error-text' : f.severity === 'warn' ? 'warn-text' : ''} data-testid={`finding-${f.id}-fix`}>
                    Fix: <RichText text={f.remedy?.gui ?? f.fix!} />
                  </p>
                )}
                {f.remedy?.action && <FixButton action={f.remedy.action} testId={`finding-${f.id}-action`} />}
              </div>
            );
          })}
        </div>
      ))}
    </section>
  );
}
