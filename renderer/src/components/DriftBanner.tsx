/**
 * Drift banner: shown while K2s DNS is active and /etc/resolv.conf was
 * rewritten by another program (resolverOwner `foreign`). Shows what changed and offers the
 * two ways to stop, named as everywhere (shared/fix.ts DRIFT_CHOICE; after a follow the restore is
 * named after the file it puts back, the Host DNS card's Stop puts back select: shared/saved-copy.ts
 * restoreLabel); keep is the default, so
 * the other program wins — unless keeping their file is the worse choice (shared/drift-default.ts):
 * it is no resolver file at all (the follower's reason, status.driftFileRefusal), it names no nameserver but the proxy's, its nameserver does not answer (the health report's
 * host-apps hop for this very file), or a user owns or may write it (the follower refused it);
 * the banner then says why and Restore my original is the default. It is the ONE place in the app to make the drift choice (the verdict,
 * the Host DNS card and Diagnostics point here). Both choices ask first, in the one modal <dialog>
 * (focus moves in to Cancel, Escape cancels): Restore my original overwrites the other program's
 * file, and Keep their file discards the saved copy for good and may leave no nameserver that
 * answers (walk 5 M4: Keep acted in one click).
 */
import { timeText } from '../lib/last-known';
import { useEffect, useRef, useState } from 'react';
import { DRIFT_CHOICE } from '../../../shared/fix';
import { driftLead, driftViaLead } from '../lib/drift-lead';
import { keepRisk, keepRiskOutcome, keepRiskWords, savedNameserversNow } from '../../../shared/drift-default';
import { driftRestoreLabel, followedCopy, savedCopyWords } from '../../../shared/saved-copy';
import { pastReason } from '../../../shared/network-writer';
import { unifiedDiffLines } from '../lib/side-by-side';
import { diffTexts } from '../../../shared/diff-texts';
import { stores, useDiff, useDns, useHealth } from '../stores';
import { useUi } from '../lib/ui-state';

/** The two ways to stop on drift, as DRIFT_CHOICE names them. */
type DriftChoice = keyof typeof DRIFT_CHOICE;

/** `the original saved at start` → `The original saved at start` (a sentence's start). */
function capitalize(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The body's words for a deleted file (or a dangling link): the title says what happened. */
export const GONE_WORDS = 'There is no file of theirs to keep: stopping K2s DNS puts your saved original back, byte for byte.';

/**
 * A Keep warning (shared/drift-default.ts keepRiskWords) without its "stops K2s DNS": the lead
 * before it says both choices stop K2s DNS (walk 11 L5). The Keep dialog keeps the whole words.
 */
export function withoutStopClause(warning: string): string {
  return warning.replace('Keeping their file stops K2s DNS and leaves ', 'Keeping their file leaves ');
}

/** The banner's element id: other places move focus here instead of offering the choice themselves. */
export const DRIFT_BANNER_ID = 'drift-banner';

/** Scrolls to the drift banner and focuses it (the one place to choose); false when there is none. */
export function focusDriftBanner(): boolean {
  const el = document.getElementById(DRIFT_BANNER_ID);
  if (!el) return false;
  el.scrollIntoView({ block: 'nearest' });
  el.focus();
  return true;
}

/**
 * Renders the banner on drift. It has no poll of its own: the window's status watch (App, every
 * second, stores/dns.ts) already follows every change; a second poller raced it and swallowed
 * "started/stopped outside this window" results.
 */
export function DriftBanner() {
  const status = useDns((s) => s.status);
  const busy = useDns((s) => s.busy);
  const stop = useDns((s) => s.stop);
  const diff = useDiff((s) => s.diff);
  // After a follow the saved copy is the network's file K2s adopted, not start's (shared/saved-copy.ts);
  // status.followedChange names it even when a later drift replaced networkChange before this window opened.
  const networkChanges = useDns((s) => s.networkChanges);
  const followed = followedCopy([status?.networkChange, status?.followedChange, ...networkChanges], status?.savedAt);
  // The card's "Stop puts back" select (the one control for it): the file from before Start instead of the saved copy.
  const restoreStart = useUi((s) => s.stopRestore) === 'start' && !!status?.startCopy;
  const saved = restoreStart && status?.startCopy ? `the file from before Start (${timeText(Date.parse(status.startCopy.savedAt))})` : savedCopyWords(followed, timeText);
  // The restore button, its dialog and the default named after what it puts back (walk 7 M2: after a
  // follow "Restore my original" put back the followed file): the select's choice, or the saved file.
  const restoreName = driftRestoreLabel(status, networkChanges, restoreStart, timeText);
  const label = (c: DriftChoice) => (c === 'restore' ? restoreName : DRIFT_CHOICE.keep.label);
  // The choice the dialog asks about; null while it is closed.
  const [confirming, setConfirming] = useState<DriftChoice | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const drifted = status?.resolverOwner === 'foreign';
  // The same fact as the verdict line above: resolves or not, from the one health report.
  const resolves = useHealth((s) => s.report?.verdict.resolves ?? null);
  const report = useHealth((s) => s.report);

  // Fetch the diff once drift appears, and again whenever the file changes while it lasts (a
  // second write, a deletion: status's resolverStamp), so the banner shows the file that would stay.
  const stamp = status?.resolverStamp ?? null;
  useEffect(() => {
    if (drifted) void stores.diff.getState().refresh();
  }, [drifted, stamp]);

  // showModal moves focus into the dialog (to its autofocus Cancel) and makes the page inert.
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (confirming !== null && !d.open) d.showModal?.();
    if (confirming === null && d.open) d.close();
  }, [confirming, drifted]);

  if (!drifted) return null;
  // Their file may still reach the proxy (no nameserver line, or 127.0.0.1 first): then keeping
  // it and stopping leaves nothing that answers, so the default is the other choice.
  const route = status?.driftRoute ?? null;
  const via = route?.viaK2s === true;
  // Keep is the default unless it leaves no nameserver that answers, or a file a user may write (shared/drift-default.ts).
  const risk = keepRisk(status, report);
  // Only what the report shows of the saved copy's nameservers: a followed network's may be gone too.
  const savedNow = savedNameserversNow(status, report);
  const savedWords = savedNow === 'answer' ? ', whose nameservers answer without K2s DNS' : savedNow ? `, but its nameservers do not answer now either (${savedNow.dead}): no name would resolve after either choice until the network is fixed` : '';
  const keepIsDefault = risk === null;
  // The dialog keeps the last choice's words while it closes (null only before the first ask).
  const shown: DriftChoice = confirming ?? 'restore';
  // The long explanation is said once in the window, here next to the choice; the Keep dialog
  // repeats only what Keep does (keepRiskOutcome), the verdict one clause (walk 9 M3).
  // Deleted: the title says what happened, so the body says only what follows from it (walk 11
  // L5: "was deleted while K2s DNS ran" stood in the title, the body and the verdict). Else the
  // lead already says both choices stop K2s DNS, so the warning says only what Keep leaves.
  const warning = risk?.kind === 'gone' ? GONE_WORDS : risk ? withoutStopClause(keepRiskWords(risk, route)) : null;
  const keepOutcome = risk ? keepRiskOutcome(risk, route) : null;
  const keepButton = (
    <button type="button" className={keepIsDefault ? undefined : 'secondary danger'} disabled={busy !== null} title={busy ? `Wait: ${busy} is still running.` : warning ?? DRIFT_CHOICE.keep.what} onClick={() => setConfirming('keep')} data-testid="drift-keep">
      {DRIFT_CHOICE.keep.label}…{keepIsDefault ? ' (default)' : ''}
    </button>
  );
  const restoreButton = (
    <button type="button" className={keepIsDefault ? 'secondary' : undefined} disabled={busy !== null} title={busy ? `Wait: ${busy} is still running.` : followed || restoreStart ? `stop K2s DNS and put back ${saved}, byte for byte` : DRIFT_CHOICE.restore.what} onClick={() => setConfirming('restore')} data-testid="drift-restore">
      {/* Deleted: the one button, so no "(default)" beside it (walk 12 M2). */}
      {restoreName}…{keepIsDefault || risk?.kind === 'gone' ? '' : ' (default)'}
    </button>
  );
  // Deleted (or a dangling link): no file of theirs to keep, and stop puts the saved original back
  // whatever the choice (teardown.ts isGone): said as such, never as "no nameserver line" (walk5 M5).
  const gone = risk?.kind === 'gone' ? risk.what : null;
  // A file that is no text (NUL bytes, not UTF-8) is one line naming its size, not lines of � (walk 6 L5).
  const texts = diff ? diffTexts(diff) : null;
  return (
    <div className="banner warn" role="alert" id={DRIFT_BANNER_ID} tabIndex={-1} data-testid="drift-banner" data-route={via ? 'via-k2s' : 'bypass'}>
      <strong>{gone ? `/etc/resolv.conf was ${gone} while K2s DNS was running.` : 'Another program rewrote /etc/resolv.conf while K2s DNS was running.'}</strong>
      {gone ? (
        <p data-testid="drift-lead">
          {resolves === false ? 'Cluster names do not resolve on this host (see the verdict below). ' : resolves === true ? 'Host apps still go through K2s DNS (the verdict below says how). Nothing is broken now: you can leave K2s DNS running as it is. ' : 'Host apps still go through K2s DNS: with no file glibc asks 127.0.0.1:53 (resolv.conf(5)), k2s-dnsproxy\'s listener. Nothing is broken now: you can leave K2s DNS running as it is. '}
          <strong data-testid="drift-keep-warning" data-risk="gone">{warning}</strong>
        </p>
      ) : via && route ? (
        <p data-testid="drift-lead">
          {driftViaLead(resolves, route)} Nothing is broken now: you can leave K2s DNS running as it is. Both choices below stop K2s DNS.{' '}
          {warning ? (
            <>
              <strong data-testid="drift-keep-warning" data-risk={risk!.kind}>{warning}</strong> So the default is <strong>{restoreName}</strong>: it puts back {saved}, byte for byte{risk!.kind === 'no-nameserver' ? savedWords : ''}.
            </>
          ) : (
            <>They differ in which file stays: theirs (the saved copy is then gone), or {saved}, put back byte for byte.</>
          )}
        </p>
      ) : (
        <p data-testid="drift-lead">
          {driftLead(resolves)} Both choices below stop K2s DNS now; they differ in which file stays: theirs (the saved copy is then gone), or {saved}, put back byte for byte.{' '}
          {warning ? (
            <>
              <strong data-testid="drift-keep-warning" data-risk={risk!.kind}>{warning}</strong> So the default is <strong>{restoreName}</strong>.
            </>
          ) : (
            <>
              The default is <strong>{DRIFT_CHOICE.keep.label}</strong>, because the program that wrote it (NetworkManager, a VPN client…) usually knows the
              current network better than {followed ? 'that saved copy' : 'the copy saved at start'}.
            </>
          )}
        </p>
      )}
      {status?.networkChange?.now ? (
        // The follower's refusal no longer holds of the file as it is now (its mode fixed by the
        // printed chmod): said here, so the default above never changes without a word (walk 9 H1, L6).
        <p data-testid="drift-refusal-now">
          K2s DNS did not follow their file at {timeText(Date.parse(status.networkChange.at))}: {pastReason(status.networkChange.reason ?? 'unknown reason').replace(/^the new file/, 'it')}. {status.networkChange.now}
        </p>
      ) : null}
      {diff?.savedText != null && (
        <pre className="code" data-testid="drift-diff">
          {unifiedDiffLines(texts!.saved, texts!.current).map((l, i) => (
            <div key={i} className={l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : ''}>{l || ' '}</div>
          ))}
        </pre>
      )}
      <div className="row">
        {/* Deleted: there is no file of theirs to keep, so no Keep button (walk 8 L3, walk 11 M2). */}
        {gone ? (
          restoreButton
        ) : keepIsDefault ? (
          <>
            {keepButton}
            {restoreButton}
          </>
        ) : (
          <>
            {restoreButton}
            {keepButton}
          </>
        )}
      </div>
      {/* Escape fires `cancel`, which closes the dialog: onClose resets the state, nothing runs. */}
      {/* One dialog for both choices; its test ids name the choice (confirm-keep, btn-cancel-restore…). */}
      <dialog ref={dialog} className="confirm" aria-labelledby="confirm-drift-title" aria-describedby="confirm-drift-text" onClose={() => setConfirming(null)} data-testid={`confirm-${shown}`} data-choice={shown}>
        <h3 id="confirm-drift-title">{label(shown)}?</h3>
        {gone ? (
          <p id="confirm-drift-text">
            There is no file of theirs to keep or replace: this stops K2s DNS and puts back {followed || restoreStart ? saved : 'the original saved when K2s DNS started'}, byte for byte.
          </p>
        ) : shown === 'restore' ? (
          <p id="confirm-drift-text">
            This replaces the /etc/resolv.conf the other program wrote with {followed || restoreStart ? saved : `the original saved when K2s DNS started${status?.savedAt ? ` (${timeText(Date.parse(status.savedAt))})` : ''}`}, byte for byte, then
            stops K2s DNS.{' '}
            {/* A file that is no resolver file (NUL bytes, garbage: status.driftFileRefusal) holds no settings to lose (walk 10 L6). */}
            {status?.driftFileRefusal ? 'Their file is no resolver file, so no settings of theirs are lost.' : "The other program's settings in that file are lost until it writes them again."}
          </p>
        ) : (
          <p id="confirm-drift-text">
            This stops K2s DNS and leaves the /etc/resolv.conf the other program wrote. {capitalize(savedCopyWords(followed, timeText))}{status?.startCopy ? ' and the file from before Start are' : ' is'} then discarded: K2s DNS cannot put {status?.startCopy ? 'them' : 'it'} back afterwards.
            {keepOutcome ? (
              <>
                {' '}
                <strong data-testid="confirm-keep-warning">{keepOutcome}</strong>
              </>
            ) : null}
          </p>
        )}
        <div className="row">
          <button type="button" className="secondary" autoFocus onClick={() => setConfirming(null)} data-testid={`btn-cancel-${shown}`}>
            Cancel
          </button>
          <button type="button" className="danger" onClick={() => { setConfirming(null); void stop(shown === 'restore' ? { onDrift: 'restore', ...(restoreStart ? { restore: 'start' as const } : {}) } : { onDrift: 'keep' }); }} data-testid={`btn-confirm-${shown}`}>
            {label(shown)}
          </button>
        </div>
      </dialog>
    </div>
  );
}
