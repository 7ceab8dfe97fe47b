/**
 * A row of the exact query log as the line the parser writes (rows-main.ts) and the companion
 * appends as it is (pipeline.ts, rows-file.ts): JSON of the CapturedQuery (pairing.ts), with the
 * host's search list as its last field `search` when one was read (host-search.ts) — the same
 * bytes as JSON.stringify({ ...row, search }).
 */
import type { CapturedQuery } from './pairing';

let lastSearch: readonly string[] | null = null;
let lastSearchJson = '';

/** The row's line, newline included; `search` null: no `search` field. */
export function rowLine(row: CapturedQuery, search: readonly string[] | null): string {
  const json = JSON.stringify(row);
  if (search === null) return `${json}\n`;
  // The list changes at most once per read (host-search.ts): its JSON is made once per list.
  if (search !== lastSearch) {
    lastSearch = search;
    lastSearchJson = JSON.stringify(search);
  }
  return `${json.slice(0, -1)},"search":${lastSearchJson}}\n`;
}
