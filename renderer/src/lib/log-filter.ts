/** Log panel filtering: by level and by text (message, fields and raw line, case-insensitive). */
import type { LogLine } from '../../../shared/types';

/** Log levels in order. */
export const LEVELS: LogLine['level'][] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

/** Lines whose level is enabled and that contain `text` (empty text matches all). */
export function filterLines(lines: readonly LogLine[], levels: Record<LogLine['level'], boolean>, text: string): LogLine[] {
  const needle = text.trim().toLowerCase();
  return lines.filter((l) => levels[l.level] && (needle === '' || l.raw.toLowerCase().includes(needle) || l.message.toLowerCase().includes(needle)));
}

/** `key=value` pairs joined by spaces, as dnsproxy prints them. */
export function formatFields(fields: Record<string, string>): string {
  return Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(' ');
}
