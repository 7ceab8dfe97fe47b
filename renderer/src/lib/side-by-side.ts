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

/** Aligns saved vs current text into rows; a removal followed by an addition pairs up as `changed`. */
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
      const left = lines(chunk.value);
      const right = lines(next.value);
      for (let j = 0; j < Math.max(left.length, right.length); j++) {
        const l = left[j] ?? null;
        const r = right[j] ?? null;
        rows.push({ kind: l !== null && r !== null ? 'changed' : l !== null ? 'removed' : 'added', left: l, right: r });
      }
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
