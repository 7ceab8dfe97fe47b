/** Small readers of the engines' log text shared by the query log assemblers. */

/** `;name.\tIN\t A` (miekg/dns Question.String()) → name (lower case), type, and the name as asked. */
export function parseQuestion(text: string): { name: string; type: string; asked: string } | null {
  const m = /^;?(\S+?)\.?\s+IN\s+(\S+)\s*$/.exec(text);
  return m ? { name: m[1]!.toLowerCase(), type: m[2]!.toUpperCase(), asked: m[1]! } : null;
}

/** ms into the day of `YYYY-MM-DDTHH:MM:SS(.ffffff)` read by position (no regex: the log parse's hot path), NaN otherwise. */
export function msOfDay(t: string): number {
  if (t.length < 19 || t[10] !== 'T') return NaN;
  const n = (i: number) => t.charCodeAt(i) - 48;
  const frac = t.length > 20 && t[19] === '.' ? Number(`0${t.slice(19)}`) : 0;
  return ((n(11) * 10 + n(12)) * 3600 + (n(14) * 10 + n(15)) * 60 + n(17) * 10 + n(18) + frac) * 1000;
}

/** ms since an arbitrary epoch for `YYYY-MM-DDTHH:MM:SS(.ffffff)`, null for other shapes. */
export function timeMs(time: string | null): number | null {
  const m = time ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?$/.exec(time) : null;
  if (!m) return null;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) + (m[7] ? Number(m[7]) * 1000 : 0);
}

/** Go time.Duration text (`4.00148s`, `234.63µs`, `1.2ms`, `1m0.5s`) → ms, null when unreadable. */
export function goDurationMs(text: string): number | null {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, 'µs': 0.001, 'us': 0.001, ns: 0.000001 };
  let total = 0;
  let rest = text;
  while (rest !== '') {
    const m = /^(\d+(?:\.\d+)?)(h|ms|m|s|µs|us|ns)/.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return text === '' ? null : Math.round(total * 1000) / 1000;
}

/** Short form of a Go network error: the text after the last `: ` (`i/o timeout`, `connection refused`). */
export function shortError(err: string): string {
  const parts = err.split(': ');
  return parts[parts.length - 1]!.replace(/^read: /, '');
}
