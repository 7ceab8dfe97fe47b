/**
 * Rows of the raw log view: one row per line, except dnsproxy's multi-record `in`/`out` message
 * dumps (one record per dig-style text line, `line_num=1..N`), which become one row with the
 * whole message; and a separator row before each proxy run (isRunStart).
 */
import { isRunStart } from '../../../shared/log-line';
import type { LogLine } from '../../../shared/types';
import { formatFields, lineCategory, type LogCategory } from './log-filter';

/** A row of the raw view. */
export type RawRow =
  | { kind: 'run'; key: string; run: number; time: string | null; title: string }
  | { kind: 'line'; key: string; line: LogLine; category: LogCategory; text: string; detail: string | null; /** Log lines this row stands for (a grouped dnsproxy message: its records). */ lines: number };

/** Separator title: the engine and what its first line says. */
function runTitle(line: LogLine, next: LogLine | undefined): string {
  if (line.fields.process?.startsWith('dnsmasq')) return `dnsmasq run (${line.message.split(' cachesize')[0]})`;
  const version = (line.message === 'dnsproxy starting' ? line : next)?.fields.version;
  return `AdGuard dnsproxy run${version ? ` (${version})` : ''}`;
}

/**
 * Builds the raw rows of `lines`, keeping only lines for which `keep` is true (a grouped message
 * is kept when its first record is). Separators are emitted for every run start, kept or not,
 * so runs stay apart even when their first line is filtered out. Text = message + fields
 * (`key=value`), nothing dropped; `detail` = the grouped message's text lines.
 */
export function rawRows(lines: readonly LogLine[], keep: (line: LogLine, text: string) => boolean): RawRow[] {
  const rows: RawRow[] = [];
  let run = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isRunStart(line, lines[i - 1] ?? null)) {
      run++;
      rows.push({ kind: 'run', key: `run-${i}`, run, time: line.time ?? lines[i + 1]?.time ?? null, title: runTitle(line, lines[i + 1]) });
    }
    if ((line.message === 'in' || line.message === 'out') && line.fields.line_num === '1') {
      // Collect the following records of this message (consecutive line_num; records of another
      // query interleaved under load end the group early, and are shown on their own).
      const body = [line.fields.line ?? ''];
      let j = i + 1;
      while (j < lines.length && lines[j]!.message === line.message && lines[j]!.fields.line_num === String(body.length + 1)) {
        body.push(lines[j]!.fields.line ?? '');
        j++;
      }
      const detail = body.join('\n').replace(/\t/g, ' ').replace(/\n+$/, '');
      const dir = line.message === 'in' ? 'request (in)' : 'response (out)';
      const q = body.indexOf(';; QUESTION SECTION:');
      const status = /status: (\w+)/.exec(body[0] ?? '')?.[1];
      const question = q >= 0 && body[q + 1] ? body[q + 1]!.replace(/^;/, '').replace(/\s+/g, ' ') : '';
      const text = `${dir}: ${question}${line.message === 'out' && status ? ` → ${status}` : ''}`;
      if (keep(line, `${text}\n${detail}`)) rows.push({ kind: 'line', key: `l-${i}`, line, category: lineCategory(line), text, detail, lines: j - i });
      i = j - 1;
      continue;
    }
    // dnsmasq's message already holds everything its fields were parsed from.
    const text = line.fields.process?.startsWith('dnsmasq') ? line.message : [line.message, formatFields(line.fields)].filter((s) => s !== '').join('  ');
    if (keep(line, text)) rows.push({ kind: 'line', key: `l-${i}`, line, category: lineCategory(line), text, detail: null, lines: 1 });
  }
  return rows;
}
