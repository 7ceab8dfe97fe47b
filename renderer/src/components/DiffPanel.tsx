/** Resolver diff: saved original vs current /etc/resolv.conf, unified or side by side, plus metadata changes. */
import { RichText } from './RichText';
import type { ResolverEntry } from '../../../shared/types';
import { sideBySide, unifiedDiffLines } from '../lib/side-by-side';
import { diffTexts } from '../../../shared/diff-texts';
import { CADENCE_MS } from '../../../shared/cadence';
import { lastKnownText } from '../lib/last-known';
import { usePoll } from '../lib/use-poll';
import { useDiff } from '../stores';

/** Shown when there is no saved copy: after a stop there simply is none (no claim it never ran). */
export const NO_SAVED_ORIGINAL = 'No saved original: K2s DNS is not running, so /etc/resolv.conf is your own file.';

/** One-line description of a saved/current entry. */
function describe(e: ResolverEntry | null): string {
  if (!e) return NO_SAVED_ORIGINAL;
  if (e.kind === 'absent') return 'absent';
  if (e.kind === 'symlink') return `symlink → ${e.target}${e.dangling ? ' (dangling)' : ''}`;
  return `regular file, mode ${e.mode.toString(8).padStart(4, '0')}, uid ${e.uid}${e.immutable ? ', immutable' : ''}`;
}

/** The Resolver diff panel. */
export function DiffPanel() {
  const diff = useDiff((s) => s.diff);
  const view = useDiff((s) => s.view);
  const setView = useDiff((s) => s.setView);
  const error = useDiff((s) => s.error);
  const fetchedAt = useDiff((s) => s.fetchedAt);
  const refresh = useDiff((s) => s.refresh);
  usePoll(refresh, CADENCE_MS.diff);
  // A side that is no text (NUL bytes, not UTF-8) is one line naming its size, not lines of �.
  const texts = diff ? diffTexts(diff) : { saved: '', current: '' };
  return (
    <section className="panel" data-testid="panel-diff">
      <h2>Resolver diff</h2>
      {error && <p className="error-text" role="alert"><RichText text={error} /></p>}
      {error && diff && fetchedAt !== null && (
        <p className="warn-text" data-testid="diff-last-known">
          The diff below is {lastKnownText(fetchedAt)}; this tab asks again every {CADENCE_MS.diff / 1000} s.
        </p>
      )}
      {diff && (
        <>
          <dl className="facts">
            <dt>Saved</dt>
            {/* As a user: root's copy while K2s DNS runs (savedRootOnly), or none seen after Stop (savedUnknown). */}
            <dd data-testid="diff-saved">{!diff.saved && (diff.savedRootOnly ?? diff.savedUnknown) ? <RichText text={(diff.savedRootOnly ?? diff.savedUnknown)!} /> : describe(diff.saved)}</dd>
            <dt>Current</dt>
            <dd data-testid="diff-current">{describe(diff.current)}</dd>
            {diff.saved && (
              <>
                <dt>Identical</dt>
                <dd>{diff.identical ? 'yes' : 'no'}</dd>
              </>
            )}
          </dl>
          {diff.changes.length > 0 && (
            <>
              <h3>What changed</h3>
              <ul data-testid="diff-changes">
                {diff.changes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </>
          )}
          {diff.savedRootOnly ? (
            // The copy exists but is root's: the file as it is now, not "nothing to compare".
            <pre className="code" data-testid="diff-current-text">{texts.current}</pre>
          ) : diff.savedText === null ? (
            <p className="muted">Nothing to compare: the saved original exists only while K2s DNS runs.</p>
          ) : (
            <>
              <div className="row">
                <button type="button" className={view === 'side-by-side' ? 'tab active' : 'tab'} onClick={() => setView('side-by-side')} data-testid="diff-view-side">Side by side</button>
                <button type="button" className={view === 'unified' ? 'tab active' : 'tab'} onClick={() => setView('unified')} data-testid="diff-view-unified">Unified</button>
              </div>
              {view === 'unified' ? (
                <pre className="code" data-testid="diff-unified">
                  {unifiedDiffLines(texts.saved, texts.current).map((l, i) => (
                    <div key={i} className={l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : ''}>{l || ' '}</div>
                  ))}
                </pre>
              ) : (
                <table className="table sbs mono" data-testid="diff-side">
                  <thead>
                    <tr><th>Saved original</th><th>Current</th></tr>
                  </thead>
                  <tbody>
                    {sideBySide(texts.saved, texts.current).map((r, i) => (
                      <tr key={i} className={r.kind}>
                        <td className={r.kind === 'removed' || r.kind === 'changed' ? 'del' : ''}>{r.left ?? ''}</td>
                        <td className={r.kind === 'added' || r.kind === 'changed' ? 'add' : ''}>{r.right ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
