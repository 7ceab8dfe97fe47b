/**
 * /etc/resolv.conf that resolves to no file: absent, or a symlink whose target is missing
 * (electron/core/lifecycle/resolver-gone.ts isGone). glibc then reads no file at all, which it
 * treats as one with no nameserver line: it asks 127.0.0.1:53 (resolv.conf(5)). Every view says
 * the file is missing, never "it has no nameserver line" (walk 10 M5, issue #20).
 * Pure module: no Node or DOM imports.
 */

/** What is at /etc/resolv.conf when it resolves to no file: nothing, or a link to nothing (`target`). */
export type ResolverMissing = { kind: 'absent' } | { kind: 'dangling'; target: string };

/** The words after "/etc/resolv.conf ": "does not exist", "is a dangling symlink (→ /run/x)". */
export function missingResolverWords(m: ResolverMissing): string {
  return m.kind === 'absent' ? 'does not exist' : `is a dangling symlink (→ ${m.target})`;
}

/**
 * The resolver hop's owner word for it (shared/health.ts resolverOwnerWords): `deleted` while
 * K2s DNS ran (drift, walk 10 L4), `missing` when stopped; a link to nothing is `dangling symlink`.
 */
export function missingOwnerWord(m: ResolverMissing, drift: boolean): string {
  if (m.kind === 'dangling') return 'dangling symlink';
  return drift ? 'deleted' : 'missing';
}
