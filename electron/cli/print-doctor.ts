/** `k2s-dns doctor` output for people: a summary line, then findings worst first with their fix. */
import { countFindings, groupFindings, shownMeaning, type DoctorFinding } from '../../shared/doctor';
import { terminalSafe as t } from './terminal-safe';

const LABEL = { error: 'ERROR', warn: 'WARN', info: 'INFO', ok: 'OK' } as const;
const INDENT = ' '.repeat(7);

/** Plural with the count, e.g. `1 error`, `2 warnings`. */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Renders findings: `K2s DNS doctor: 1 error, 0 warnings, 2 info, 9 ok`, then per finding
 * `ERROR  <title>` with the meaning and `fix: …` indented below; `ok` findings take one line.
 */
export function formatDoctor(findings: readonly DoctorFinding[]): string {
  const c = countFindings(findings);
  const lines = [`K2s DNS doctor: ${count(c.error, 'error')}, ${count(c.warn, 'warning')}, ${c.info} info, ${c.ok} ok`];
  for (const group of groupFindings(findings)) {
    lines.push('');
    for (const f of group.findings) {
      const label = LABEL[f.severity].padEnd(INDENT.length);
      if (f.severity === 'ok') {
        // A meaning that only says the title again is left out (walk 14; shared/doctor.ts shownMeaning).
        const meaning = shownMeaning(f);
        lines.push(meaning === null ? `${label}${t(f.title)}` : `${label}${t(f.title)}: ${t(meaning)}`);
        continue;
      }
      lines.push(`${label}${t(f.title)}`, `${INDENT}${t(f.meaning)}`);
      if (f.fix) lines.push(`${INDENT}fix: ${t(f.fix)}`);
    }
  }
  return lines.join('\n');
}
