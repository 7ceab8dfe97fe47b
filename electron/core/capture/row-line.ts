/**
 * A row of the exact query log as the line the parser writes (rows-main.ts) and the companion
 * appends as it is (pipeline.ts, rows-file.ts): JSON of the CapturedQuery (pairing.ts), with the
 * host's search list as its last field `search` when one was read (host-search.ts) — the same
 * bytes as JSON.stringify({ ...row, search }) for a row as Pairing makes it (its fields in the
 * order CapturedQuery declares them, no `search` of its own). Written field by field: the
 * generic JSON.stringify was a third of the parser's time per row.
 */
import type { CapturedQuery } from './pairing';

let lastSearch: readonly string[] | null = null;
let lastSearchJson = '';
let lastListener = '';
let lastListenerJson = '""';

/** Characters JSON.stringify writes escaped (ECMA-262 QuoteJSONString: `"`, `\`, controls, and surrogates when unpaired). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `s` as a JSON string. */
function str(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** A string or null as JSON. */
function strOrNull(s: string | null): string {
  return s === null ? 'null' : str(s);
}

/** A number or null as JSON (JSON.stringify writes non-finite numbers as null). */
function num(n: number | null): string {
  return n === null || !Number.isFinite(n) ? 'null' : String(n);
}

/**
 * A time stamp in µs (an integer past 2^31) as JSON: the same digits as String(n), from two
 * small integers (the general number-to-text of a large double was a tenth of a row's time).
 */
function us(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1e9) return num(n);
  const hi = Math.floor(n / 1e9);
  const lo = n - hi * 1e9;
  const low = String(lo);
  return `${hi}${'000000000'.slice(low.length)}${low}`;
}

/** The row's line, newline included; `search` null: no `search` field. */
export function rowLine(row: CapturedQuery, search: readonly string[] | null): string {
  if (row.listener !== lastListener) {
    lastListener = row.listener;
    lastListenerJson = JSON.stringify(row.listener);
  }
  let answers = '';
  for (let i = 0; i < row.answers.length; i++) answers += i === 0 ? str(row.answers[i]!) : `,${str(row.answers[i]!)}`;
  let line = `{"proto":${str(row.proto)},"client":${str(row.client)},"listener":${lastListenerJson},"id":${num(row.id)},"name":${str(row.name)},"type":${str(row.type)},"queryUs":${us(row.queryUs)},"rcode":${strOrNull(row.rcode)},"answers":[${answers}],"latencyMs":${num(row.latencyMs)},"upstream":${strOrNull(row.upstream)},"upstreamRcode":${strOrNull(row.upstreamRcode)},"upstreamLatencyMs":${num(row.upstreamLatencyMs)},"retries":${num(row.retries)}`;
  if (search !== null) {
    // The list changes at most once per read (host-search.ts): its JSON is made once per list.
    if (search !== lastSearch) {
      lastSearch = search;
      lastSearchJson = JSON.stringify(search);
    }
    line += `,"search":${lastSearchJson}`;
  }
  return `${line}}\n`;
}
