/** Diagnostics panel: `k2s-dns doctor` findings grouped by severity, each with what it means and the fix. */
import { useEffect, useMemo } from 'react';
import type { DoctorSeverity } from '../../../shared/doctor';
import { countFindings, groupFindings } from '../../../shared/doctor';
import { stores, useDiagnostics } from '../stores';

const HEADING: Record<DoctorSeverity, string> = { error: 'Errors', warn: 'Warnings', info: 'Info', ok: 'OK' };
const BADGE: Record<DoctorSeverity, string> = { error: 'bad', warn: 'warn', info: 'neutral', ok: 'ok' };

/** The Diagnostics panel; runs the checks when first shown and on "Run checks". */
export function DiagnosticsPanel() {
  const findings = useDiagnostics((s) => s.findings);
  const running = useDiagnostics((s) => s.running);
  const error = useDiagnostics((s) => s.error);
  const ranAt = useDiagnostics((s) => s.ranAt);
  // Grouped here, not in the selector: a selector returning a new array each time re-renders forever.
  const groups = useMemo(() => (findings ? groupFindings(findings) : []), [findings]);
  useEffect(() => {
    if (stores.diagnostics.getState().findings === null) void stores.diagnostics.getState().run();
  }, []);
  const counts = findings ? countFindings(findings) : null;
  return (
    <section className="panel" data-testid="panel-diagnostics">
      <h2>Diagnostics</h2>
      <div className="row">
        <button type="button" onClick={() => void stores.diagnostics.getState().run()} disabled={running} data-testid="diagnostics-run">
          {running ? 'Checking…' : 'Run checks'}
        </button>
        {counts && (
          <span data-testid="diagnostics-summary">
            {(['error', 'warn', 'info', 'ok'] as const).map((s) => (
              <span key={s} className={`badge ${BADGE[s]}`}>
                {counts[s]} {HEADING[s].toLowerCase()}
              </span>
            ))}
          </span>
        )}
        {ranAt !== null && <span className="muted">checked {new Date(ranAt).toLocaleTimeString()}</span>}
      </div>
      <p className="muted">Read-only checks of this host (the same as `k2s-dns doctor`); nothing is changed.</p>
      {error && <p className="error-text" role="alert">{error}</p>}
      {!findings && !error && <p className="muted">Running checks…</p>}
      {groups.map((g) => (
        <div key={g.severity} data-testid={`diagnostics-group-${g.severity}`}>
          <h3>
            {HEADING[g.severity]} ({g.findings.length})
          </h3>
          {g.findings.map((f) => (
            <div key={f.id} className="card" data-testid={`finding-${f.id}`}>
              <p>
                <span className={`badge ${BADGE[f.severity]}`}>{f.severity}</span> <strong>{f.title}</strong>
              </p>
              <p>{f.meaning}</p>
              {f.fix && (
                <p className={f.severity === 'error' ? 'error-text' : f.severity === 'warn' ? 'warn-text' : ''} data-testid={`finding-${f.id}-fix`}>
                  Fix: {f.fix}
                </p>
              )}
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}
