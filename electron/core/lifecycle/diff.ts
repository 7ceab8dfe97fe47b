import type { LifecycleDeps } from './deps';
import type { ResolverDiff } from '../../../shared/types';
import { captureResolver, readState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { resolverText } from './preflight';
import { GLIBC_MAXNS, parseResolvConf } from '../../../shared/resolv-conf';

/**
 * One line per nameserver of the saved original past glibc's MAXNS: the host never asked it,
 * so the proxy does not forward to it either (host/upstreams.ts pickUpstreams).
 */
export function pastMaxnsNotes(savedText: string | null): string[] {
  if (savedText === null) return [];
  const all = parseResolvConf(savedText).nameservers;
  return all.slice(GLIBC_MAXNS).map((ns) => `nameserver ${ns} of the saved original is not an upstream: glibc reads only the first ${GLIBC_MAXNS} of its ${all.length} nameservers (resolv.conf(5) MAXNS), so the host never asked it`);
}

/** Saved original vs current /etc/resolv.conf (content, link target, mode, owner). Read-only. */
export async function resolverDiff(deps: LifecycleDeps): Promise<ResolverDiff> {
  const state = await readState(deps.fs);
  const current = await captureResolver(deps.fs, deps.exec);
  const saved = state?.resolvConf ?? null;
  const savedText = saved ? resolverText(saved) : null;
  return {
    saved,
    current,
    savedText,
    currentText: resolverText(current),
    identical: saved ? sameResolver(saved, current) : true,
    changes: saved ? [...describeResolverChanges(saved, current), ...pastMaxnsNotes(savedText)] : [],
  };
}
