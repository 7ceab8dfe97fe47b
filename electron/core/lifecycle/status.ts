import { CAPTURE_MISSED_FILE, CAPTURE_UNWRITTEN_FILE } from '../capture/capture-args';
import { captureUnitWords } from '../../../shared/capture-unit-state';
import { missedWords, parseMissed } from '../capture/capture-missed';
import { keeperGaveUpWords, keeperRestartSentence } from '../host/capture-keeper';
import { captureKeeperGone, keeperGoneWords } from '../host/capture-keeper-gone';
import { ownProxyEngine } from '../host/own-proxy';
import { proxyConfigText } from '../host/proxy-kube-dns';
import { engineRuntime } from '../engines/table';
import { runningEngineVersion } from '../host/engine-version';
import { captureStopWords } from '../capture/capture-stopped';
import { captureStopFacts } from './capture-restart';
import { ownedFilesLeft } from './owned-files';
import { createHash } from 'node:crypto';
import type { LifecycleDeps } from './deps';
import type { HostDnsStatus, ResolverEntry } from '../../../shared/types';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { stateUnreadableNote } from '../../../shared/state-unreadable-note';
import { asRootWays, cliCommand, handResolverWays, setCliRunningStart, shellCommand, type FrontEnd } from '../../../shared/fix';
import { runningStartFlags } from '../../../shared/running-start';
import { captureResolver, isOversize, readState, resolverBytes, sameResolver } from '../host/resolver-state';
import { isK2sWrittenSha } from '../../../shared/state-file';
import { notResolverFileWords, oversizeResolverWords } from '../../../shared/not-a-file';
import { linkEndNotFile } from '../host/link-end';
import { isManagedEntry } from './preflight';
import { originalBack } from '../../../shared/resolver-compare';
import { isGone } from './resolver-gone';
import { judgeRefusedFile } from './refusal-now';
import { driftVerb, fileWriteHow } from './managed-file-id';
import { StateFileCorruptError } from '../host/state-store';
import { interruptedOperation, journalSteps, readJournal, readRecovery } from './journal';
import { readWatchdogState, recordedProxyPid, watchdogAlive } from '../host/supervised-service';
import { MAX_RESTARTS } from '../host/supervisor-script';
import { watchdogRestarting } from './proxy-restarting';
import { resolvedRouteFinding } from '../doctor/resolved-route';
import { operationNow } from '../doctor/operation-now';
import { readStartCopy } from '../host/start-copy';
import { followedCopy, restoreLabel, savedCopyWords, savedOriginalWords, startCopyWords } from '../../../shared/saved-copy';

/**
 * How the last run ended while systemd's next attempt already starts: systemd has reset
 * ExecMainCode/ExecMainStatus for it, and Restart=on-failure restarts only after a failure.
 */
export const RESTART_EXIT_UNKNOWN = 'failed (its next attempt is starting, so systemd no longer says how it ended)';
import { describeNetworkChange, networkChangeNowWords, networkWriter, notResolverFileRefusal, notResolverFix, notResolverGuiFix, resolverFileRefusal, resolverOwnerProblem, resolverOwnerRefusal, startRefusesResolverFile, writerWords } from '../../../shared/network-writer';
import { currentResolverWritable, followFixLine, liveResolverWritable, savedOriginalWritable, writableNote } from '../../../shared/writable-resolver';
import { resolverFileOwner } from '../host/resolver-owner';
import { keepRiskOutcome, keepRiskWords } from '../../../shared/drift-default';
import { exitPredicate, exitStatusWords, lastRunWords } from '../../../shared/exit-status';
import { driftRoute, glibcResolverText, viaK2sWords, type DriftRoute } from '../../../shared/drift-route';
import { watchdogRestartWords, watchdogWaitWords } from '../../../shared/watchdog-backoff';

/**
 * How a proxy that exited 0 under the watchdog ended (supervisor-script.ts records it and does not
 * restart it): both engines exit 0 on SIGTERM, so someone ended it on purpose.
 */
export const CLEAN_EXIT_WORDS = 'exited cleanly (status 0, as after a plain kill or SIGTERM), which the watchdog does not restart: only a failure is restarted';

/**
 * A short hash of the resolver as it is now (kind, link target, bytes; not mode or owner): the
 * status field `resolverStamp`, so the window re-runs the checks that read the file when it changes.
 */
export function resolverStampOf(e: ResolverEntry): string {
  const parts = e.kind === 'file' ? ['file', e.contentBase64] : e.kind === 'symlink' ? ['symlink', e.target, e.targetContentBase64 ?? '-'] : [e.kind];
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);
}

/**
 * Reads host DNS status without changing anything (works without root where the files are
 * readable): state file, proxy service, who owns /etc/resolv.conf now, and the operation in
 * progress from the lifecycle journal (`starting`/`stopping` while its process lives).
 * Cheap (files and the service only): the end-to-end path check is dnsStatusWithHealth.
 * `frontEnd` picks the words of the fixes in `messages`: app buttons for 'gui', commands for 'cli'.
 * Sets the running start's flags for this runtime's printed `start` commands (shared/fix.ts
 * setCliRunningStart), from the state file it read.
 */
export async function dnsStatus(deps: LifecycleDeps, frontEnd: FrontEnd = 'cli'): Promise<HostDnsStatus> {
  const say = (w: Record<FrontEnd, string>) => w[frontEnd];
  const messages: string[] = [];
  let stateProblem: string | null = null;
  // A user (not root) cannot read root's 0700 state dir: the state is unknown, not missing.
  let unreadable = false;
  const state = await readState(deps.fs).catch((err: unknown) => {
    if (err instanceof StateFileCorruptError) stateProblem = say({ gui: `The saved resolver state ${err.path} is corrupt (${err.problem}); press Stop: it restores your original resolver when the file still holds a readable one and moves the file aside (never deletes it).`, cli: err.message });
    const code = (err as NodeJS.ErrnoException).code;
    unreadable = deps.uid() !== 0 && (code === 'EACCES' || code === 'EPERM');
    // Said below, once the proxy and the resolver tell whether a state must exist.
    if (!unreadable) messages.push(stateProblem ?? (err as Error).message);
    return null;
  });
  // Every `start` this status (and the health verdict read with it) prints starts K2s DNS again as it ran.
  setCliRunningStart(state ? runningStartFlags(state) : null);
  const service = await deps.services.status();
  // The running engine's `--version` (a process; asked once per proxy run in a window's process),
  // begun now so that it runs while the reads below are made; never rejects.
  const versionEarly = service.running && state?.engine ? runningEngineVersion(deps.fs, deps.exec, state.engine, state.engineBinary, service.pid ?? null) : null;
  const top = await deps.fs.lstat(K2S_PATHS.resolvConf);
  const kind = top?.kind;
  // A directory or special file cannot be captured; status must still answer (never throw).
  const current: ResolverEntry | null = kind === 'dir' || kind === 'other' ? null : await captureResolver(deps.fs, deps.exec);
  // A link that ends at a directory, FIFO or device (stat only: a FIFO is never opened).
  const linkEnd = current?.kind === 'symlink' && !current.dangling && current.targetContentBase64 === null ? await linkEndNotFile(deps.fs, K2S_PATHS.resolvConf) : null;
  let owner: HostDnsStatus['resolverOwner'] = 'original';
  // The saved original put back by another program and k2s-dnsproxy stopped (not crashed:
  // systemd restarts nothing), as K2s's own `k2s stop` leaves them (docs/host-integration.md):
  // the user's own file, no drift; the health verdict `original-back` says so, with a plain stop as its fix.
  const back = !!state && current !== null && !isManagedEntry(current) && !service.running && !service.restart && originalBack(current, state.resolvConf);
  let driftRouteNow: DriftRoute | null = null;
  // K2s's own file (its header) whose bytes another program changed in place.
  let resolverEdited = false;
  let driftOwnerRefusal: string | null = null;
  // The command that makes their file pass the owner rule (shared/writable-resolver.ts followFixLine), with the follow policy.
  let driftOwnerFix: string | null = null;
  // Their file is no resolver file at all (the follower's words): the drift choice's default is to restore.
  let driftFileRefusal: string | null = null;
  let driftWriter: string | null = null;
  // How their file came there (driftVerb): `rewritten in place` or `replaced`.
  let driftVerbNow: HostDnsStatus['driftVerb'] | null = null;
  // Deleted or left dangling: no file of theirs to keep (stop restores whatever the choice).
  let driftGone: string | null = null;
  // The file's text (a link's target's) as glibc reads it (a line ends at a NUL), for the drift
  // route; null for a dangling link or no file.
  const currentBytes = current ? resolverBytes(current) : null;
  const currentText = currentBytes === null ? null : glibcResolverText(currentBytes);
  // A directory or special file: no resolver file (glibc ignores it: EISDIR, res_init.c).
  const notFile = current === null ? notResolverFileWords({ kind: kind === 'dir' ? 'dir' : 'other', ...(top?.special ? { special: top.special } : {}) }) : null;
  // With no start recorded (no saved state, no corrupt one, no running proxy) it is no drift:
  // it is this host's own, which start refuses (NOT_RESOLVER_FILE). A user who cannot read root's
  // 0700 state directory while the proxy is down is told so too (most likely nothing is saved).
  const notFileNoRun = notFile !== null && !state && !stateProblem && !service.running;
  if (current === null && notFileNoRun) {
    messages.push(`/etc/resolv.conf is ${notFile}, so start would refuse it (NOT_RESOLVER_FILE). Move it away (${shellCommand('mv /etc/resolv.conf /etc/resolv.conf.moved', true)}) first. ${say({ gui: notResolverGuiFix(), cli: notResolverFix() })}`);
  } else if (current === null) {
    owner = 'foreign';
    messages.push(`/etc/resolv.conf is ${notFile}; move it away (${shellCommand('mv /etc/resolv.conf /etc/resolv.conf.moved', true)}), then ${say({ gui: 'choose in the banner at the top.', cli: `to put the saved original back, run ${asRootWays('stop')}.` })}`);
  } else if (isManagedEntry(current)) {
    owner = 'k2s';
    if (state?.managedResolvConfSha256 && current.kind === 'file') {
      const sha = createHash('sha256').update(Buffer.from(current.contentBase64, 'base64')).digest('hex');
      // Either sha a follow may stand between (state-file.ts isK2sWrittenSha): its write is no edit.
      if (!isK2sWrittenSha(state, sha)) {
        // Edited in place (`sed -i`, `ex`): what glibc does with the file as it is now, as for
        // any other program's file (shared/drift-route.ts), so status names its nameservers and
        // says "bypassed" only when the first one is no listener (breaker 10 M4). Why it still
        // goes through K2s DNS is said here once, as for their file (the health line does not).
        resolverEdited = true;
        driftRouteNow = currentText === null ? null : driftRoute(currentText, state.listeners.map((l) => l.address));
        const via = driftRouteNow?.viaK2s && frontEnd === 'cli' ? ` Host apps still go through K2s DNS: ${viaK2sWords(driftRouteNow)}.` : '';
        messages.push(`/etc/resolv.conf has the K2s header but other content than K2s wrote.${via}`);
      }
    }
  } else if (back) {
    owner = 'original';
  } else if (state && !sameResolver(current, state.resolvConf) && linkEnd) {
    owner = 'foreign';
    driftFileRefusal = `the new file is a symlink → ${current.kind === 'symlink' ? current.target : '?'}, which is ${notResolverFileWords(linkEnd)}`;
    // Its bytes read as none (no file at the end): say what is there, not "an empty file".
    messages.push(`/etc/resolv.conf was replaced by a symlink → ${current.kind === 'symlink' ? current.target : '?'}, which is ${notResolverFileWords(linkEnd)}: host apps get no nameserver from it; ${say({ gui: 'choose in the banner at the top.', cli: `to put the saved original back, run ${asRootWays('stop')}.` })}`);
  } else if (state && !sameResolver(current, state.resolvConf) && isGone(current)) {
    owner = 'foreign';
    const what = current.kind === 'symlink' ? `replaced by a dangling symlink (→ ${current.target})` : 'deleted';
    driftGone = what;
    // glibc reads no file as one with no nameserver line: it asks 127.0.0.1 (resolv.conf(5)), the
    // proxy's listener — host apps still go through K2s DNS, and keeping "their file" would leave none.
    driftRouteNow = driftRoute('', state.listeners.map((l) => l.address));
    // What Stop puts back is said once per front end (walk 12 M2): the window's drift banner, the
    // CLI's health line (shared/health.ts verdictFix); this note names only the control.
    messages.push(`/etc/resolv.conf was ${what} while K2s ran; ${say({ gui: 'press Stop to end it.', cli: `to end it, run ${asRootWays('stop')}.` })}`);
  } else if (state && !sameResolver(current, state.resolvConf) && isOversize(current)) {
    owner = 'foreign';
    // Read only up to the bound (64 KiB + 1): never parsed as a resolver file.
    const size = (await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null))?.size;
    driftFileRefusal = notResolverFileRefusal(resolverBytes(current) ?? Buffer.alloc(0));
    messages.push(`/etc/resolv.conf was replaced by ${oversizeResolverWords(size)} while K2s ran; ${say({ gui: 'choose in the banner at the top.', cli: `to put the saved original back, run ${asRootWays('stop')}.` })}`);
  } else if (state && !sameResolver(current, state.resolvConf)) {
    owner = 'foreign';
    // What glibc does with their file (shared/drift-route.ts): no nameserver line or 127.0.0.1
    // first still reaches the proxy, so host apps still go through K2s DNS.
    driftRouteNow = currentText === null ? null : driftRoute(currentText, state.listeners.map((l) => l.address));
    // The follower's owner rule on their file (a link's target), so the banner can say why it was not followed.
    const ownerOf = current.kind === 'file' ? current : await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null);
    driftOwnerRefusal = ownerOf ? resolverOwnerRefusal(ownerOf) : null;
    // The fix that keeps K2s DNS running (walk 11 M3): with the follow policy the follower follows
    // their file at its next look once it passes the owner rule; the drift fix offers it first.
    driftOwnerFix = ownerOf && driftOwnerRefusal && (state.onNetworkChange ?? 'follow') === 'follow' ? followFixLine(ownerOf) : null;
    driftWriter = writerWords(networkWriter(currentText ?? '', current.kind === 'symlink' ? current.target : null));
    // Why host apps still go through K2s DNS, said once per front end (issue #20, walk 10 L1): here
    // for the CLI (its health line says one clause); in the window the drift banner says it.
    const via = driftRouteNow?.viaK2s && frontEnd === 'cli' ? ` Host apps still go through K2s DNS: ${viaK2sWords(driftRouteNow)}.` : '';
    // The verb of the follower's note (managed-file-id.ts fileWriteHow), as doctor says it (walk 11 L10).
    driftVerbNow = driftVerb(current.kind === 'file' ? fileWriteHow(top, state) : 'replaced by a symlink');
    // In the window the drift banner's title says what happened, once (walk 12 M3: it stood in seven
    // places on one screen): the note there only points at the diff.
    messages.push(say({ gui: 'The drift in the banner at the top: Resolver diff shows how.', cli: `/etc/resolv.conf was ${driftVerbNow} by ${driftWriter} while K2s ran; see ${cliCommand('diff')}.${via}` }));
    // The follower's reason when it is no resolver file at all (shared/network-writer.ts), and
    // what the drift choice's default is then: the banner's words (shared/drift-default.ts).
    const bytes = resolverBytes(current);
    driftFileRefusal = bytes ? notResolverFileRefusal(bytes) : null;
  }
  // Start's own rule for the file it would save (preflight NOT_RESOLVER_FILE): now when stopped,
  // or after `stop --on-drift keep` keeps their file during drift. The verdict and the drift fix
  // then never offer a start (walk 8 H1, L5). A K2s-owned file is never saved; a gone one has no bytes.
  const startBytes = current && owner !== 'k2s' && !linkEnd && !isGone(current) ? resolverBytes(current) : null;
  const startRefusal = notFileNoRun ? `the new file is ${notFile}` : startBytes ? startRefusesResolverFile(startBytes) : null;
  // Below the 0700 directory lstat(2) fails whether or not the file exists: a running proxy or a
  // K2s-owned resolv.conf means a start saved one; otherwise this user cannot know (Stop removes it).
  const stateImplied = service.running || owner === 'k2s';
  // In the window, a stopped K2s DNS's unseen state is said once, on the Host DNS card's Saved
  // original row (stateUnreadable below), not again as a note (new-user walk: the note beside
  // "Nothing to stop" read as a contradiction); the CLI has no such row.
  // The details note names what the proxy's config does not give (configFacts, read below): it is set again then.
  const detailsWay = say({ gui: 'K2s DNS itself is not affected; Start, Stop and Uninstall still work (they run as root through polkit).', cli: `they are shown ${asRootWays('status')}.` });
  const detailsNote = unreadable && stateImplied ? stateUnreadableNote(null, detailsWay) : null;
  if (unreadable && (stateImplied || frontEnd === 'cli')) {
    messages.unshift(
      detailsNote !== null
        ? detailsNote
        : `${K2S_PATHS.stateDir} is readable by root only (0700), so uid ${deps.uid()} cannot see whether it still holds a saved state; the proxy is not running and /etc/resolv.conf is not K2s's, so most likely nothing is saved (Stop removes the file); to be sure, run ${asRootWays('status')}.`,
    );
  }
  // What the follower did last (follow.ts): said in words, so the CLI and the app both show it.
  // A drift of /etc/resolv.conf whose file is K2s's own again (written back by hand, or by a
  // program) is over: told in the past. A refused rewrite of the saved link's target (follow.ts:
  // "link target … rewritten") happens while /etc/resolv.conf stays K2s's, so it never ends so.
  const lastChange = state?.lastNetworkChange ?? null;
  const recorded = lastChange?.outcome === 'drift' && owner === 'k2s' && !lastChange.how.startsWith('link target ') ? { ...lastChange, ended: true } : lastChange;
  // The network follower (follow-watch) while K2s DNS runs with the follow policy: its PID and
  // whether it runs; null when none should run (or this front end cannot tell).
  const watch = deps.follower?.manager ?? deps.followerWatch;
  // A follower absent while a start or stop runs (stop ends it, start starts it last, with
  // its state written before: start.ts, stop.ts) is that operation's doing, not a fault: unknown
  // (null) then, so no "not running" note flashes during a CLI `stop && start` (walk 11 L7). The
  // lock alone counts too: stop may end the follower before its first journal write.
  // A user who cannot read the state (unreadable) still sees a running follower, which runs only
  // with the follow policy (the upstream-down verdict's words hang on it: check-health.ts); one not
  // running tells such a user nothing (keep, or a follower down): unknown (null).
  const follower: HostDnsStatus['follower'] =
    (state ? (state.onNetworkChange ?? 'follow') === 'follow' : unreadable) && service.running && watch?.running
      ? await (async () => {
          const running = await watch.running!().catch(() => true);
          if (!running && (!state || (await operationNow(deps.fs, true)))) return null;
          return { running, pid: running && watch.pid ? await watch.pid().catch(() => null) : null };
        })()
      : null;
  // A refusal by the follower's file or owner rule is its judgement of the file as it was then:
  // when the file there now is judged otherwise (its mode fixed by the printed chmod, another
  // owner, new bytes), status says what is true now and never repeats a reason or fix that no
  // longer holds (walk 9 H1).
  const judgedNow = recorded?.outcome === 'drift' && !recorded.ended && recorded.judged && state ? await judgeRefusedFile(deps, state, current, owner) : null;
  const nowWords = judgedNow && recorded ? networkChangeNowWords(recorded, judgedNow.reason, judgedNow.owner, judgedNow.sha256 === recorded.judged?.sha256, follower ? follower.running : service.running && (state?.onNetworkChange ?? 'follow') === 'follow') : null;
  const change = nowWords && recorded ? { ...recorded, now: nowWords } : recorded;
  if (change) messages.push(describeNetworkChange(change));
  // Who wrote the saved copy (a followed file by its writer, never "by k2s-dns"), and the file
  // from before Start when a follow replaced it (host/start-copy.ts; read only with a followed copy).
  // A clock time for today (UTC), the whole ISO time for another day: the CLI and the window show
  // both in local time (shared/clock.ts localTimes), a bare clock always as today's.
  const utc = (ms: number) => {
    const iso = new Date(ms).toISOString();
    return iso.slice(0, 10) === new Date(deps.now()).toISOString().slice(0, 10) ? `${iso.slice(11, 19)} UTC` : iso;
  };
  const followed = state ? followedCopy([state.lastNetworkChange, state.followedChange], state.savedAt) : null;
  // Their file is no resolver file: what keeping it does, and that a plain stop restores (the
  // banner's default), said once (walk 9 M3, issue #20): CLI only — in the window the banner says
  // it next to the choice, and the Host DNS card's "Last network change" row gives the reason.
  // The reason itself only when the follower's note above does not already give it.
  if (driftFileRefusal && owner === 'foreign' && !driftGone && frontEnd === 'cli') {
    const risk = { kind: 'not-resolver' as const, reason: driftFileRefusal, leavesNone: driftRouteNow?.keepLeavesNone === true };
    const told = !!change && change.outcome === 'drift' && !change.ended && change.reason === driftFileRefusal;
    const copy = followed ? savedCopyWords(followed, utc) : 'your saved original';
    messages.push(`${told ? keepRiskOutcome(risk, driftRouteNow) : keepRiskWords(risk, driftRouteNow)} So a plain ${cliCommand('stop', true)} restores ${copy} over it ("${restoreLabel(followed, false, null, utc)}"; --on-drift keep keeps it).`);
  }
  const savedOriginal = state ? savedOriginalWords(state.savedAt, state.writtenBy, followed, utc) : null;
  const startCopy = followed ? await readStartCopy(deps.fs).catch(() => null) : null;
  // With drift, the restore choice (--on-drift restore) puts back the saved copy, which a follow made
  // the followed file, not the file from before Start (walk 7 M2): one note says both (walk 11 L5),
  // over their file only when there is one (deleted: walk 11 M2).
  if (startCopy && followed) messages.push(startCopyWords(startCopy.savedAt, followed, owner !== 'foreign' ? null : driftGone ? 'gone' : 'theirs', utc, frontEnd));
  // A saved original a user could write (shared/writable-resolver.ts): stop puts it back so. Said
  // while it is saved, not only in the start's RESOLV_CONF_WRITABLE warning (sixth walk M3).
  const savedOwner = state ? await resolverFileOwner(deps.fs, state.resolvConf) : null;
  const savedWords = savedOwner ? savedOriginalWritable(savedOwner) : null;
  if (savedWords) messages.push(writableNote(savedWords, frontEnd));
  // K2s DNS's own file made writable in place (`chmod 666`): silent until someone writes it (L1).
  const liveOwner = owner === 'k2s' && current?.kind === 'file' ? current : null;
  const liveWords = liveOwner ? liveResolverWritable(liveOwner) : null;
  if (liveWords) messages.push(writableNote(liveWords, frontEnd));
  // Stopped (no start recorded) on a file a user could write, e.g. kept by `stop --on-drift keep`:
  // said here with its fix, as doctor does, not only by doctor (walk 11 L8).
  const hostOwner = !state && !unreadable && owner === 'original' && current && (current.kind === 'file' || current.kind === 'symlink') && !isGone(current) && !linkEnd ? (current.kind === 'file' ? current : await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null)) : null;
  const hostWords = hostOwner ? currentResolverWritable(hostOwner) : null;
  if (hostWords) messages.push(writableNote(hostWords, frontEnd));
  const interrupted = await interruptedOperation(deps.fs).catch(() => null);
  // A journal whose process is alive is an operation running now (the CLI, the helper, another window).
  const live = interrupted ? null : await readJournal(deps.fs).catch(() => null);
  if (interrupted) {
    messages.push(`A k2s-dns ${interrupted.op} (PID ${interrupted.pid}) was interrupted during "${interrupted.step}"; ${say({ gui: 'press Stop to put the original resolver back.', cli: `to put the original resolver back, run ${asRootWays('recover')} (stop does it too).` })}`);
  }
  const recovery = await readRecovery(deps.fs).catch(() => null);
  if (recovery) messages.push(`${recovery.outcome} (${recovery.at})`);
  let status: HostDnsStatus['state'] = 'stopped';
  let watchdogRestart: HostDnsStatus['watchdogRestart'] = null;
  let serviceRestart: HostDnsStatus['serviceRestart'] = null;
  let proxyExit: HostDnsStatus['proxyExit'] = null;
  if (interrupted) status = 'degraded';
  else if (live) status = live.op === 'start' ? 'starting' : 'stopping';
  else if (state || stateProblem || service.running || owner === 'k2s') {
    status = service.running && owner === 'k2s' && (state || unreadable) ? 'running' : 'degraded';
    // Without systemd the watchdog restarts the proxy (supervisor-script.ts): while it does, waiting is the advice.
    const dog = state && deps.services.kind === 'supervised' ? await readWatchdogState(deps.fs).catch(() => null) : null;
    if (dog?.lastExit != null && dog.lastExitAt !== null) proxyExit = { pid: dog.lastPid, at: new Date(dog.lastExitAt).toISOString(), how: dog.lastExit === 0 ? CLEAN_EXIT_WORDS : exitStatusWords(dog.lastExit), restartedBy: 'watchdog' };
    // The proxy is down and the pidfile names another PID than the watchdog's record: the record is
    // of an earlier crash the watchdog healed, and the proxy it restarted ended with the watchdog
    // (both killed), which recorded nothing. The outage is that later PID's (issue 20.2).
    const lastProxy = dog && !service.running ? await recordedProxyPid(deps.fs) : null;
    if (lastProxy !== null && lastProxy !== dog?.lastPid && !(await watchdogAlive(deps.fs))) {
      proxyExit = { pid: lastProxy, at: null, how: 'ended together with its watchdog, so neither when nor how was recorded', restartedBy: 'watchdog' };
    }
    // systemd restarted it (Restart=on-failure): how the run before ended, from its journal
    // (electron/core/host/systemd-service.ts); its PID is not in that entry.
    const sdExit = state && service.running ? (service.restarted ?? null) : null;
    if (sdExit?.at != null) proxyExit = { pid: null, at: new Date(sdExit.at).toISOString(), how: sdExit.how, restartedBy: 'systemd' };
    const sd = !service.running && state ? (service.restart ?? null) : null;
    // A live watchdog that has not given up is restarting the proxy, whatever its state file
    // says at this instant (host/watchdog-restart.ts: the file lags the process by ms; walk 12 M1).
    // The same rule start refuses on (proxy-restarting.ts).
    const restarting = !service.running && state && deps.services.kind === 'supervised' && !sd ? await watchdogRestarting(deps.fs, dog) : null;
    if (sd && !sd.gaveUp) {
      serviceRestart = sd;
      messages.push(`k2s-dnsproxy is restarting (attempt ${sd.attempt}): systemd starts it again by itself after it ${exitPredicate(sd.lastExit ?? RESTART_EXIT_UNKNOWN)}${sd.reason ? `; its log says: ${sd.reason}` : ''} (${K2S_PATHS.log}); ${say({ gui: 'wait a few seconds.', cli: `wait a few seconds, then run ${cliCommand('status')}.` })}`);
    } else if (sd?.gaveUp) {
      serviceRestart = sd;
      messages.push(`systemd restarted k2s-dnsproxy ${sd.attempt} times and stopped (its start limit); ${lastRunWords(sd.lastExit ?? 'ended')}${sd.reason ? ` and its log says: ${sd.reason}` : ''} (${K2S_PATHS.log}). Fix that cause, then ${say({ gui: 'press Stop, then Start.', cli: `run ${asRootWays(['stop', 'start'])}.` })}`);
    } else if (restarting) {
      watchdogRestart = { restarts: restarting.restarts, max: MAX_RESTARTS };
      messages.push(`k2s-dnsproxy is not running: the watchdog is restarting it (${watchdogRestartWords(watchdogRestart)}); ${say({ gui: `${watchdogWaitWords(restarting.restarts)}.`, cli: `${watchdogWaitWords(restarting.restarts)}, then run ${cliCommand('status')}.` })}`);
    } else if (!service.running && state && dog?.state === 'gave-up') {
      // The watchdog's own limit (supervisor-script.ts): MAX_RESTARTS quick failures in a row.
      messages.push(`The watchdog restarted k2s-dnsproxy ${MAX_RESTARTS} times in a row, each run ending within 60 s, and gave up; ${lastRunWords(dog.lastExit === null ? 'ended' : exitStatusWords(dog.lastExit))} (${K2S_PATHS.log} says why). Fix that cause${say({ gui: ', then press Start: it starts k2s-dnsproxy again and keeps your saved original.', cli: `; then, to start k2s-dnsproxy again (your saved original is kept), run ${asRootWays('start')}.` })}`);
    // Start alone repairs it: with the saved state kept and the proxy down, start runs again in full (preflight alreadyRunning is false).
    } else if (!service.running && state && !back) messages.push(`k2s-dnsproxy is not running although K2s DNS was started: ${say({ gui: 'press Start: it starts k2s-dnsproxy again and keeps your saved original.', cli: `to start k2s-dnsproxy again (your saved original is kept), run ${asRootWays('start')}.` })}`);
    if (service.running && !state && !stateProblem && !unreadable) {
      messages.push(owner === 'k2s' ? `k2s-dnsproxy runs but the saved original is gone: write your own resolv.conf back by hand (${handResolverWays()}), then ${say({ gui: 'press Stop', cli: `run ${asRootWays('stop')}` })}.` : `k2s-dnsproxy runs but no start is recorded: ${say({ gui: 'press Stop.', cli: `run ${asRootWays('stop')}.` })}`);
    }
  }
  // The exact query log's companion ended on its own (capture-main.ts) or was killed (its ready
  // file left naming a dead pid, capture-stopped.ts): said here, not only in the Queries view,
  // since its rows file keeps looking current. DNS itself is not affected.
  // The rule a running start restarts it by (capture-restart.ts), so "run start" is said only where it does.
  const capture = state && service.running ? await captureStopFacts(deps, state) : null;
  const captureStop = capture?.stop ?? null;
  // Without systemd its keeper restarts it (host/capture-keeper.ts): said as the proxy's restarts
  // are, and a stop while it does (or once its new one runs) is not the exact log's end.
  const keeper = capture?.keeper ?? null;
  // `HH:MM:SS UTC`: the CLI and the window show it in local time (shared/clock.ts).
  const restartWords = keeperRestartSentence(keeper, capture?.keptAlive ?? false, (ms) => `${new Date(ms).toISOString().slice(11, 19)} UTC`);
  if (restartWords !== null) messages.push(restartWords);
  // systemd restarts its unit, but not after a status of shared/capture-exit.ts (RestartPreventExitStatus=): then a start does.
  if (captureStop !== null && capture?.restartBy) {
    const how =
      capture.restartBy === 'systemd'
        ? 'systemd restarts its unit by itself.'
        : capture.restartBy === 'start'
          ? say({ gui: 'press Start to restart it.', cli: `to restart it, run ${asRootWays('start')}.` })
          : capture.restartBy === 'tcpdump'
            ? say({ gui: 'install tcpdump (apt-get install tcpdump), then press Start to restart it.', cli: `install tcpdump (apt-get install tcpdump), then, to restart it, run ${asRootWays('start')}.` })
            : say({ gui: 'press Stop, then Start to restart it.', cli: `to restart it, run ${asRootWays(['stop', 'start'])}.` });
    messages.push(`The exact query log ${captureStopWords(captureStop)}${keeperGaveUpWords(keeper)}; ${how}`);
  }
  // Its keeper killed (kill -9, OOM) while the companion runs on: the log fills, but a crash of the
  // companion is no longer restarted. Stop ends the companion (found by its ready file), and start
  // runs a new one under a keeper; a running start alone changes nothing. Not while a start or stop
  // runs (`live`): a stop SIGKILLs a keeper whose companion does not end before it ends that companion.
  const keeperGone = state && service.running && !live && deps.services.kind !== 'systemd' && captureStop === null ? await captureKeeperGone(deps.fs) : null;
  if (keeperGone) messages.push(keeperGoneWords(keeperGone, say({ gui: 'press Stop, then Start to run it under a keeper again.', cli: `to run it under a keeper again, run ${asRootWays(['stop', 'start'])}.` })));
  // The network follower killed (kill -9, OOM): nothing follows a new network file any more, and
  // later changes would only show as drift.
  if (follower && !follower.running) {
    messages.push(`The network follower is not running (onNetworkChange follow): a new resolver file from the network is not followed and shows as drift; ${say({ gui: 'press Start to restart it.', cli: `to restart it, run ${asRootWays('start')}.` })}`);
  }
  // Rows the companion could not write (a full log disk, rows-file.ts): the exact log has gaps.
  // As the missed packets below: not once the capture stopped (its stop is said, nothing is written again).
  const unwritten = state && service.running && captureStop === null ? (await deps.fs.readFile(CAPTURE_UNWRITTEN_FILE, { maxBytes: 4096 }).then((b) => b.toString('utf8').trim(), () => '')) : '';
  // The remedy for a full disk only; a slow disk's (rows-file.ts QUEUE_CAP_BYTES) or another error's rows are tried again.
  if (unwritten !== '') messages.push(`The exact query log misses rows: ${unwritten}; ${unwritten.includes('(no space left on ') ? 'free space there, the next rows are written again' : 'the next rows are tried again'}.`);
  // Packets the kernel dropped while the companion, at idle priority, yielded the CPU to DNS (capture-missed.ts).
  const missed = state && service.running && captureStop === null ? parseMissed((await deps.fs.readFile(CAPTURE_MISSED_FILE, { maxBytes: 4096 }).catch(() => Buffer.from(''))).toString('utf8')) : null;
  if (missed !== null) messages.push(`The exact query log ${missedWords(missed)}.`);
  // The capture unit after a stop (systemd): still draining, or failed (killed mid-drain: its last
  // rows may be missing). One line, only when it is not inactive (capture-unit-state.ts).
  const captureUnit = !service.running ? (service.captureUnit ?? null) : null;
  if (captureUnit) messages.push(captureUnitWords(captureUnit, say({ gui: 'the next Start resets it', cli: 'the next start resets it, as uninstall does' })));
  // The route resolved needs for the cluster zones is runtime state of the link (lost when the
  // link is re-created, until k2s-dnsproxy-resolved.service applies it again): doctor's check, shown here too.
  const routeCheck = state?.resolvedRoute && service.running && deps.services.kind === 'systemd' ? await resolvedRouteFinding(deps, state.resolvedRoute) : null;
  if (routeCheck && (routeCheck.severity === 'error' || routeCheck.severity === 'warn')) {
    messages.push(`${routeCheck.title}: ${routeCheck.meaning} ${(frontEnd === 'gui' ? routeCheck.remedy?.gui : null) ?? routeCheck.fix ?? ''}`.trim());
    if (routeCheck.severity === 'error' && status === 'running') status = 'degraded';
  }
  const journal = interrupted ?? live;
  // Stop keeps these, uninstall removes them: how a window names an outside uninstall (types.ts proxyFilesLeft).
  // lstat only (no read): also as a user, outside root's 0700 state dir.
  const proxyFilesLeft = (await Promise.all([K2S_PATHS.proxyConfig, K2S_PATHS.dnsmasqConfig, K2S_PATHS.log].map((f) => deps.fs.lstat(f).catch(() => null)))).some((st) => st !== null);
  // Stopped: whether uninstall has a file left to remove (types.ts ownedFilesLeft); null: not seen.
  const ownedLeft = status === 'stopped' ? proxyFilesLeft || (await ownedFilesLeft(deps.fs)) : null;
  // Without the state (a user under root's 0700 directory), the running proxy's own argv names its engine,
  const engine = state?.engine ?? (unreadable && service.running && service.pid ? await ownProxyEngine(deps.fs, service.pid) : null);
  // and that engine's config (0644, read once) the kube-dns address start discovered (never K2s's
  // default said as it), its listeners and default upstreams (marked as the config's: configFacts).
  const config = !state && unreadable && service.running && engine ? await proxyConfigText(deps.fs, engine) : null;
  const kubeDnsIp = state?.kubeDnsIp ?? (config && engine ? engineRuntime(engine).zoneServer(config.text) : null);
  // A read cut at its bound could name only some: none then.
  const configFacts = config && !config.cut && engine ? await engineRuntime(engine).configFacts(config.text).then((f) => f && { ...f, file: engineRuntime(engine).configPath }) : null;
  if (detailsNote !== null && configFacts) messages[messages.indexOf(detailsNote)] = stateUnreadableNote(configFacts, detailsWay);
  // Without the state (a user), the engine told by the proxy's argv is asked now.
  const version = versionEarly ? await versionEarly : service.running && engine ? await runningEngineVersion(deps.fs, deps.exec, engine, state?.engineBinary, service.pid ?? null) : null;
  return {
    state: status,
    engine,
    engineVersion: version?.version ?? null,
    ...(version?.unknown ? { engineVersionUnknown: version.unknown } : {}),
    listeners: state?.listeners ?? [],
    skippedListeners: state?.skippedListeners ?? [],
    resolverOwner: owner,
    ...(captureUnit ? { captureUnit } : {}),
    ...(back ? { originalBack: true as const } : {}),
    ...(driftRouteNow ? { driftRoute: driftRouteNow } : {}),
    ...(resolverEdited ? { resolverEdited: true } : {}),
    ...(driftOwnerRefusal ? { driftOwnerRefusal } : {}),
    ...(driftOwnerFix ? { driftOwnerFix } : {}),
    ...(savedOwner && savedWords ? { savedOriginalWritable: resolverOwnerProblem(savedOwner)! } : {}),
    ...(liveOwner && liveWords ? { liveResolverWritable: resolverOwnerProblem(liveOwner)! } : {}),
    ...(hostOwner && hostWords ? { resolverWritable: resolverOwnerProblem(hostOwner)! } : {}),
    ...(driftFileRefusal ? { driftFileRefusal } : {}),
    ...(startRefusal ? { startRefusal } : {}),
    ...(driftWriter ? { driftWriter } : {}),
    ...(driftVerbNow ? { driftVerb: driftVerbNow } : {}),
    ...(driftGone ? { driftGone } : {}),
    ...(current && isGone(current) ? { resolverMissing: current.kind === 'symlink' ? { kind: 'dangling' as const, target: current.target } : { kind: 'absent' as const } } : {}),
    resolverStamp: current === null ? `${kind ?? 'none'}` : resolverStampOf(current),
    upstreams: state?.upstreams ?? [],
    clusterDomain: state?.clusterDomain ?? null,
    kubeDnsIp,
    ...(configFacts ? { configFacts } : {}),
    // The zones the running proxy routes (its saved plan): the Zones tab shows them while the API does not answer.
    ...(state?.plan?.zones ? { zonesInUse: state.plan.zones } : {}),
    savedAt: state?.savedAt ?? null,
    savedBy: state?.writtenBy ?? null,
    ...(savedOriginal ? { savedOriginal } : {}),
    ...(startCopy ? { startCopy: { savedAt: startCopy.savedAt } } : {}),
    proxyFilesLeft,
    ...(ownedLeft !== null ? { ownedFilesLeft: ownedLeft } : {}),
    pid: service.pid,
    messages,
    operation: journal ? { op: journal.op, step: journal.step, pid: journal.pid, startedAt: journal.startedAt, ...(journalSteps(journal).length ? { done: journalSteps(journal) } : {}) } : null,
    ...(stateProblem ? { stateProblem } : {}),
    ...(unreadable && stateImplied ? { stateUnreadable: `${K2S_PATHS.stateFile} is readable by root only (its directory ${K2S_PATHS.stateDir} is 0700) and this app runs as uid ${deps.uid()}` } : {}),
    ...(unreadable && !stateImplied ? { stateUnreadable: `${K2S_PATHS.stateDir} is readable by root only (0700), so whether it holds a saved state cannot be seen as uid ${deps.uid()}; K2s DNS is not running and does not own /etc/resolv.conf, so most likely nothing is saved (Stop removes it)` } : {}),
    ...(watchdogRestart ? { watchdogRestart } : {}),
    ...(serviceRestart ? { serviceRestart } : {}),
    ...(proxyExit ? { proxyExit } : {}),
    ...(state?.resolvedRoute ? { resolvedRoute: state.resolvedRoute } : {}),
    ...(routeCheck ? { routeCheck } : {}),
    ...(state ? { onNetworkChange: state.onNetworkChange ?? 'follow', networkChange: change } : {}),
    ...(state?.startedWith?.logQueries === false ? { logQueries: false as const } : {}),
    ...(state?.followedChange ? { followedChange: state.followedChange } : {}),
    ...(follower ? { follower } : {}),
  };
}
