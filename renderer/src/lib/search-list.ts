/**
 * Short names as glibc expands them, per resolv.conf(5): `search` (or `domain`; the last of the
 * two wins) gives the suffixes, `options ndots:n` (default 1, capped at 15) the threshold. A name
 * with at least ndots dots is tried as-is first, then with each suffix; a name with fewer is tried
 * with each suffix first and as-is last (glibc res_nsearch); a trailing dot means "as-is only".
 */

/** The search list and ndots of one resolv.conf text. */
export interface SearchConfig {
  search: string[];
  ndots: number;
}

/** Parses `search`/`domain` and `options ndots:` from resolv.conf text (comments: `#` and `;`). */
export function parseSearchConfig(text: string): SearchConfig {
  let search: string[] = [];
  let ndots = 1;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const [key, ...rest] = line.split(/\s+/);
    if (key === 'search') search = rest.map((d) => d.replace(/\.$/, '')).filter((d) => d !== '');
    else if (key === 'domain' && rest[0]) search = [rest[0].replace(/\.$/, '')];
    else if (key === 'options') {
      for (const opt of rest) {
        const m = /^ndots:(\d+)$/.exec(opt);
        if (m) ndots = Math.min(Number(m[1]), 15);
      }
    }
  }
  return { search, ndots };
}

/** Number of dots in `name` (a trailing dot not counted). */
export function dotCount(name: string): number {
  return (name.replace(/\.$/, '').match(/\./g) ?? []).length;
}

/** True when glibc would apply the search list before trying `name` as-is (fewer than ndots dots, no trailing dot). */
export function isShortName(name: string, cfg: SearchConfig): boolean {
  return !name.endsWith('.') && dotCount(name) < cfg.ndots;
}

/** The names glibc asks for `name`, in order (absolute, without trailing dot). */
export function searchCandidates(name: string, cfg: SearchConfig): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const suffixed = cfg.search.map((d) => `${name}.${d}`);
  const all = dotCount(name) >= cfg.ndots ? [name, ...suffixed] : [...suffixed, name];
  return [...new Set(all)];
}
