/**
 * A DNS name that truncates in the middle (lib/name-tail.ts): the head gives way, the last two
 * labels stay; the full name is the title. Inline boxes, not flex: innerText stays the plain name.
 * A search-list expansion (lib/search-expansion.ts: its client asked the shorter name, and the
 * domain was in the search list recorded with the row) shows as the name asked
 * (cut at its end) with a `+search` mark, which never gives way: a name ending in the search
 * domain and its expansion end alike, so only the mark tells them apart in a narrow cell. While
 * the query filter is set, the part it matched stays visible instead (at 900 px a searched
 * `…default…` was cut away), marked; the full name stays the title.
 */
import { splitNameMatch, splitNameTail } from '../lib/name-tail';
import type { SearchExpansion } from '../lib/search-expansion';

/** The mark's text and the width it takes, in ch (monospace log views: 7 characters + a 1ch gap). */
const SEARCH_MARK = '+search';
const SEARCH_MARK_CH = SEARCH_MARK.length + 1;

/**
 * The name; `testId` goes on the outer span; `expansion`: the name is `base` + `.` + `domain`;
 * `filter`: the query filter's text — where it matches the name, that part is marked and never
 * gives way: what comes before it gives way first (down to one character and an ellipsis), then what follows.
 */
export function DnsName({ name, testId, expansion, filter }: { name: string; testId?: string; expansion?: SearchExpansion; filter?: string }) {
  const found = filter && !expansion ? splitNameMatch(name, filter) : null;
  if (found) {
    const { pre, match, post } = found;
    return (
      <span className="dns-name" title={name} data-testid={testId}>
        {pre && <span className="dns-name-head" style={{ maxWidth: `max(2ch, calc(100% - ${match.length + post.length}ch))` }}>{pre}</span>}
        <mark className="dns-name-match" data-testid="dns-name-match">{match}</mark>
        {post && <span className="dns-name-head" style={{ maxWidth: `calc(100% - ${match.length + (pre ? 2 : 0)}ch)` }}>{post}</span>}
      </span>
    );
  }
  if (expansion) {
    // The mark tells the pair apart, so the base keeps its start (its first label) and gives way at its end.
    return (
      <span className="dns-name" title={`${name}: ${expansion.base} with the search domain ${expansion.domain} appended (the resolver's search list, resolv.conf "search")`} data-testid={testId}>
        <span className="dns-name-head" style={{ maxWidth: `calc(100% - ${SEARCH_MARK_CH}ch)` }}>{expansion.base}</span>
        <span className="dns-name-search" data-testid="dns-name-search" aria-label={`search-list expansion: ${expansion.domain} appended`}>{SEARCH_MARK}</span>
      </span>
    );
  }
  const { head, tail } = splitNameTail(name);
  return (
    <span className="dns-name" title={name} data-testid={testId}>
      {/* The tail's width in ch (the log views are monospace): the head takes what is left. */}
      {head && <span className="dns-name-head" style={{ maxWidth: `calc(100% - ${tail.length}ch)` }}>{head}</span>}
      <span className="dns-name-tail">{tail}</span>
    </span>
  );
}
