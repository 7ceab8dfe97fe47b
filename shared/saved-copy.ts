/**
 * How to name the resolver copy K2s DNS keeps — what stop's restore puts back — in the banner,
 * its dialog and stop's result: "the original saved at start", or, once a follow adopted the
 * network's newest file (electron/core/lifecycle/follow.ts sets savedAt to the follow's time),
 * "the file NetworkManager wrote at 00:00:40 (followed while K2s DNS ran)". A drift after that
 * follow does not change the copy, so the copy is named by the followed change whose time is
 * savedAt, not by the newest change. Pure module.
 */
import type { HostDnsStatus, NetworkChangeView } from './types';
import { writerName, writtenAt } from './network-writer';
import { cliCommand, DRIFT_CHOICE, type FrontEnd } from './fix';

/** The followed change that made the saved copy (`at` === `savedAt`), among `changes`; null when the copy is start's. */
export function followedCopy(changes: readonly (NetworkChangeView | null | undefined)[], savedAt: string | null | undefined): NetworkChangeView | null {
  if (!savedAt) return null;
  return changes.find((c): c is NetworkChangeView => !!c && c.outcome === 'followed' && c.at === savedAt) ?? null;
}

/** The copy's name; `time` formats the time the file was written (writtenAt, ms since the epoch). */
export function savedCopyWords(followed: NetworkChangeView | null, time: (ms: number) => string): string {
  if (!followed) return 'the original saved at start';
  const ms = Date.parse(writtenAt(followed));
  return `the file ${writerName(followed)} wrote at ${Number.isNaN(ms) ? writtenAt(followed) : time(ms)} (followed while K2s DNS ran)`;
}

/**
 * The "Saved original" line of status and the Host DNS card: who wrote the file a plain stop
 * restores and when. A followed file is named by its writer (`written by another program (the file
 * does not say which) at 12:05:00, followed while K2s DNS ran`), never by the tool that saved the copy;
 * start's copy is the file in place at Start, saved by k2s-dns (or K2s's own CLI).
 */
export function savedOriginalWords(savedAt: string, savedBy: 'k2s-dns' | 'k2s-cli' | null, followed: NetworkChangeView | null, time: (ms: number) => string): string {
  const at = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : time(Date.parse(iso)));
  // Written when the follower first saw it; a follow after a refused file's owner or mode was
  // fixed says the fix at its own time (breaker 10 L2).
  if (followed?.fixed) return `written by ${writerName(followed)} at ${at(writtenAt(followed))}; ${followed.fixed.fix} at ${at(followed.at)}, followed while K2s DNS ran`;
  if (followed) return `written by ${writerName(followed)} at ${at(followed.at)}, followed while K2s DNS ran`;
  return `the file in place at Start, saved at ${at(savedAt)} by ${savedBy === 'k2s-cli' ? "K2s's own CLI" : 'k2s-dns'}`;
}

/**
 * Status's one note on the file from before Start (electron/core/host/start-copy.ts, kept once a
 * follow replaced the saved original) and how to put it back: `stop --restore start`, or in the
 * window the "Stop puts back" select beside Stop (which the drift banner's restore follows too).
 * `drift`: null when /etc/resolv.conf is K2s's; `theirs` while another program's file is there
 * (the restore then goes over it; walk 7 M2: "Restore my original" puts back the followed file, so
 * that choice is named too, as the banner's button: restoreLabel, walk 9 L1); `gone` while it is
 * deleted or a dangling link (no file of theirs: a plain stop restores; walk 11 M2). One note for
 * one fact (walk 11 L5: this was two notes while drift lasted). E.g. with `theirs`, CLI: "The file
 * from before Start (12:00:00 UTC) is kept; `sudo k2s-dns stop --restore start` puts it back over
 * their file, while \"Restore the saved file from 12:05:00 UTC\" (`sudo k2s-dns stop --on-drift
 * restore`) puts back the saved file written by NetworkManager at 12:05:00 UTC."
 */
export function startCopyWords(startSavedAt: string, followed: NetworkChangeView, drift: 'theirs' | 'gone' | null, time: (ms: number) => string, frontEnd: FrontEnd): string {
  const at = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : time(Date.parse(iso)));
  const head = `The file from before Start (${at(startSavedAt)}) is kept`;
  const saved = `the saved file written by ${writerName(followed)} at ${at(writtenAt(followed))}`;
  if (frontEnd === 'gui') {
    const how = 'choosing "the file from before Start" in "Stop puts back" beside Stop';
    return drift ? `${head}; ${how} puts it back, with Stop or the drift banner's restore, instead of ${saved} (the default).` : `${head}; ${how} puts it back.`;
  }
  const cmd = `\`${cliCommand('stop --restore start', true)}\``;
  if (drift === 'theirs') return `${head}; ${cmd} puts it back over their file, while "${restoreLabel(followed, false, null, time)}" (\`${DRIFT_CHOICE.restore.cli}\`) puts back ${saved}.`;
  if (drift === 'gone') return `${head}; ${cmd} puts it back, while a plain \`${cliCommand('stop', true)}\` puts back ${saved}.`;
  return `${head}; ${cmd} puts it back.`;
}

/**
 * The drift restore's label once a follow replaced the saved original (walk 7 M2: "Restore my
 * original" put back the followed file, not the one from before Start): "Restore the file from
 * before Start (12:00:00)" when `fromStart` (the Host DNS card's *Stop puts back* select, `stop
 * --restore start`), else "Restore the saved file from 12:05:00";
 * DRIFT_CHOICE.restore.label ("Restore my original") when no follow replaced it (`followed` null).
 * `startSavedAt`: the file from before Start's savedAt (ISO), read only with `fromStart`.
 */
export function restoreLabel(followed: NetworkChangeView | null, fromStart: boolean, startSavedAt: string | null, time: (ms: number) => string): string {
  const at = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : time(Date.parse(iso)));
  if (fromStart && startSavedAt) return `Restore the file from before Start (${at(startSavedAt)})`;
  if (!followed) return DRIFT_CHOICE.restore.label;
  // Short, no writer (walk 10 L5: nested parentheses on a button): the banner's text and the
  // dialog say who wrote it (savedCopyWords).
  return `Restore the saved file from ${at(writtenAt(followed))}`;
}

/**
 * The drift restore's label for `status`, as the banner's button shows it (restoreLabel over the
 * followed change that made the saved copy, among the status's and `more`, e.g. the window's
 * network-change history): the one function the banner, the window's verdict and `status`'s
 * health line name that choice with (walk 9 L1). `fromStart`: the Host DNS card's "Stop puts
 * back" select chose the file from before Start (read only when the status has one).
 */
export function driftRestoreLabel(status: Pick<HostDnsStatus, 'networkChange' | 'followedChange' | 'savedAt' | 'startCopy'> | null, more: readonly (NetworkChangeView | null | undefined)[], fromStart: boolean, time: (ms: number) => string): string {
  const followed = followedCopy([status?.networkChange, status?.followedChange, ...more], status?.savedAt);
  return restoreLabel(followed, fromStart && !!status?.startCopy, status?.startCopy?.savedAt ?? null, time);
}
