/**
 * The file start would save now is no resolver file (start's NOT_RESOLVER_FILE): the case of the
 * nameserver-loop finding (nameservers.ts) that carries its fix, and that the health finding
 * points at instead of repeating it (health.ts checkHealthPath; walk 11 L5).
 */
import type { DoctorContext } from './context';
import { startRefusesResolverFile } from '../../../shared/network-writer';
import { resolverBytes } from '../host/resolver-state';

/** The nameserver-loop finding's title for that case. */
export const NOT_RESOLVER_TITLE = '/etc/resolv.conf is no resolver file';

/**
 * Why start refuses the file in /etc/resolv.conf (shared/network-writer.ts startRefusesResolverFile,
 * e.g. "the new file is not text (it holds NUL bytes)") when it is the file a start would save (no
 * start recorded: the original is the current file) and readable; else null. With a saved original
 * a start saves no file: another program's file then is drift (lifecycle-state.ts; walk 10 M3).
 */
export function notResolverNow(ctx: Pick<DoctorContext, 'originalText' | 'originalIsCurrent' | 'original'>): string | null {
  const bytes = ctx.originalText !== null && ctx.originalIsCurrent && ctx.original ? resolverBytes(ctx.original) : null;
  return bytes ? startRefusesResolverFile(bytes) : null;
}
