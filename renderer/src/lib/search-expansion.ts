/**
 * Which logged names look like a search-list expansion of another logged name: glibc's resolver
 * appends each `search` domain of resolv.conf to a name (resolv.conf(5) "search"; res_query.c
 * res_search), so `early-marker-ui3.example.test` is also asked as
 * `early-marker-ui3.example.test.example.test`. Both start alike and, when the base name already
 * ends in the search domain, end alike too, so no truncation tells them apart; the Queries view
 * marks the longer one instead. Pure: no DOM.
 */

/** An expansion: `base` (as logged) with `domain` appended. */
export interface SearchExpansion {
  base: string;
  domain: string;
}

/** `name` lower-cased without its trailing root dot (DNS names compare case-insensitively, RFC 4343). */
function key(name: string): string {
  return (name.endsWith('.') && name.length > 1 ? name.slice(0, -1) : name).toLowerCase();
}

/**
 * For each name of `names` that is another name of `names` plus one or more labels, that name
 * (the longest such base) and the labels appended; other names are absent. Keys are the names
 * as given. The file's search list is not needed: the pair in the log is the evidence (a search
 * list may have changed since the query was asked).
 */
export function searchExpansions(names: Iterable<string>): Map<string, SearchExpansion> {
  const given = [...new Set(names)];
  const seen = new Map<string, string>();
  for (const n of given) if (!seen.has(key(n))) seen.set(key(n), n);
  const out = new Map<string, SearchExpansion>();
  for (const n of given) {
    const k = key(n);
    // Longest base first: walk the dots from the right.
    for (let dot = k.lastIndexOf('.'); dot > 0; dot = k.lastIndexOf('.', dot - 1)) {
      const base = seen.get(k.slice(0, dot));
      if (base !== undefined) {
        out.set(n, { base, domain: k.slice(dot + 1) });
        break;
      }
    }
  }
  return out;
}
