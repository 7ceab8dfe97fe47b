import type { ResolverEntry } from '../../../shared/types';

/**
 * True when /etc/resolv.conf resolves to nothing: absent, or a symlink whose target is missing.
 * Such a "drift" is never kept at stop: the saved original is the only resolver there is.
 */
export function isGone(entry: ResolverEntry): boolean {
  return entry.kind === 'absent' || (entry.kind === 'symlink' && entry.dangling);
}
