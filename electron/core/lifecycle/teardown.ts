import { driftRestoreLabel, followedCopy, savedCopyWords } from '../../../shared/saved-copy';
import type { LifecycleDeps } from './deps';
import type { StopOptions } from './options';
import type { JournaledOperation, Operation, StepName } from '../../../shared/lifecycle-events';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { CAPTURE_UNIT_NAME } from '../../../shared/capture-unit';
import { captureResolver, isOversize, resolverBytes, restoreResolver, readState, removeState, sameResolver, describeResolverChanges } from '../host/resolver-state';
import { isManagedEntry } from './preflight';
import { originalBack } from '../../../shared/resolver-compare';
import { isGone } from './resolver-gone';
import { driftRoute, GLIBC_DEFAULT_NAMESERVER, glibcResolverText } from '../../../shared/drift-route';
import { keepRiskWords, restoredSilentWords, silentAfterStop } from '../../../shared/drift-default';
import { askTheirNameservers } from './their-nameservers';
import { followFixLine } from '../../../shared/writable-resolver';
import { NO_NAME_RESOLVES } from '../../../shared/step-warn';
import { cliCommand, handResolverWays, resolverFileWays, shellCommand } from '../../../shared/fix';
import { notResolverFileRefusal, resolverOwnerProblem, resolverOwnerRefusal, startRefusesResolverFile } from '../../../shared/network-writer';
import { notResolverFileWords, oversizeResolverWords } from '../../../shared/not-a-file';
import { linkEndNotFile } from '../host/link-end';
import { failed, messageOf } from './errors';
import { StateFileCorruptError, moveStateAside } from '../host/state-store';
import { isK2sWrittenSha, type ResolverStateFile } from '../../../shared/state-file';
import { StepReporter, type EventSink } from './reporter';
import { resolvedActive, restartResolved, revertRoute } from './resolved';
import { writeJournal, JOURNAL_MESSAGE_MAX, type JournalStep } from './journal';
import { isBindMounted, isNoRoomError, noRoomMessage } from '../host/mounts';
import type { HostFs } from '../host/host-fs';
import { OWNED_FILES, ownTempFiles } from './owned-files';
import { FOLLOW_UNIT_PATH } from '../host/follower';
import type { ResolverEntry } from '../../../shared/types';
import type { LifecycleError } from './errors';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { readStartCopy, removeStartCopy } from '../host/start-copy';

/**
 * Removes temp files a killed write left next to our files (owned-files.ts ownTempFiles), nothing
 * else. The caller holds the lifecycle lock, so no write of ours is in flight. Unlink needs no free space.
 * @returns the host paths removed
 */
export async function removeOwnTempFiles(fs: HostFs): Promise<string[]> {
  const removed: string[] = [];
  for (const p of await ownTempFiles(fs)) {
    await fs.remove(p);
    removed.push(p);
  }
  return removed;
}

/** sha256 hex of the bytes of a regular-file entry (null for links and absent). */
function entrySha(entry: ResolverEntry): string | null {
  return entry.kind === 'file' ? createHash('sha256').update(Buffer.from(entry.contentBase64, 'base64')).digest('hex') : null;
}

/** A StepReporter whose steps are journaled (journaledReporter). */
export interface JournaledReporter extends StepReporter {
  /**
   * Settles once every journal write begun so far has landed (start's writes after `save` are
   * not waited for by their own step, see journaledReporter); rejects with the first write's
   * error. Awaited before the journal is cleared, so a late write never brings it back.
   */
  journalWritten(): Promise<void>;
}

/**
 * A reporter whose steps are journaled before they run (crash recovery, journal.ts), each write
 * with the steps that ended so far and their messages (JournalEntry.done). For stop
 * and uninstall a journal that cannot be written for lack of room (full /var/lib) is skipped
 * with a sentence in `notes`: restoring the resolver must never wait for free space.
 *
 * start waits only for its first write, the one before `save` (its first host change): from
 * then on a journal says "start" whichever step it names, and recovery rolls an interrupted
 * start back the same way from any step (recover.ts), so a later step's write only updates the
 * step it names and the steps done. Each such write is begun before its step's `running` event
 * and waited for at the next step (or by journalWritten): one write at a time, in order, and a
 * failed one (ENOSPC) still fails the start — one step later. Writes are atomic renames, each
 * fsync'd (host-fs writeFileAtomic), so after a power loss the journal is one of those written.
 */
export function journaledReporter(deps: LifecycleDeps, op: JournaledOperation, sink: EventSink, notes?: string[]): JournaledReporter {
  const startedAt = new Date(deps.now()).toISOString();
  // Steps that ended, with their messages: each journal write carries them (JournalEntry.done).
  const ended: JournalStep[] = [];
  const record: EventSink = (e) => {
    if (e.type === 'step' && e.status !== 'running') ended.push({ step: e.step, status: e.status, message: e.message.slice(0, JOURNAL_MESSAGE_MAX) });
    sink(e);
  };
  const write = async (step: StepName): Promise<void> => {
    try {
      await writeJournal(deps.fs, { version: 1, op, step, pid: process.pid, startedAt, updatedAt: new Date(deps.now()).toISOString(), ...(ended.length ? { done: [...ended] } : {}) });
    } catch (err) {
      if (op === 'start' || !isNoRoomError(err) || !notes) throw err;
      const why = noRoomMessage(K2S_PATHS.journal, deps.fs.real(K2S_PATHS.journal), (err as NodeJS.ErrnoException).code, await deps.mountinfo().catch(() => ''), `run k2s-dns ${op} again if it is interrupted`);
      if (!notes.some((n) => n.startsWith('Went on without'))) notes.push(`Went on without the crash journal: ${why}`);
    }
  };
  // The write in flight (start only); never rejects: its error is kept for the next await.
  let pending: Promise<unknown> = Promise.resolve(null);
  const waitPending = async (): Promise<void> => {
    const err = await pending;
    if (err !== null) throw err;
  };
  // A later write refused for lack of room fails the start as NO_SPACE naming the journal and its
  // filesystem: its error comes one step later, and a bare ENOSPC there blamed that step (config,
  // which writes nothing in the state directory). save's own stays the bare error (start.ts
  // makes it the "Nothing was changed" refusal).
  const startWrite = (step: StepName): Promise<void> =>
    write(step).catch(async (err: unknown) => {
      if (step === 'save' || !isNoRoomError(err)) throw err;
      throw failed('NO_SPACE', noRoomMessage(K2S_PATHS.journal, deps.fs.real(K2S_PATHS.journal), (err as NodeJS.ErrnoException).code, await deps.mountinfo().catch(() => ''), 'start again'));
    });
  const reporter = new StepReporter(op, record, () => deps.now(), async (step) => {
    if (step === 'preflight') return;
    if (op !== 'start') return write(step);
    await waitPending();
    pending = startWrite(step).then(() => null, (err: unknown) => err ?? new Error('journal write failed'));
    if (step === 'save') await waitPending();
  });
  return Object.assign(reporter, { journalWritten: waitPending });
}

/**
 * stop-service's line for a proxy found not active after the network follower was SIGKILLed in a
 * follow that did not end within `killedAfterMs` (StopOptions.followKilledAfterMs): the proxy was
 * in that follow's restart of it (stopping, or not yet started again), not stopped before this
 * stop — nor surely down: a restart held in its stop phase still answers (systemd's
 * "deactivating").
 */
export function stoppedInKilledFollow(killedAfterMs: number): string {
  return `k2s-dnsproxy was being restarted by the network follower as this stop began (a follow not done within ${killedAfterMs / 1000} s, its process killed with SIGKILL); it is stopped now.`;
}

/**
 * The steps of stop/uninstall without lock or journal cleanup: restore → stop-service →
 * (uninstall) remove-files. Idempotent, so recovery of any interrupted operation reuses it.
 * Throws LifecycleError when the resolver cannot be restored (the proxy is then left running).
 * `afterProxy` runs inside stop-service alongside the proxy's stop, given that stop's promise, and
 * ends what it stops only once that has fulfilled (stop's capture companion: its processes are
 * read meanwhile, and its drain then ends at once with no more traffic), so that step's time
 * covers it; the step ends once both have. `captureAfter`: the proxy's stop leaves the capture
 * unit to afterProxy (ServiceManager.stop captureAfter; stop on systemd).
 */
export async function teardownSteps(deps: LifecycleDeps, op: Operation, opts: StopOptions, r: StepReporter, afterProxy?: (proxyStopped: Promise<void>) => Promise<void>, captureAfter = false): Promise<TeardownOutcome> {
  // The proxy's state for stop-service's message (its PID), read while the resolver is restored
  // (a `systemctl show` less on stop's path); its error, if any, is that step's, as before.
  const serviceBefore = deps.services.status();
  serviceBefore.catch(() => undefined);
  const read = await readStateOrSalvage(deps);
  const { corrupt } = read;
  const notes: string[] = [];
  // The follower's own stop after K2s's `k2s uninstall` removed the state file: the state it held.
  const held = !read.state && !corrupt && opts.byFollower && opts.heldState ? opts.heldState : null;
  const state = read.state ?? held;
  if (held) notes.push(`The saved state was removed by another program (K2s's own \`k2s uninstall\` does this); the network follower held it (saved at ${held.savedAt}) and this stop used it.`);
  // Set when an explicit --on-drift keep kept a file that gives host apps no nameserver that answers.
  let noDns: string | null = null;
  // Set when their file was kept (--on-drift keep): its nameservers were never checked by start.
  let keptTheirs = false;
  // Set when the kept file is one a user could write: the warning's message (TeardownOutcome.keptWritable).
  let keptWritable: string | null = null;
  // The file from before Start (host/start-copy.ts): read only while the saved copy is a followed one.
  const startCopy = state?.followedChange ? await readStartCopy(deps.fs).catch(() => null) : null;
  const wantStart = opts.restore === 'start' && startCopy !== null && state !== null && !sameResolver(startCopy.resolvConf, state.resolvConf);
  if (opts.restore === 'start' && state?.followedChange && !startCopy) notes.push(`No file from before Start is kept (${K2S_PATHS.startCopy} is missing or unreadable), so --restore start puts back the saved original.`);
  // What a restore puts back: the saved original, or with --restore start the file from before Start.
  const target = wantStart && startCopy ? startCopy.resolvConf : state?.resolvConf;
  // The file as it is, read three times below (before, right before the rename, after). Without
  // lsattr: nothing here reads the immutable flag (sameResolver and describeResolverChanges leave
  // it out; a flag that refuses the rename fails restoreResolver with its fix), and none of these
  // reads is saved — two lsattr processes less on stop's path (issue #21).
  const readNow = () => captureResolver(deps.fs, deps.exec, { immutableFlag: false });
  await r.run('restore', 'Restoring the saved /etc/resolv.conf', async () => {
    const top = await deps.fs.lstat(K2S_PATHS.resolvConf);
    const kind = top?.kind;
    if (state && (kind === 'dir' || kind === 'other')) {
      // rename(2) of a file over a directory fails (EISDIR), and what is inside is not ours to
      // delete. Keep the saved original and the proxy: with no readable resolv.conf glibc asks
      // 127.0.0.1 (resolv.conf(5)), so the host keeps resolving through the proxy meanwhile.
      throw failed('RESOLV_CONF_NOT_FILE', `/etc/resolv.conf became ${notResolverFileWords({ kind, ...(top?.special ? { special: top.special } : {}) })} while K2s ran, so the saved original cannot be put back over it; the saved original is kept in ${K2S_PATHS.stateFile} and k2s-dnsproxy keeps running. Move it away (${shellCommand('mv /etc/resolv.conf /etc/resolv.conf.moved', true)}), then run ${cliCommand(op, true)} again.`);
    }
    const current = await readNow();
    if (!state && corrupt) {
      // Nothing readable to restore from: keep the bytes for the user (moved aside), keep the
      // proxy for the K2s-owned file that still points at it, and say what to do by hand.
      const aside = await setAside(deps);
      if (isManagedEntry(current)) {
        throw failed('STATE_CORRUPT', `${corrupt.path} is corrupt (${corrupt.problem}) and holds no readable original resolver; ${aside} /etc/resolv.conf is still K2s-owned and k2s-dnsproxy keeps running for it. Write your own resolv.conf back by hand (${handResolverWays()}), then run ${cliCommand(op, true)} again.`);
      }
      notes.push(`${corrupt.path} was corrupt (${corrupt.problem}); ${aside} /etc/resolv.conf was not K2s-owned, so it was left as it is.`);
      return { value: undefined, message: `The saved state was corrupt; ${aside}` };
    }
    if (!state) {
      if (isManagedEntry(current)) {
        throw failed('NO_SAVED_ORIGINAL', `/etc/resolv.conf is K2s-owned but no saved original exists at ${K2S_PATHS.stateFile}; write your own resolv.conf back by hand (${handResolverWays()}), then run ${cliCommand('stop', true)}.`);
      }
      return { value: undefined, message: 'Nothing was saved: the resolver is not K2s-owned; left as it is.' };
    }
    let message: string;
    const managed = isManagedEntry(current);
    // Their file may name only the proxy (no nameserver line, or 127.0.0.1: shared/drift-route.ts):
    // with it stopped nothing answers there. Kept without an explicit choice, the host would
    // have no DNS and the only saved copy would be gone, so the default then is to restore.
    // As glibc reads it (a line ends at a NUL: shared/drift-route.ts glibcResolverText).
    const currentBytes = resolverBytes(current);
    const text = currentBytes === null ? null : glibcResolverText(currentBytes);
    const route = managed || text === null ? null : driftRoute(text, state.listeners.map((l) => l.address));
    // A link that ends at a directory or FIFO gives host apps no nameserver either: the same rule.
    const linkEnd = current.kind === 'symlink' && !current.dangling && current.targetContentBase64 === null ? await linkEndNotFile(deps.fs, K2S_PATHS.resolvConf) : null;
    const linkEndWords = linkEnd && current.kind === 'symlink' ? `a symlink → ${current.target}, which is ${notResolverFileWords(linkEnd)}` : null;
    // A file over the bound (64 KiB) was read only that far: no resolver file, the same rule.
    const oversizeWords = !managed && isOversize(current) ? `${current.kind === 'symlink' ? `a symlink → ${current.target} to ` : ''}${oversizeResolverWords((await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null))?.size)}` : null;
    // A file the follower refuses for its owner or mode (status.driftOwnerRefusal, the drift
    // banner's `refused` risk in shared/drift-default.ts): keeping it hands the host's DNS to
    // whoever can write it, so the default is to restore, as the banner's.
    const ownerOf = managed || isGone(current) || text === null ? null : current.kind === 'file' ? current : await deps.fs.stat(K2S_PATHS.resolvConf).catch(() => null);
    const ownerRefusal = ownerOf ? resolverOwnerRefusal(ownerOf) : null;
    // No resolver file at all (not text, not UTF-8, a line that is no resolv.conf(5) directive:
    // shared/network-writer.ts notResolverFileRefusal, the banner's `not-resolver` risk): the
    // follower refused it and start would refuse to save it, so the default is to restore too.
    const bytes = managed || isGone(current) || oversizeWords !== null ? null : resolverBytes(current);
    const fileRefusal = bytes ? notResolverFileRefusal(bytes) : null;
    const fileRisk = route?.keepLeavesNone === true || linkEndWords !== null || oversizeWords !== null || ownerRefusal !== null || fileRefusal !== null;
    // The drift default's one rule, as the banner and status's fix apply it (shared/drift-default.ts
    // silentAfterStop): no nameserver of their file would answer once K2s DNS is stopped (its own
    // listeners count as silent, the others are asked now).
    // The saved original put back by someone else (K2s's own `k2s stop` restores it from the
    // state file's K2s members, host/k2s-cli-state.ts), only its mode or owner other than saved
    // (K2s's umask, root as owner): no drift to judge, the saved metadata goes back on.
    const back = !managed && !wantStart && originalBack(current, target ?? state.resolvConf);
    const silentWhy = opts.onDrift === undefined && !fileRisk && route && !wantStart && !back ? silentAfterStop(await askTheirNameservers(route.nameservers, state.listeners.map((l) => l.address), (q) => deps.query(q))) : null;
    const restoreByDefault = opts.onDrift === undefined && (fileRisk || silentWhy !== null);
    // A K2s-owned file someone edited (header kept) is drift too: never dropped silently.
    const edited = managed && state.managedResolvConfSha256 !== null && !isK2sWrittenSha(state, entrySha(current));
    const putBack = target ?? state.resolvConf;
    // What is at /etc/resolv.conf once the saved file is back (or already was): checked below for a
    // file that leaves no name resolving. Stays null when their file is kept (that branch says it).
    let putBackNow: ResolverEntry | null = null;
    if (sameResolver(current, putBack)) {
      message = wantStart ? 'The resolver is already the file from before Start.' : 'The resolver is already the saved original.';
      putBackNow = current;
    } else if (isBindMounted(deps.fs.real(K2S_PATHS.resolvConf), await deps.mountinfo())) {
      // rename(2) over a mount point fails (EBUSY); discarding the saved original now would
      // leave `nameserver 127.0.0.1` underneath once it is unmounted. Keep everything running.
      throw failed('BIND_MOUNTED', `/etc/resolv.conf became a bind mount while K2s ran, so it cannot be replaced; the saved original is kept in ${K2S_PATHS.stateFile} and k2s-dnsproxy keeps running for the K2s-owned file underneath. Unmount it (umount /etc/resolv.conf), then run ${cliCommand(op, true)} again.`);
    } else if (managed || back || opts.onDrift === 'restore' || restoreByDefault || isGone(current) || (wantStart && opts.onDrift !== 'keep')) {
      // Deleted, or a link to nothing: not a resolver someone chose to keep — put the original back.
      const drifted = !managed && !isGone(current);
      // A network write may land after the read above (not the follower's: stop holds the lock,
      // and ends the follower first without one): read again (lstat + bytes) right before the
      // rename. A newer file that is not K2s's own is what the current network wants; putting the
      // saved original over it would lose it.
      const latest = await readNow();
      if (!sameResolver(latest, current) && !isManagedEntry(latest) && !isGone(latest)) {
        message = `Another program wrote a new /etc/resolv.conf while K2s DNS was stopping (${describeResolverChanges(state.resolvConf, latest).join('; ')} against the original saved at ${state.savedAt}); kept it, the network's newest file, instead of restoring the saved original over it.`;
        notes.push(message);
        message += await undoResolved(deps, state);
        return { value: undefined, message };
      }
      await restoreOrExplain(deps, putBack, op);
      const after = await readNow();
      if (!sameResolver(after, putBack)) {
        throw failed('RESTORE_MISMATCH', `After restore /etc/resolv.conf still differs from the ${wantStart ? 'file from before Start' : 'saved original'} (${describeResolverChanges(putBack, after).join('; ')}); it is kept in ${wantStart ? K2S_PATHS.startCopy : K2S_PATHS.stateFile}.`);
      }
      putBackNow = after;
      if (wantStart && startCopy) {
        message = `Restored the file from before Start (saved at ${startCopy.savedAt}), byte for byte, instead of ${followedWords(state) ?? 'the saved copy'} (--restore start)${drifted ? '; the file someone else wrote there was replaced' : ''}.`;
        notes.push(message);
      } else if (isGone(current)) {
        message = `/etc/resolv.conf had been ${current.kind === 'symlink' ? `replaced by a dangling symlink (→ ${current.target})` : 'deleted'} while K2s ran; restored the original saved at ${state.savedAt}, byte for byte.`;
        notes.push(message);
      } else if (back) {
        message = `The original saved at ${state.savedAt} was back at /etc/resolv.conf already, put there by another program (K2s's own \`k2s stop\` and \`k2s uninstall\` do this), with ${describeResolverChanges(putBack, current).join('; ')}; set as saved.`;
        notes.push(message);
      } else if (edited) {
        message = `The K2s-owned /etc/resolv.conf had been edited while K2s ran (${describeResolverChanges(state.resolvConf, current).join('; ')} against the original; the K2s header was kept, so it still pointed at the proxy); restored the original saved at ${state.savedAt} and dropped that edit.`;
        notes.push(message);
      } else {
        // After a follow the saved copy is the network's newest file K2s adopted (follow.ts), not
        // the one from before start: say which file it is, never "back as it was".
        const followed = followedWords(state);
        // The choice named as the banner's button and status's health line name it (walk 11 L6:
        // "Restore the saved file from 02:23:15" before, "Restore my original" after).
        message = drifted
          ? `Someone else had changed /etc/resolv.conf; restored ${followed ?? `the original saved at ${state.savedAt}`} anyway, byte for byte (${restoreChoiceLabel(state)}).`
          : followed
            ? `Restored ${followed}, byte for byte.`
            : putBack.kind === 'absent'
              ? `Removed K2s DNS's /etc/resolv.conf: the original saved at ${state.savedAt} was no file (/etc/resolv.conf did not exist then), so none was put back.`
              : `Restored the original saved at ${state.savedAt}, byte for byte.`;
        // Their file was replaced: the result says so, never "back as it was" alone (walk 9 L5:
        // the sandbox's Ctrl-C stop over a drift printed only that). A default restore below says it in its own words.
        if (followed || (drifted && !(restoreByDefault && !wantStart))) notes.push(message);
      }
      // Restored by default over their file, and why (with --restore start the sentence above already says it).
      const byDefault = drifted && restoreByDefault && !wantStart && !back;
      if (byDefault && oversizeWords) {
        // Never copied (it is never read whole): say what was replaced and how large it was.
        message = `Someone else had replaced /etc/resolv.conf by ${oversizeWords}. It was not kept and not copied: the original saved at ${state.savedAt} was restored over it, byte for byte (--on-drift keep would have kept theirs).`;
        notes.push(message);
      } else if (byDefault && linkEndWords) {
        message = `Someone else had replaced /etc/resolv.conf by ${linkEndWords}. Keeping their file would give host apps no nameserver, so the original saved at ${state.savedAt} was restored, byte for byte (--on-drift keep would have kept theirs).`;
        notes.push(message);
      } else if (byDefault && fileRefusal) {
        message = `Someone else had changed /etc/resolv.conf. ${keepRiskWords({ kind: 'not-resolver', reason: fileRefusal, leavesNone: route?.keepLeavesNone === true }, route)} So the original saved at ${state.savedAt} was restored, byte for byte (--on-drift keep would have kept theirs).`;
        notes.push(message);
      } else if (byDefault && route?.keepLeavesNone) {
        message = `Someone else had changed /etc/resolv.conf, but ${route.implicit ? 'their file has no nameserver line (glibc then asks 127.0.0.1, K2s DNS\'s own)' : `their file names no nameserver but K2s DNS's own (${route.nameservers.join(', ')})`}. Keeping their file would leave this host with no nameserver that answers once the proxy stops, so the original saved at ${state.savedAt} was restored, byte for byte (--on-drift keep would have kept theirs).`;
        notes.push(message);
      } else if (byDefault && ownerRefusal) {
        // Their file is gone once the original is back: its reason without the rule's fix (`chmod
        // o-w` on a file stop replaced no longer applies; walk 10 L2).
        const problem = ownerOf ? resolverOwnerProblem(ownerOf) : null;
        message = `Someone else had changed /etc/resolv.conf. K2s DNS did not follow their file: it was ${problem ?? 'a file a user could write'}, and K2s follows no file a user could write; keeping it would have let whoever can write it choose this host's DNS. So the original saved at ${state.savedAt} was restored, byte for byte (--on-drift keep would have kept theirs).`;
        notes.push(message);
      } else if (byDefault && silentWhy) {
        message = restoredSilentWords(silentWhy);
        notes.push(message);
      }
    } else {
      keptTheirs = true;
      // A file a user could write, kept on request: a warning with its fix (walk 11 L8), the follower's owner rule.
      const problem = ownerOf ? resolverOwnerProblem(ownerOf) : null;
      const fix = ownerOf ? followFixLine(ownerOf) : null;
      if (problem && fix) keptWritable = `The kept /etc/resolv.conf is ${problem}: whoever may write it can choose this host's DNS, and a start would save it as your original as it is (warning RESOLV_CONF_WRITABLE). Fix it with \`${fix}\`.`;
      const changes = describeResolverChanges(state.resolvConf, current);
      const followed = followedWords(state);
      message = `Kept the /etc/resolv.conf someone else wrote while K2s ran (${changes.join('; ')}); ${followed ? `the saved copy (${followed})${startCopy ? ' and the file from before Start' : ''}` : 'the copy saved at start'} ${followed && startCopy ? 'were' : 'was'} discarded.`;
      // Kept on an explicit --on-drift keep: the result must say nothing answers, not just "stopped".
      if (linkEndWords) {
        message += ` ${NO_NAME_RESOLVES}: /etc/resolv.conf is ${linkEndWords}, so host apps get no nameserver from it; put a resolver file there (${resolverFileWays()}).`;
        noDns = `the kept /etc/resolv.conf is ${linkEndWords}`;
      } else {
        if (route?.keepLeavesNone) {
          message += ` ${NO_NAME_RESOLVES}: nothing answers on ${route.nameservers.map((n) => `${n}:53`).join(' and ')} (${route.implicit ? 'the kept file has no nameserver line, so glibc asks 127.0.0.1' : `the kept file lists only ${route.nameservers.join(', ')}`}); put a nameserver that answers into /etc/resolv.conf (${resolverFileWays()}).`;
          noDns = `the kept /etc/resolv.conf sends host apps to ${route.nameservers.map((n) => `${n}:53`).join(' and ')}, where nothing answers once k2s-dnsproxy is stopped`;
        }
        // A kept file start will not save (shared/network-writer.ts startRefusesResolverFile) is said with the way out.
        const startRefusal = bytes ? startRefusesResolverFile(bytes) : null;
        if (startRefusal) message += ` The kept file ${startRefusal.replace(/^the new file /, '')}, so ${cliCommand('start', true)} refuses to save it as the original: replace it with a resolver file first (${resolverFileWays()}).`;
      }
      notes.push(message);
    }
    // The file put back may itself leave no name resolving: no file at all (absent at start, and
    // saved so with --upstream), a link to nothing, or a file whose nameservers are only the
    // stopped proxy's (no nameserver line: glibc asks 127.0.0.1). Done as asked, yet said as a
    // stop that kept such a file is: NO_NAME_RESOLVES here, RESOLVER_DOWN and exit 5 in stop.ts
    // (walk 10 M5: stop said "back as it was" and exited 0).
    const none = putBackNow ? restoredLeavesNone(putBackNow, state.listeners.map((l) => l.address)) : null;
    if (none) {
      const told = notes.length > 0 && notes[notes.length - 1] === message;
      message += ` ${NO_NAME_RESOLVES}: ${none}; put a resolver file there (${resolverFileWays()}).`;
      if (told) notes[notes.length - 1] = message;
      else notes.push(message);
      noDns = none;
    }
    message += await undoResolved(deps, state);
    return { value: undefined, message };
  });
  let stoppedProxy: number | true | null = null;
  await r.run('stop-service', 'Stopping k2s-dnsproxy', async () => {
    const before = await serviceBefore;
    if (before.running) stoppedProxy = before.pid ?? true;
    // captureAfter: the capture is not in the proxy's stop job; afterProxy ends it (ServiceManager.stop).
    const stopOpts = { ...(opts.byFollower ? { leaveFollower: true } : {}), ...(captureAfter ? { captureAfter: true } : {}) };
    const proxyStopped = deps.services.stop(Object.keys(stopOpts).length ? stopOpts : undefined);
    const after = afterProxy?.(proxyStopped);
    try {
      await proxyStopped;
    } finally {
      // Also after a failed proxy stop: afterProxy then ends nothing, and is done before the step fails.
      await after;
    }
    return { value: undefined, message: before.running ? `Stopped k2s-dnsproxy${before.pid ? ` (PID ${before.pid})` : ''}.` : opts.followKilledAfterMs !== undefined ? stoppedInKilledFollow(opts.followKilledAfterMs) : 'k2s-dnsproxy was not running.' };
  });
  // The original is back: only now may the saved copy go (a corrupt one is moved aside, never deleted).
  if (corrupt && state) notes.push(`${corrupt.path} was corrupt (${corrupt.problem}); restored the original it still held; ${await setAside(deps)}`);
  else if (!corrupt) await removeState(deps.fs);
  // The file from before Start goes with the state: an undo of this run only.
  await removeStartCopy(deps.fs);
  const temps = await removeOwnTempFiles(deps.fs);
  if (temps.length) notes.push(`Removed temp files a killed write had left: ${temps.join(', ')}.`);
  if (op === 'uninstall') {
    await r.run('remove-files', 'Removing K2s-owned DNS files', async () => {
      const removed: string[] = [];
      const kept: string[] = [];
      for (const f of OWNED_FILES) {
        if (f === K2S_PATHS.journal) continue; // the journal goes last, when the operation ends
        if (await deps.fs.lstat(f)) {
          // Never delete through a symlinked directory (e.g. /var/log/dnsproxy → elsewhere): the
          // file there is not ours to remove; say so instead.
          if ((await deps.fs.lstat(path.posix.dirname(f)))?.kind === 'symlink') {
            kept.push(f);
            continue;
          }
          await deps.fs.remove(f);
          removed.push(f);
        }
      }
      if (deps.services.kind === 'systemd' && [K2S_PATHS.unit, K2S_PATHS.lateUnit, K2S_PATHS.routeUnit, FOLLOW_UNIT_PATH, K2S_PATHS.captureUnit].some((u) => removed.includes(u))) {
        // Through the manager's reload (systemd-reload.ts): the reload stop's settle would launch after the result is this one.
        await (deps.services.reload ? deps.services.reload.reloadNow().catch(() => undefined) : deps.exec.run('systemctl', ['daemon-reload'], { timeoutMs: 15_000 }));
        // A capture unit left failed (its companion killed mid-drain after a stop: Result=signal)
        // stays loaded as failed with no file until reset (systemctl(1) reset-failed): not ours to leave.
        if (removed.includes(K2S_PATHS.captureUnit)) await deps.exec.run('systemctl', ['reset-failed', `${CAPTURE_UNIT_NAME}.service`], { timeoutMs: 15_000 }).catch(() => undefined);
      }
      const keptText = kept.length ? ` Left ${kept.join(', ')}: its directory is a symlink, so the file is not one k2s-dns wrote there; remove the link by hand.` : '';
      return { value: removed, message: `${removed.length ? `Removed ${removed.join(', ')}.` : 'No K2s-owned DNS files were left.'}${keptText}`, detail: { removed, kept } };
    });
  }
  return { notes, hadState: state !== null, stoppedProxy, noDns, leftUnverified: keptTheirs || (state?.followedChange != null && !wantStart), keptWritable };
}

/**
 * Why the file a stop put back (`entry`, as it is now) leaves no name resolving once the proxy at
 * `listenerAddresses` stops, as a clause for NO_NAME_RESOLVES and RESOLVER_DOWN; null when it names
 * a nameserver other than the proxy's. No file, or a link to nothing, is read by glibc as one with
 * no nameserver line: it asks 127.0.0.1:53 (resolv.conf(5)), the proxy's listener (shared/drift-route.ts).
 */
export function restoredLeavesNone(entry: ResolverEntry, listenerAddresses: readonly string[]): string | null {
  if (isGone(entry)) {
    const what = entry.kind === 'symlink' ? `is a dangling symlink (→ ${entry.target})` : 'does not exist';
    return `/etc/resolv.conf ${what}, and with no file glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53 (resolv.conf(5)), where nothing answers once k2s-dnsproxy is stopped`;
  }
  const text = entry.kind === 'file' ? Buffer.from(entry.contentBase64, 'base64').toString('utf8') : entry.kind === 'symlink' && entry.targetContentBase64 != null ? Buffer.from(entry.targetContentBase64, 'base64').toString('utf8') : null;
  if (text === null || isManagedEntry(entry)) return null;
  const route = driftRoute(text, listenerAddresses);
  if (!route.keepLeavesNone) return null;
  return `the restored /etc/resolv.conf ${route.implicit ? `has no nameserver line, so glibc asks ${GLIBC_DEFAULT_NAMESERVER}:53` : `lists only ${route.nameservers.join(', ')}`} (resolv.conf(5)), where nothing answers once k2s-dnsproxy is stopped`;
}

/**
 * What teardownSteps leaves for the result: `notes`, sentences the result message must carry;
 * `hadState`, true when K2s DNS had saved a resolver (it ran); `noDns`, when an explicit
 * `--on-drift keep` kept, or the restore put back (restoredLeavesNone), a file that leaves no name resolving on this host (a dangling or
 * non-file link end, or only loopback nameservers where the stopped proxy listened: the restore
 * step's NO_NAME_RESOLVES sentence), why in a clause such as "the kept /etc/resolv.conf sends
 * host apps to 127.0.0.1:53, where nothing answers once k2s-dnsproxy is stopped"; else null.
 */
export interface TeardownOutcome {
  notes: string[];
  hadState: boolean;
  /**
   * The proxy this teardown stopped (it ran before): its PID, or true when none was known; null
   * when it was not running. With no saved state it ran without one (its original written back
   * by hand after a corrupt state file, walk 23): a result must not say it was not running.
   */
  stoppedProxy: number | true | null;
  noDns: string | null;
  /**
   * True when the file left in /etc/resolv.conf is not the original whose nameservers start
   * checked (UPSTREAM_UNVERIFIED): their file kept, or a copy the network follower saved while
   * K2s DNS ran. stop asks its nameservers then (resolver-down-check.ts); the common stop, which
   * puts back start's own original, pays no probe (issue #21: stop near its floor).
   */
  leftUnverified: boolean;
  /**
   * When `--on-drift keep` kept a file a user could write (the follower's owner rule,
   * shared/network-writer.ts resolverOwnerProblem): the warning KEPT_RESOLV_CONF_WRITABLE's
   * message, with the fix through shared/fix.ts shellCommand (walk 11 L8: stop said only "mode
   * 0644 → 0666"); else null.
   */
  keptWritable: string | null;
}

/**
 * After the resolver is restored: drops K2s's routing-only link (`resolvectl revert`), removes
 * the global drop-in earlier versions wrote, and restarts systemd-resolved where it runs —
 * resolved keeps the servers and search domains it read from the K2s-owned (foreign) file even
 * after its own file is back (it skips reading its own file), so only a restart makes
 * `resolvectl status` what it was. Runtime link settings of other programs (NetworkManager's)
 * survive the restart (/run/systemd/resolve/netif/). Returns a sentence for the step message.
 */
async function undoResolved(deps: LifecycleDeps, state: ResolverStateFile): Promise<string> {
  const done: string[] = [];
  // First the file k2s-dnsproxy-resolved re-applies the route from: once it is gone, an address
  // event in between cannot bring the route back after the revert.
  if (await deps.fs.lstat(K2S_PATHS.routeFile)) await deps.fs.remove(K2S_PATHS.routeFile);
  if (state.resolvedRoute && deps.services.kind === 'systemd') {
    await revertRoute(deps.exec, state.resolvedRoute.link);
    done.push(`dropped the systemd-resolved route for ${state.resolvedRoute.domains.join(' ')} on ${state.resolvedRoute.link}`);
  }
  const legacy = state.resolvedDropIn || (await deps.fs.lstat(K2S_PATHS.resolvedDropIn)) !== null;
  if (legacy) {
    await deps.fs.remove(K2S_PATHS.resolvedDropIn);
    done.push(`removed ${K2S_PATHS.resolvedDropIn}`);
  }
  if ((state.resolvedRoute || legacy) && (await resolvedActive(deps))) {
    await restartResolved(deps);
    done.push('restarted systemd-resolved');
  }
  return done.length ? ` ${done.join('; ').replace(/^./, (c) => c.toUpperCase())}.` : '';
}

/**
 * "the file NetworkManager wrote at 23:41:07 UTC (followed while K2s DNS ran)" when the saved
 * resolver is one a follow adopted (state.lastNetworkChange, outcome followed, at === savedAt);
 * null when the saved copy is still the one from start.
 */
function followedWords(state: ResolverStateFile): string | null {
  // lastNetworkChange may be a later drift; followedChange is the follow that made the copy.
  const c = followedCopy([state.lastNetworkChange, state.followedChange], state.savedAt);
  return c ? savedCopyWords(c, (ms) => `${new Date(ms).toISOString().slice(11, 19)} UTC`) : null;
}

/**
 * The drift restore's name (shared/saved-copy.ts driftRestoreLabel, over the state's changes):
 * "Restore the saved file from 12:05:00 UTC" after a follow, else "Restore my original". UTC
 * clock, as every backend message; the front ends show it local (shared/clock.ts localTimes).
 */
function restoreChoiceLabel(state: ResolverStateFile): string {
  const view = { networkChange: state.lastNetworkChange ?? null, followedChange: state.followedChange ?? null, savedAt: state.savedAt, startCopy: null };
  return driftRestoreLabel(view, [], false, (ms) => `${new Date(ms).toISOString().slice(11, 19)} UTC`);
}

/**
 * The state file, or — when it is corrupt (StateFileCorruptError) — what could be salvaged from
 * it (its own valid `resolvConf`, else null) together with the error. Unsafe files (symlink,
 * foreign owner) still throw: their content is not trusted at all.
 */
async function readStateOrSalvage(deps: LifecycleDeps): Promise<{ state: ResolverStateFile | null; corrupt: StateFileCorruptError | null }> {
  try {
    return { state: await readState(deps.fs), corrupt: null };
  } catch (err) {
    if (!(err instanceof StateFileCorruptError)) throw err;
    return { state: err.salvaged, corrupt: err };
  }
}

/** Moves the corrupt state file aside; one sentence saying where, or why it stayed in place. */
async function setAside(deps: LifecycleDeps): Promise<string> {
  try {
    return `moved it aside to ${await moveStateAside(deps.fs, deps.now())} (not deleted).`;
  } catch (err) {
    const why = isNoRoomError(err) ? noRoomMessage(K2S_PATHS.stateFile, deps.fs.real(K2S_PATHS.stateFile), (err as NodeJS.ErrnoException).code, await deps.mountinfo().catch(() => ''), `run ${cliCommand('stop', true)} again`) : messageOf(err);
    return `it could not be moved aside and stays at ${K2S_PATHS.stateFile}: ${why}`;
  }
}

/** restoreResolver; a write refused for lack of room becomes NO_SPACE naming the filesystem. */
async function restoreOrExplain(deps: LifecycleDeps, entry: ResolverEntry, op: Operation): Promise<void> {
  try {
    await restoreResolver(deps.fs, entry);
  } catch (err) {
    if (!isNoRoomError(err)) throw err;
    const le: LifecycleError = failed('NO_SPACE', noRoomMessage(K2S_PATHS.resolvConf, deps.fs.real(K2S_PATHS.resolvConf), (err as NodeJS.ErrnoException).code, await deps.mountinfo().catch(() => ''), `run k2s-dns ${op} again (the saved original is kept in ${K2S_PATHS.stateFile})`));
    throw le;
  }
}
