/**
 * Whether a name is an Internet name: under a suffix of the Public Suffix List's ICANN section
 * (tldts, publicsuffix.org; `com`, `co.uk`). Such a name that got NXDOMAIN is not a cluster name
 * written short, so `k2s-dns query` does not suggest its cluster form (walk 18 M3:
 * `example.com` got "e.g. example.com.svc.cluster.local"), nor does the window's Query tester.
 * Loads tldts: import it only where the explanation is built (electron/cli/query-explain.ts,
 * itself loaded on demand; renderer/src/components/QueryPanel.tsx).
 */
import { parse } from 'tldts';

/**
 * The ICANN public suffix `name` ends in (`com` for `example.com`, without a dot), or null: a
 * single label, an IP address, or a suffix not in the ICANN section (`local`, `internal`, `test`,
 * a namespace such as `default` fall under the list's `*` rule with no flag set).
 */
export function icannSuffixOf(name: string): string | null {
  const n = name.replace(/\.$/, '');
  if (!n.includes('.')) return null;
  const p = parse(n, { allowPrivateDomains: false });
  return p.isIp !== true && p.isIcann === true && p.publicSuffix ? p.publicSuffix : null;
}
