/** Live step timeline of the latest lifecycle operation, with the rollback cause when it failed. */
import { buildTimeline } from '../lib/timeline';
import { useDns } from '../stores';

const ICON = { pending: '○', running: '◔', done: '●', failed: '✕', skipped: '–' } as const;

/** The timeline list. */
export function TimelineView() {
  const events = useDns((s) => s.events);
  const t = buildTimeline(events);
  if (!t.op) return null;
  return (
    <div className="timeline" data-testid="timeline">
      <h3>
        {t.op} {t.result ? (t.result.ok ? '— done' : '— failed') : '— running'}
      </h3>
      <ol>
        {t.steps.map((s) => (
          <li key={s.step} className={`step ${s.status}`} data-testid={`step-${s.step}`} data-status={s.status}>
            <span className="icon" aria-hidden>{ICON[s.status]}</span>
            <span className="step-name">{s.step}</span>
            <span className="step-msg">{s.message}</span>
          </li>
        ))}
      </ol>
      {t.failed && (
        <p className="error-text" data-testid="rollback-cause">
          Rolled back after <strong>{t.failed.step}</strong>: {t.failed.message}
        </p>
      )}
      {t.result && (
        <p className={t.result.ok ? 'ok-text' : 'error-text'} data-testid="timeline-result">
          {t.result.message}
          {t.result.code ? ` (${t.result.code})` : ''}
        </p>
      )}
    </div>
  );
}
