import type { LifecycleDeps } from './deps';
import type { ResolverDiff } from '../../../shared/types';
import { captureResolver, readState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { resolverText } from './preflight';

/** Saved original vs current /etc/resolv.conf (content, link target, mode, owner). Read-only. */
export async function resolverDiff(deps: LifecycleDeps): Promise<ResolverDiff> {
  const state = await readState(deps.fs);
  const current = await captureResolver(deps.fs, deps.exec);
  const saved = state?.resolvConf ?? null;
  return {
    saved,
    current,
    savedText: saved ? resolverText(saved) : null,
    currentText: resolverText(current),
    identical: saved ? sameResolver(saved, current) : true,
    changes: saved ? describeResolverChanges(saved, current) : [],
  };
}
