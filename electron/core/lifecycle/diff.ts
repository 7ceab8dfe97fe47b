import type { LifecycleDeps } from './deps';
import type { ResolverDiff, ResolverEntry } from '../../../shared/types';
import { captureResolver, readState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { isManagedEntry, resolverText } from './preflight';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { asRootWays } from '../../../shared/fix';
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
 * The state as read: `state` (null when none is saved or this user cannot read it); `unknown` when
 * this user cannot look and nothing says one is saved; `rootOnly` when a start saved one this user cannot read.
 */
type ReadAs = { state: Awaited<ReturnType<typeof readState>>; unknown?: string; rootOnly?: string };

/**
 * The saved state as `uid` may read it. The state directory is root's (0700, K2S_PATHS), so a
 * user's lstat(2) of the file fails with EACCES whether or not the file exists (path_resolution(7):
 * search permission on the directory is needed first). A missing file (ENOENT, or none in a
 * directory this user can search) is "nothing saved" for any user. On EACCES, what this user can
 * see decides, as status does (status.ts stateImplied): a running k2s-dnsproxy or a K2s-owned
 * /etc/resolv.conf means a start saved a copy, and `rootOnly` is one sentence naming the file, why,
 * and how to run the diff as root (code STATE_UNREADABLE); otherwise nothing says a copy exists
 * (stop removes it), so nothing is claimed: `unknown` says so, with how to be sure.
 */
async function readStateAs(deps: LifecycleDeps, current: ResolverEntry): Promise<ReadAs> {
  try {
    return { state: await readState(deps.fs) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw err;
    const running = (await deps.services.status()).running;
    if (running || isManagedEntry(current)) {
      return {
        state: null,
        rootOnly: `The saved original resolver is in ${K2S_PATHS.stateFile}, which only root can read (its directory ${K2S_PATHS.stateDir} is 0700), so the diff cannot be shown to uid ${deps.uid()}; run ${asRootWays('diff')}.`,
      };
    }
    return {
      state: null,
      unknown: `Nothing saved as far as uid ${deps.uid()} can tell: k2s-dnsproxy is not running and /etc/resolv.conf is not K2s's, so it is your own file and there is nothing to compare (stop removes the saved copy). ${K2S_PATHS.stateDir} is readable by root only (0700); to be sure, run ${asRootWays('diff')}.`,
    };
  }
}

/**
 * Saved original vs current /etc/resolv.conf (content, link target, mode, owner). Read-only.
 * When a copy is saved but root-only (a user while K2s DNS runs), the current file still, with
 * `savedRootOnly` saying so and how to run the diff as root (the CLI's exit 1, STATE_UNREADABLE):
 * it never throws for it, so the window shows the file as it is now, not an older diff beside an error.
 */
export async function resolverDiff(deps: LifecycleDeps): Promise<ResolverDiff> {
  const current = await captureResolver(deps.fs, deps.exec);
  const read = await readStateAs(deps, current);
  const saved = read.state?.resolvConf ?? null;
  const savedText = saved ? resolverText(saved) : null;
  return {
    saved,
    current,
    savedText,
    currentText: resolverText(current),
    // Not known to match when the copy is there but unseen.
    identical: saved ? sameResolver(saved, current) : !read.rootOnly,
    changes: saved ? [...describeResolverChanges(saved, current), ...pastMaxnsNotes(savedText)] : [],
    ...(read.unknown ? { savedUnknown: read.unknown } : {}),
    ...(read.rootOnly ? { savedRootOnly: read.rootOnly } : {}),
  };
}
