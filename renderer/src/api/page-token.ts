/**
 * The web-mode token in the page: read once from the URL fragment (`#token=<64 hex>`, which the
 * browser never sends to a server), then kept in this module and in sessionStorage, and removed
 * from the address bar and history. sessionStorage is per origin *including the port* and per
 * tab, so no other local server can read it (unlike a cookie, RFC 6265 §8.5); it only lets a
 * reload of the same tab keep working. The token is new for every launch.
 */

/** sessionStorage key of the token. */
export const TOKEN_STORAGE_KEY = 'k2s-dns.token';

/** The token in a `location.hash` value (`#token=…`, other `&`-separated keys allowed), else null. */
export function tokenFromFragment(hash: string): string | null {
  const m = /^#(?:.*&)?token=([0-9a-f]{64})(?:&|$)/.exec(hash);
  return m ? m[1]! : null;
}

/**
 * A `#token=` value that is not a token of the app's shape (64 hex digits), as given (at most 70
 * characters; `deadbeef`: cut short when copied, or not from `k2s-dns ui`); null when the fragment
 * has no `token=` key or a well-formed token. Such a tab holds no token: the app never accepts it.
 */
export function badFragmentToken(hash: string): string | null {
  const m = /^#(?:.*&)?token=([^&]*)/.exec(hash);
  if (!m || tokenFromFragment(hash) !== null) return null;
  return m[1]!.slice(0, 70);
}

/** What takePageToken needs from the browser (injected so it is testable without a DOM). */
export interface PageLocation {
  hash: string;
  pathname: string;
  search: string;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  replaceUrl(url: string): void;
}

/**
 * Takes the token from the fragment (storing it and stripping the fragment from the address bar
 * via history.replaceState), else the one stored by an earlier load of this tab; null when none.
 */
export function takePageToken(loc: PageLocation): string | null {
  const fromUrl = tokenFromFragment(loc.hash);
  if (fromUrl !== null) {
    loc.storage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    loc.replaceUrl(loc.pathname + loc.search);
    return fromUrl;
  }
  return loc.storage.getItem(TOKEN_STORAGE_KEY);
}

/** takePageToken on the real window. */
export function takeWindowToken(): string | null {
  return takePageToken({
    hash: location.hash,
    pathname: location.pathname,
    search: location.search,
    storage: sessionStorage,
    replaceUrl: (url) => history.replaceState(history.state, '', url),
  });
}
