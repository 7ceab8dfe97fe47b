/**
 * The long-running side of following the network (`k2s-dns follow-watch`, root): watches the
 * files a network change writes and runs followNetwork (follow.ts) when one of them changes.
 * Watched: /etc (a new /etc/resolv.conf arrives by rename there), the directory of the saved
 * original's link target (resolvconf and NetworkManager rename a new file into it), and
 * /run/systemd/resolve where the saved file names resolved's stub (resolved rewrites its
 * resolv.conf there on every link change, while the stub file keeps `nameserver 127.0.0.53`).
 * inotify (fs.watch) wakes it at once; a poll of the files' inode/mtime/size/mode/owner every `pollMs` is
 * the safety net for a directory that appears later or an event inotify cannot see.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'node:fs';
import type { LifecycleDeps } from './deps';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { ResolverStateFile } from '../../../shared/state-file';
import { readState } from '../host/resolver-state';
import { describeNetworkChange, followNetwork, ORIGINAL_BACK_WAIT_MS, proxyStoppedWhy, stoppedOutsideWhy, targetPath, type FollowOutcome, type FollowPhases } from './follow';
import { PROXY_CRASHED_POLL_MS, proxyEnds } from './proxy-watch';

/** `decide 12 ms, save 3 ms, …`: where one follow's time went (FollowPhases), for the follower's log line. */
export function followPhasesText(p: FollowPhases): string {
  return `decide ${p.decideMs} ms, save ${p.saveMs} ms, host file ${p.hostFileMs} ms, engine restart ${p.restartMs} ms, listening ${p.listeningMs} ms${p.captureMs === undefined ? '' : `, capture restart ${p.captureMs} ms`}`;
}

/** An original-back follow (FollowOutcome `originalBack`): its change's `at` and `how`, and when it was (ms, deps.now()). */
export interface OriginalBackFollow {
  savedAt: string;
  how: string;
  at: number;
}

/**
 * What the follower says of k2s-dnsproxy stopped by another program while the host points at it
 * (`end`: proxy-watch.ts ProxyEnd `stopped` or `stopping`): `why` for the stop it runs, `line` for
 * its journal. Said as K2s's restore's (stoppedOutsideWhy, "N ms after the follow") only when the
 * last original-back follow `back` is that stop's: the stop seen at `seenAt` before `fastUntil`
 * (ms, deps.now(); the follow's fast watch, ORIGINAL_BACK_WAIT_MS), or a stop job found queued at
 * that watch's end (`stopping`). Later — a user's `systemctl stop k2s-dnsproxy` long after a network
 * wrote the original's bytes again, a stalled K2s — nothing ties the stop to that restore: the
 * plain wording (proxyStoppedWhy).
 */
export function proxyStopWords(end: 'stopped' | 'stopping', back: OriginalBackFollow | null, fastUntil: number, seenAt: number): { why: string; line: string } {
  if (back && (end === 'stopping' || seenAt < fastUntil)) {
    const why = stoppedOutsideWhy(back.savedAt, back.how);
    return { why, line: `${why}: K2s DNS stops too (${seenAt - back.at} ms after the follow).` };
  }
  const why = proxyStoppedWhy();
  return { why, line: `${why}: K2s DNS stops too, and the original resolver goes back.` };
}

/** Where resolved writes the servers it knows (systemd-resolved(8) "/run/systemd/resolve/resolv.conf"). */
const RESOLVED_DIR = '/run/systemd/resolve';

/** Options of watchNetwork. */
export interface WatchOptions {
  /** Ends the watch. */
  signal: AbortSignal;
  /** One line per change handled (the unit's journal, or the supervised follower's log). */
  log: (line: string) => void;
  /** Poll period, ms (default 1000). */
  pollMs?: number;
  /** Called after each look that ran followNetwork, with its outcome (tests wait on it instead of sleeping). */
  onLook?: (outcome: FollowOutcome) => void;
  /**
   * Called once the watches are set and the first look is done (what it finds from then on is a
   * new change); not when that first look found K2s DNS stopped (onStoppedOutside ran: nothing is
   * watched, a follower restarted after its kill says so and ends) or the watch was ended meanwhile.
   */
  onReady?: () => void;
  /**
   * Wait after an inotify event before looking, ms, so a writer's several steps are one change
   * (default 50: NetworkManager and resolvconf write a temp file and rename it over the old one,
   * events microseconds apart; a writer that rewrites in place gets a look per write, the last
   * one decides).
   */
  settleMs?: number;
  /**
   * Called once when a look finds K2s DNS stopped from outside (FollowOutcome `stopped-outside`:
   * the saved original back and k2s-dnsproxy stopped, as K2s's own `k2s stop` leaves them); no
   * look runs after it. `heldState`: the state file as the follower last read or saved it, for a
   * stop that finds the file gone (K2s's own `k2s uninstall` removes it). Absent: such a look is only logged.
   */
  onStoppedOutside?: (why: string, heldState: ResolverStateFile) => Promise<void>;
}

/** The host files whose change can mean a new network resolver, for the current saved state. */
export async function watchedFiles(deps: LifecycleDeps): Promise<string[]> {
  const files: string[] = [K2S_PATHS.resolvConf];
  const state = await readState(deps.fs).catch(() => null);
  const saved = state?.resolvConf;
  if (saved?.kind === 'symlink') files.push(targetPath(saved.target));
  const text = saved?.kind === 'file' ? saved.contentBase64 : saved?.kind === 'symlink' ? (saved.targetContentBase64 ?? '') : '';
  if (/^nameserver\s+127\.0\.0\.5[34]\b/m.test(Buffer.from(text, 'base64').toString('utf8'))) files.push(`${RESOLVED_DIR}/resolv.conf`);
  return [...new Set(files)];
}

/**
 * inode:mtime:size:mode:uid:gid of each file (lstat and stat), '' for a missing one: changes when
 * a writer renames or writes, and when its mode or owner changes (chmod(1), chown(1): inotify's
 * IN_ATTRIB, inotify(7), which fs.watch reports as a change; mtime stays). The follower refuses
 * a file a user could write (resolverOwnerRefusal), so `chmod o-w` — the fix that refusal
 * prints — is a change it must judge again (walk 9 H1: a same signature skipped that look).
 */
export async function signature(deps: LifecycleDeps, files: string[]): Promise<string> {
  const parts = await Promise.all(
    files.map(async (f) => {
      const [l, s] = await Promise.all([deps.fs.lstat(f), deps.fs.stat(f)]);
      return [l, s].map((x) => (x ? `${x.ino}:${x.mtimeMs}:${x.size}:${x.mode}:${x.uid}:${x.gid}` : '')).join('/');
    }),
  );
  return `${files.join(',')}|${parts.join(',')}`;
}

/**
 * Runs until `signal` aborts: looks once at start (a change while no watcher ran), then on every
 * change of watchedFiles. A `busy` look (start/stop holds the lock) is retried on the next poll.
 */
export async function watchNetwork(deps: LifecycleDeps, opts: WatchOptions): Promise<void> {
  const pollMs = opts.pollMs ?? 1000;
  const settleMs = opts.settleMs ?? 50;
  let watchers: FSWatcher[] = [];
  let watchedDirs = '';
  let last = '';
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  /** Set once onStoppedOutside ran: K2s DNS is stopped, nothing is left to follow. */
  let stoppedOutside = false;
  /** The watch of the proxy (watchProxy below), while it runs. */
  let watchingProxy: Promise<void> | null = null;
  /** Until when (deps.now()) the proxy is watched closely: ORIGINAL_BACK_WAIT_MS after an original-back follow. */
  let fastUntil = 0;
  /** The last original-back follow (look below): what it said, when (deps.now()), and the state it saved. */
  let back: (OriginalBackFollow & { state: ResolverStateFile }) | null = null;

  /** When the first inotify event since the last look arrived (ms, Date.now()), or null (a poll's look). */
  let eventAt: number | null = null;
  /** True until the first look (the watch's start) is done: what it finds was there before any watch. */
  let first = true;
  const report = (r: FollowOutcome, t0: number, sawAt: number | null) => {
    if (r.kind !== 'followed' && r.kind !== 'drift') return;
    const waited = sawAt === null ? 'found by the poll' : `${t0 - sawAt} ms after the inotify event`;
    const phases = r.kind === 'followed' ? `: ${followPhasesText(r.phases)}` : '';
    opts.log(`${describeNetworkChange(r.change)} (${Date.now() - t0} ms, ${waited}${phases})`);
    if (r.kind === 'followed' && r.captureError) opts.log(`the exact query log's companion did not restart with the new upstreams: ${r.captureError}`);
  };
  const rewatch = (files: string[]) => {
    const dirs = [...new Set(files.map((f) => path.posix.dirname(f)))];
    if (dirs.join() === watchedDirs) return;
    for (const w of watchers) w.close();
    watchers = [];
    for (const d of dirs) {
      try {
        const w = watch(deps.fs.real(d), { persistent: true }, () => {
          eventAt ??= Date.now();
          schedule(settleMs);
        });
        // A removed directory: the poll finds it again.
        w.on('error', (err) => opts.log(`follow-watch: inotify on ${d} ended (${err.message}); the poll every ${pollMs} ms covers it`));
        watchers.push(w);
      } catch (err) {
        // Not there yet (resolvconf's /run/resolvconf before its first run): the poll covers it.
        // Any other cause (EMFILE/ENOSPC: the inotify limits, inotify(7)) is said once per set.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') opts.log(`follow-watch: cannot watch ${d} with inotify (${code ?? (err as Error).message}); the poll every ${pollMs} ms covers it`);
      }
    }
    watchedDirs = dirs.join();
  };
  const look = async () => {
    const sawAt = eventAt;
    eventAt = null;
    const files = await watchedFiles(deps);
    rewatch(files);
    const sig = await signature(deps, files);
    if (sig === last) return;
    const t0 = Date.now();
    const r = await followNetwork(deps).catch((err: unknown) => ({ kind: 'busy', why: (err as Error).message }) as FollowOutcome);
    report(r, t0, sawAt);
    if (r.kind === 'stopped-outside') {
      opts.log(`${r.why}: K2s DNS stops too (${Date.now() - t0} ms, ${first ? 'found at the follower\'s start' : sawAt === null ? 'found by the poll' : `${t0 - sawAt} ms after the inotify event`}).`);
      if (opts.onStoppedOutside) {
        stoppedOutside = true;
        await opts.onStoppedOutside(r.why, r.state);
      }
    } else if (r.kind === 'followed' && !r.originalBack) {
      // Another network file followed since: a stop from now on is not K2s's restore's.
      back = null;
      fastUntil = 0;
    } else if (r.kind === 'followed' && r.originalBack) {
      // The saved original was put back and followed: K2s's `k2s stop` stops the proxy right
      // after its restore. The proxy's watch (watchProxy below) looks closely for a while, and
      // a stop then is said as K2s's; the state this follow saved is held for that stop.
      fastUntil = deps.now() + ORIGINAL_BACK_WAIT_MS;
      back = { savedAt: r.change.at, how: r.change.how, at: deps.now(), state: r.originalBack };
    }
    opts.onLook?.(r);
    // The signature taken BEFORE the look is what it saw: a write during the look differs from
    // it and gets a look of its own. After a follow (our own K2s file changed the files) or a
    // busy lock, the next look runs followNetwork again, which is idle when nothing else is new.
    last = r.kind === 'busy' || r.kind === 'followed' ? '' : sig;
  };
  const run = () => {
    if (stoppedOutside) return;
    if (running) {
      again = true;
      return;
    }
    running = look()
      .catch((err: unknown) => opts.log(`follow-watch: ${(err as Error).message}`))
      .finally(() => {
        running = null;
        if (again && !opts.signal.aborted) {
          again = false;
          run();
        }
      });
  };
  /**
   * Watches k2s-dnsproxy for the follower's life (proxy-watch.ts proxyEnds) and, once another
   * program stopped it while the host points at it, stops K2s DNS too (onStopped): the original
   * goes back. A crash or a restart is no stop: the watch goes on.
   */
  const watchProxy = async (onStopped: NonNullable<WatchOptions['onStoppedOutside']>): Promise<void> => {
    try {
      while (!opts.signal.aborted && !stoppedOutside) {
        const end = await proxyEnds(deps, () => fastUntil, opts.signal);
        const seenAt = deps.now();
        const seenFastUntil = fastUntil;
        if (end === 'aborted' || opts.signal.aborted || stoppedOutside) return;
        if (end === 'crashed') await deps.sleep(PROXY_CRASHED_POLL_MS, opts.signal);
        if (end === 'crashed' || end === 'replaced') continue;
        // A look in progress holds the lifecycle lock: the stop takes it after that look. Such a
        // look may have restarted the engine (a newer network file): a proxy running then, with
        // no stop job queued for it, was not stopped by anyone, and the watch goes on.
        const looked = running !== null;
        while (running) await running;
        if (stoppedOutside) return;
        if (looked && (await deps.services.status().catch(() => null))?.running && (await deps.services.pendingJob?.().catch(() => null)) !== 'stop') continue;
        const state = back?.state ?? (await readState(deps.fs).catch(() => null));
        if (!state) {
          opts.log('k2s-dnsproxy was stopped by another program, and no saved state is left to stop K2s DNS from (nothing changed).');
          return;
        }
        stoppedOutside = true;
        const { why, line } = proxyStopWords(end, back, seenFastUntil, seenAt);
        opts.log(line);
        await onStopped(why, state);
        return;
      }
    } catch (err) {
      opts.log(`follow-watch: ${(err as Error).message}`);
    }
  };
  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  run();
  const poll = setInterval(run, pollMs);
  // The first look sets the watches (rewatch) and follows a change made while no watcher ran.
  await running;
  first = false;
  // Found stopped at the start (a follower restarted after its kill, K2s's own stop done
  // meanwhile): its stop's lines were the last; no "watches" line after them (breaker finding).
  if (!stoppedOutside && !opts.signal.aborted) opts.onReady?.();
  if (!stoppedOutside && !opts.signal.aborted && opts.onStoppedOutside && deps.services.kind === 'systemd') watchingProxy = watchProxy(opts.onStoppedOutside);
  // A SIGTERM during the first look (a stop right after start) aborted before this line: the
  // 'abort' event has fired already and would never fire again (the stop then waited 5 s and
  // killed the follower).
  if (!opts.signal.aborted) await new Promise<void>((resolve) => opts.signal.addEventListener('abort', () => resolve(), { once: true }));
  clearInterval(poll);
  if (timer) clearTimeout(timer);
  for (const w of watchers) w.close();
  await running;
  await watchingProxy;
}
