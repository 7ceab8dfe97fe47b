/**
 * The one polite live region (WAI-ARIA `role=status`): announces host DNS state changes,
 * operation results, query results, diagnostics runs and "Copied". Visually hidden; screen
 * readers read each new text once.
 */
import { useEffect, useState } from 'react';
import { afterResult, announceFindings, announceQuery, announceResult, SILENT, statusWords } from '../lib/announce';
import { uiState } from '../lib/ui-state';
import { stores } from '../stores';

/** After an operation's result is announced, status changes are not announced for this long (ms). */
export const RESULT_HOLD_MS = 3000;

/** Other components announce one-off events (e.g. "Copied") through this. */
export const announcer = { say: (_text: string): void => {} };

/** The live region element; subscribes to the stores it announces. */
export function LiveRegion() {
  const [text, setText] = useState('');
  useEffect(() => {
    let resultShownAt = 0;
    // What was last said of the status (lib/announce.ts statusWords): a change while an operation
    // ran or its result was held is said after, so the words end as the badge does (walk 13 L1).
    let voice = SILENT;
    announcer.say = setText;
    const offs = [
      stores.dns.subscribe((s, prev) => {
        if (s.lastResult && s.lastResult !== prev.lastResult) {
          resultShownAt = Date.now();
          voice = afterResult(voice, s.status);
          setText(announceResult(s.lastResult));
          return;
        }
        // The status refresh right after an operation repeats its result: the result stays the announcement.
        const fresh = Date.now() - resultShownAt < RESULT_HOLD_MS;
        const said = statusWords(voice, s.status, !!s.busy, fresh);
        voice = said.voice;
        if (said.text !== null) setText(said.text);
      }),
      stores.query.subscribe((s, prev) => {
        if (s.result && s.result !== prev.result) setText(announceQuery(s.result));
        else if (s.comparison && s.comparison !== prev.comparison) setText(`Compared ${s.comparison.length} targets: ${s.comparison.map((r) => r.rcode).join(', ')}.`);
        else if (s.error && s.error !== prev.error) setText(s.error);
      }),
      stores.diagnostics.subscribe((s, prev) => {
        // The checks also run in the background after each operation (they gate Start): only a run
        // on the Diagnostics tab is announced, so it never drowns the operation's own result.
        if (s.findings && s.findings !== prev.findings && uiState.getState().tab === 'diagnostics') setText(announceFindings(s.findings));
      }),
    ];
    return () => {
      announcer.say = () => {};
      offs.forEach((off) => off());
    };
  }, []);
  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="live-region">
      {text}
    </div>
  );
}
