/** `k2s-dns doctor` output for people: a summary line, then findings worst first with their fix. */
import { countFindings, groupFindings, shownMeaning, type DoctorFinding } from '../../shared/doctor';
import { terminalSafe as t } from './terminal-safe';

const LABEL = { error: 'ERROR', warn: 'WARN', info: 'INFO', ok: 'OK' } as const;
const INDENT = ' '.repeat(7);
/** Columns a wrapped line fills at most (a long word, e.g. a path, may pass it). */
const WIDTH = 100;
/** The marks a hop line starts with (shared/health.ts HOP_SYMBOL): such lines are listed under `why:`. */
const HOP_LINE = /^[✓!✗–] /;

/**
 * `text` broken at spaces into lines of at most WIDTH columns, the first after `first`, the
 * others after `rest` (both indents). A line holding a command (a backtick) is left whole, so it
 * pastes as printed.
 */
export function wrapText(text: string, first: string, rest: string): string[] {
  if (first.length + text.length <= WIDTH || text.includes('`')) return [first + text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const indent = lines.length === 0 ? first : rest;
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push((lines.length === 0 ? first : rest) + line);
  return lines;
}

/**
 * A meaning for people: one line as it is; several (the health finding's path, electron/core/doctor/health.ts
 * pathMeaning) as a `why:` paragraph, each hop on its own wrapped line below it.
 */
function meaningLines(meaning: string): string[] {
  const parts = meaning.split('\n').map((l) => t(l));
  if (parts.length === 1) return [`${INDENT}${parts[0]}`];
  return parts.flatMap((l, i) => (i === 0 ? wrapText(l, `${INDENT}why: `, `${INDENT}     `) : HOP_LINE.test(l) ? wrapText(l, `${INDENT}  `, `${INDENT}    `) : wrapText(l, INDENT, `${INDENT}  `)));
}

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
        if (meaning?.includes('\n')) lines.push(`${label}${t(f.title)}`, ...meaningLines(meaning));
        else lines.push(meaning === null ? `${label}${t(f.title)}` : `${label}${t(f.title)}: ${t(meaning)}`);
        continue;
      }
      lines.push(`${label}${t(f.title)}`, ...meaningLines(f.meaning));
      if (f.fix) lines.push(`${INDENT}fix: ${t(f.fix)}`);
    }
  }
  return lines.join('\n');
}
