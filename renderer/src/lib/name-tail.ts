/**
 * Where a DNS name gives way when its cell is too narrow: in the middle, never at the end. A name
 * and its search-domain expansion share their start (`kubernetes.default.svc.cluster.local` and
 * `kubernetes.default.svc.cluster.local.example.test`), so an end ellipsis made them look
 * identical; the last two labels are what tells them apart, so they always stay visible.
 */

/** `{ head: 'kubernetes.default.svc.', tail: 'cluster.local' }`; a name of ≤ 2 labels is all tail. A trailing root dot stays with the tail. */
export function splitNameTail(name: string): { head: string; tail: string } {
  const root = name.endsWith('.') && name.length > 1 ? '.' : '';
  const bare = root ? name.slice(0, -1) : name;
  const labels = bare.split('.');
  if (labels.length <= 2) return { head: '', tail: name };
  return { head: `${labels.slice(0, -2).join('.')}.`, tail: `${labels.slice(-2).join('.')}${root}` };
}

/**
 * A name split around the first place a filter text matches it (case-insensitive, as the query
 * filter matches): `{ pre: 'kubernetes.', match: 'default', post: '.svc.cluster.local' }`; null
 * for an empty filter or one that matched another field (client, upstream, answer).
 */
export function splitNameMatch(name: string, filter: string): { pre: string; match: string; post: string } | null {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return null;
  const at = name.toLowerCase().indexOf(needle);
  if (at < 0) return null;
  return { pre: name.slice(0, at), match: name.slice(at, at + needle.length), post: name.slice(at + needle.length) };
}
