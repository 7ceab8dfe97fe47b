/**
 * Rows of the raw log view: one row per line, except dnsproxy's multi-record `in`/`out` message
 * dumps (one record per dig-style text line, `line_num=1..N`), which become one row with the
 * whole message; and a separator row before each proxy run (isRunStart), and before lines of a
 * run whose start line is not among them (the first lines of a tail, or another engine's lines
 * next: both engines write the same file, walk 11 L13).
 */
import { ENGINES, type EngineName } from '../../../shared/engines/table';
import { isRunStart, lineEngine } from '../../../shared/log-line';
import type { LogLine } from '../../../shared/types';
import { formatFields, lineCategory, type LogCategory } from './log-filter';

/** A row of the raw view. */
export type RawRow =
  | { kind: 'run'; key: string; run: number; time: string | null; title: string; /** The engine of the run. */ engine: EngineName }
  | { kind: 'line'; key: string; line: LogLine; category: LogCategory; text: string; detail: string | null; /** Log lines this row stands for (a grouped dnsproxy message: its records). */ lines: number };

/** Separator title: the engine and what its first line says. */
function runTitle(line: LogLine, next: LogLine | undefined): string {
  const { label, logProcess } = ENGINES[lineEngine(line)];
  // A syslog engine's first line says it all (dnsmasq: `started, version 2.90 cachesize 150`).
  if (logProcess !== null) return `${label} run (${line.message.split(' cachesize')[0]})`;
  const version = (line.message === 'dnsproxy starting' ? line : next)?.fields.version;
  return `${label} run${version ? ` (${version})` : ''}`;
}

/** Title of a run whose start line is not among the lines given (a tail that begins mid-run). */
function unstartedRunTitle(engine: EngineName): string {
  return `${ENGINES[engine].label} run (its start line is not shown)`;
}

/**
 * The engine that surely wrote `line`, or null when the line does not say: a syslog engine's by
 * its process field (dnsmasq's `dnsmasq[812]:` and its stderr `dnsmasq:`), dnsproxy's by its own
 * timestamped formats; the watchdog's lines and untimed text (a panic, a blank) name none.
 */
export function lineRunEngine(line: LogLine): EngineName | null {
  if (line.fields.process !== undefined) return ENGINES[lineEngine(line)].logProcess !== null ? lineEngine(line) : null;
  if (line.time === null || line.message.startsWith('k2s-dns watchdog:')) return null;
  return lineEngine(line);
}

/** A dnsproxy `in`/`out` message being folded: its row's place, its records' text lines. */
interface Fold {
  /** Index of its first record in the lines given. */
  index: number;
  line: LogLine;
  dir: 'in' | 'out';
  /** line_num of its first record (1, or more when the message began before the lines given). */
  from: number;
  body: string[];
}

/** Messages open at most, per direction (concurrent queries interleave their records). */
const OPEN_FOLDS = 64;

/** The row of a folded message: direction, question and (responses) status, the text lines as detail. */
function foldRow(f: Fold): RawRow & { kind: 'line' } {
  const detail = f.body.join('\n').replace(/\t/g, ' ').replace(/\n+$/, '');
  const dir = f.dir === 'in' ? 'request (in)' : 'response (out)';
  const q = f.body.indexOf(';; QUESTION SECTION:');
  const status = f.from === 1 ? /status: (\w+)/.exec(f.body[0] ?? '')?.[1] : undefined;
  const question = q >= 0 && f.body[q + 1] ? f.body[q + 1]!.replace(/^;/, '').replace(/\s+/g, ' ') : '';
  const part = f.from === 1 ? '' : ` from line ${f.from}`;
  const text = `${dir}${part}: ${question}${f.dir === 'out' && status ? ` → ${status}` : ''}`;
  return { kind: 'line', key: `l-${f.index}`, line: f.line, category: lineCategory(f.line), text, detail, lines: f.body.length };
}

/**
 * Builds the raw rows of `lines`, keeping only lines for which `keep` is true (a folded message
 * is kept when its text or first record is). Separators are emitted for every run start, kept
 * or not, so runs stay apart even when their first line is filtered out. Text = message +
 * fields (`key=value`), nothing dropped; `detail` = the folded message's text lines.
 *
 * dnsproxy writes one record per text line of a message (`line_num=1..N`, proxy/server.go
 * logDNSMessage); every record folds into its message's row: a record of line N continues the
 * newest open message of the same direction that has N-1 lines (records of concurrent queries
 * interleave under load), and records whose message began before the lines given (a page or a
 * search result that starts mid-message) fold into one row `… from line N`.
 */
export function rawRows(lines: readonly LogLine[], keep: (line: LogLine, text: string) => boolean): RawRow[] {
  const rows: (RawRow | Fold)[] = [];
  const open: Record<'in' | 'out', Fold[]> = { in: [], out: [] };
  let run = -1;
  // The engine of the run the lines are in now; null before the first.
  let current: EngineName | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const engine = lineRunEngine(line);
    if (isRunStart(line, lines[i - 1] ?? null)) {
      run++;
      open.in = [];
      open.out = [];
      current = lineEngine(line);
      rows.push({ kind: 'run', key: `run-${i}`, run, time: line.time ?? lines[i + 1]?.time ?? null, title: runTitle(line, lines[i + 1]), engine: current });
    } else if (engine !== null && engine !== current) {
      run++;
      open.in = [];
      open.out = [];
      current = engine;
      rows.push({ kind: 'run', key: `run-${i}`, run, time: line.time, title: unstartedRunTitle(engine), engine });
    }
    const num = Number(line.fields.line_num);
    if ((line.message === 'in' || line.message === 'out') && Number.isInteger(num) && num >= 1) {
      const dir = line.message;
      const text = line.fields.line ?? '';
      const list = open[dir];
      let fold: Fold | undefined;
      if (num > 1) {
        for (let k = list.length - 1; k >= 0 && !fold; k--) if (list[k]!.from + list[k]!.body.length === num) fold = list[k];
      }
      if (fold) fold.body.push(text);
      else {
        fold = { index: i, line, dir, from: num, body: [text] };
        rows.push(fold);
        list.push(fold);
        if (list.length > OPEN_FOLDS) list.shift();
      }
      continue;
    }
    // A syslog engine's message (dnsmasq's) already holds everything its fields were parsed from.
    const text = ENGINES[lineEngine(line)].logProcess !== null ? line.message : [line.message, formatFields(line.fields)].filter((s) => s !== '').join('  ');
    if (keep(line, text)) rows.push({ kind: 'line', key: `l-${i}`, line, category: lineCategory(line), text, detail: null, lines: 1 });
  }
  const out: RawRow[] = [];
  for (const r of rows) {
    if (!('body' in r)) out.push(r);
    else {
      const row = foldRow(r);
      if (keep(r.line, `${row.text}\n${row.detail}`)) out.push(row);
    }
  }
  return out;
}

/** The log lines `rows` stand for: a grouped dnsproxy message is one row for its N records; a run header is none. */
export function rowLines(rows: readonly RawRow[]): number {
  return rows.reduce((n, r) => n + (r.kind === 'line' ? r.lines : 0), 0);
}

/**
 * What the raw view's lines are of, for the probes box: dnsproxy.log with the engines of the runs
 * shown (`rows`' separators), as both engines write that one file; with no run shown, the engine
 * that writes it now (`now`, from status) if any. Never one engine's name for lines of two.
 */
export function logFileWords(rows: readonly RawRow[], now: EngineName | null): string {
  const engines = [...new Set(rows.flatMap((r) => (r.kind === 'run' ? [r.engine] : [])))];
  if (engines.length > 0) return `dnsproxy.log, written by ${engines.map((e) => ENGINES[e].label).join(' and ')}`;
  return now ? `dnsproxy.log, written by ${ENGINES[now].label} now` : 'dnsproxy.log';
}
