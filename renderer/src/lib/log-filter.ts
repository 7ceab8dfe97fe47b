/**
 * Log panel filtering: by category and by text (message, fields and raw line, case-insensitive).
 * Per-query lines are their own category (QUERY), so unticking DEBUG hides dnsproxy's start-up
 * chatter but not the DNS traffic, and unticking QUERY hides the traffic only.
 */
import { isQueryLine } from '../../../shared/log-line';
import type { LogLine } from '../../../shared/types';

/** Filter categories: the four levels plus QUERY (see isQueryLine). */
export type LogCategory = LogLine['level'] | 'QUERY';

/** Log levels in order. */
export const LEVELS: LogLine['level'][] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
/** Categories as the panel offers them. */
export const CATEGORIES: LogCategory[] = ['QUERY', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** The category a line is filtered by: QUERY for per-query traffic, else its level. */
export function lineCategory(line: LogLine): LogCategory {
  return isQueryLine(line) ? 'QUERY' : line.level;
}

/** True when `line` contains `needle` (lower-case) in its raw text, message or a field value. */
export function lineMatches(line: LogLine, needle: string): boolean {
  if (needle === '') return true;
  return line.raw.toLowerCase().includes(needle) || line.message.toLowerCase().includes(needle) || Object.values(line.fields).some((v) => v.toLowerCase().includes(needle));
}

/** Lines whose category is enabled (a missing category counts as enabled) and that contain `text` (empty matches all). */
export function filterLines(lines: readonly LogLine[], categories: Partial<Record<LogCategory, boolean>>, text: string): LogLine[] {
  const needle = text.trim().toLowerCase();
  return lines.filter((l) => categories[lineCategory(l)] !== false && lineMatches(l, needle));
}

/** `key=value` pairs joined by spaces, as dnsproxy prints them (values with spaces or tabs quoted). */
export function formatFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}=${v === '' || /[\s"]/.test(v) ? JSON.stringify(v) : v}`)
    .join(' ');
}

/**
 * `HH:MM:SS.mmm` of a log time as the engine wrote it (local time of the proxy host; no time-zone
 * conversion): dnsproxy `2026-11-30T22:43:40.536717` → `22:43:40.536`, dnsmasq's whole seconds
 * `22:43:40`; '' for null, the text itself for other shapes.
 */
export function formatLogTime(time: string | null): string {
  if (time === null) return '';
  const m = /T(\d{2}:\d{2}:\d{2})(\.\d{1,3})?/.exec(time);
  return m ? `${m[1]}${m[2] ?? ''}` : time;
}
