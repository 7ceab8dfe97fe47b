/**
 * Code spans in the texts both front ends show (status, doctor, refusals; the window renders them
 * as <code>, renderer/src/components/RichText.tsx): written and read by one rule, CommonMark's
 * (spec 0.31.2, 6.1 "Code spans"). A span opens with a run of N backticks and closes at the next
 * run of exactly N, so a command holding a backtick (a shell-quoted kubeconfig path with one in
 * its name) is fenced with a longer run and stays one span.
 * Pure module: no Node or DOM imports.
 */

/** The longest run of backticks in `text` (0 when none). */
function longestTickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * `content` as one code span: fenced by one backtick more than its longest run of backticks
 * (`` `ls` `` for none), with a space inside each fence when it begins or ends with a backtick,
 * or begins and ends with a space (CommonMark strips one space from each end then, when the
 * content is not all spaces), so splitCodeSpans gives back `content` exactly.
 */
export function codeSpan(content: string): string {
  const fence = '`'.repeat(longestTickRun(content) + 1);
  const pad = content.startsWith('`') || content.endsWith('`') || (content.length > 1 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}

/** One piece of a text: code (a span's content) or prose. */
export interface TextPart {
  code: boolean;
  text: string;
}

/**
 * `text` split into prose and code spans by CommonMark's rule: a run of N backticks opens a span
 * closed by the next run of exactly N; a run with no such closer is prose, as are the backticks
 * in it (`it`s`). A span's content loses one space at each end when it has one at both and is
 * not all spaces. Backslash escapes and line endings are not read (the texts are one line, and
 * their shell quoting holds backslashes). Empty parts are left out.
 */
export function splitCodeSpans(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let prose = '';
  let at = 0;
  while (at < text.length) {
    const open = /`+/g;
    open.lastIndex = at;
    const m = open.exec(text);
    if (m === null) break;
    prose += text.slice(at, m.index);
    const n = m[0].length;
    const close = new RegExp(`(?<!\`)\`{${n}}(?!\`)`, 'g');
    close.lastIndex = m.index + n;
    const c = close.exec(text);
    if (c === null) {
      prose += m[0];
      at = m.index + n;
      continue;
    }
    let code = text.slice(m.index + n, c.index);
    if (code.length > 1 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
    if (prose !== '') parts.push({ code: false, text: prose });
    prose = '';
    parts.push({ code: true, text: code });
    at = c.index + n;
  }
  prose += text.slice(at);
  if (prose !== '') parts.push({ code: false, text: prose });
  return parts;
}
