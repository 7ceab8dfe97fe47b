/** `k2s-dns diff` text: the metadata changes, then a unified diff (the `diff` package) of the saved original vs the current /etc/resolv.conf. */
import { createPatch } from 'diff';
import type { ResolverDiff } from '../../shared/types';
import { diffTexts } from '../../shared/diff-texts';
import { terminalSafe } from './terminal-safe';

/**
 * Human text of a resolver diff. Both files come from DHCP/NetworkManager (search domains are
 * DHCP option 119), so every line goes through terminalSafe: a control character in a search
 * domain is shown as `\x1b`, never sent to the terminal.
 */
export function formatResolverDiff(d: ResolverDiff): string {
  // A user while K2s DNS runs: the copy is root's (diff.ts); the sentence says how to run it as root.
  if (!d.saved && d.savedRootOnly) return terminalSafe(d.savedRootOnly);
  // A user who cannot look in root's state directory, with nothing saying a copy is there (diff.ts).
  if (!d.saved && d.savedUnknown) return terminalSafe(d.savedUnknown);
  if (!d.saved) return 'Nothing saved: K2s DNS is not running (a copy of the original exists only while it runs; stop puts it back and removes the copy), so there is nothing to compare.';
  if (d.identical) return 'No difference: /etc/resolv.conf is the saved original (content, link target, mode, owner).';
  // A side that is no text (NUL bytes, not UTF-8) is one line naming its size (shared/diff-texts.ts).
  const texts = diffTexts(d);
  const patch = createPatch('/etc/resolv.conf', texts.saved, texts.current, 'saved original', 'current');
  // createPatch's own header separates the file name from its label with a tab (our text, not
  // the files'): shown as spaces; a tab inside resolv.conf lines stays visible as \x09.
  const lines = patch.split('\n').map((l, i) => (i < 4 ? l.replace('\t', '  ') : l));
  return [...d.changes.map((c) => `* ${c}`), ...lines].map(terminalSafe).join('\n');
}
