/** Side-by-side rows for the resolver diff, from the `diff` package's line diff. */
import { createTwoFilesPatch, diffLines } from 'diff';

/** One aligned row: `left` is the saved line, `right` the current one; null = no line there. */
export interface DiffRow {
  kind: 'same' | 'removed' | 'added' | 'changed';
  left: string | null;
  right: string | null;
}

/** Splits a diff chunk value into lines without the final empty element. */
function lines(value: string): string[] {
  const parts = value.split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/**
 * What a resolv.conf line is, for pairing: its keyword (`nameserver`, `search`, `domain`,
 * `options`, `sortlist`; resolv.conf(5)), `#` for a comment (`;` too), '' for a blank line.
 */
function keywordOf(line: string): string {
  const t = line.trimStart();
  if (t === '') return '';
  if (t.startsWith('#') || t.startsWith(';')) return '#';
  return t.split(/\s/, 1)[0]!;
}

/**
 * Rows for a removed block followed by an added one: lines pair up as `changed` only when they
 * are the same kind of line (the longest common subsequence of their keywords), so the saved
 * `nameserver` sits beside the current `nameserver`, never beside K2s's header comment; the
 * rest are `removed` / `added` rows in file order.
 */
function pairByKeyword(left: string[], right: string[]): DiffRow[] {
  const a = left.map(keywordOf);
  const b = right.map(keywordOf);
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) rows.push({ kind: 'changed', left: left[i++]!, right: right[j++]! });
    else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) rows.push({ kind: 'added', left: null, right: right[j++]! });
    else rows.push({ kind: 'removed', left: left[i++]!, right: null });
  }
  return rows;
}

/** Aligns saved vs current text into rows; in a removal followed by an addition, lines of the same keyword pair up as `changed` (pairByKeyword). */
export function sideBySide(saved: string, current: string): DiffRow[] {
  const rows: DiffRow[] = [];
  const chunks = diffLines(saved, current);
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (!chunk.added && !chunk.removed) {
      for (const l of lines(chunk.value)) rows.push({ kind: 'same', left: l, right: l });
      continue;
    }
    const next = chunks[i + 1];
    if (chunk.removed && next?.added) {
      rows.push(...pairByKeyword(lines(chunk.value), lines(next.value)));
      i++;
      continue;
    }
    for (const l of lines(chunk.value)) {
      rows.push(chunk.added ? { kind: 'added', left: null, right: l } : { kind: 'removed', left: l, right: null });
    }
  }
  return rows;
}

/** Unified diff text (`--- saved` / `+++ current`), as `diff -u` would print it. */
export function unifiedDiff(saved: string, current: string): string {
  const patch = createTwoFilesPatch('saved /etc/resolv.conf', 'current /etc/resolv.conf', saved, current, '', '', { context: 3 });
  // The package starts with a `====` separator line that `diff -u` does not print.
  return patch.replace(/^=+\n/, '');
}

/**
 * The unified diff as display lines: the patch text ends with a newline, which is no line of its
 * own (an empty last element would render as an empty row after the last change).
 */
export function unifiedDiffLines(saved: string, current: string): string[] {
  const lines = unifiedDiff(saved, current).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
