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
