import type { LifecycleDeps } from './deps';
import type { ResolverDiff } from '../../../shared/types';
import { captureResolver, readState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { resolverText } from './preflight';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { cliCommand } from '../../../shared/fix';
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

/**
 * The saved state as `uid` may read it. The state directory is root's (0700, K2S_PATHS), so a
 * user's lstat/read fails with EACCES: that becomes one sentence naming the file, why, and the
 * command that can read it, instead of the raw system error.
 */
async function readStateAs(deps: LifecycleDeps): Promise<Awaited<ReturnType<typeof readState>>> {
  try {
    return await readState(deps.fs);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw err;
    throw new Error(
      `The saved original resolver is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so the diff cannot be shown to uid ${deps.uid()}; run ${cliCommand('diff', true)}.`,
    );
  }
}

/** Saved original vs current /etc/resolv.conf (content, link target, mode, owner). Read-only. Throws one sentence with the fix when the state is root-only. */
export async function resolverDiff(deps: LifecycleDeps): Promise<ResolverDiff> {
  const state = await readStateAs(deps);
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
