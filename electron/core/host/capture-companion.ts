/**
 * Runs the exact query log's companion (`<entry> capture-watch …`, capture/capture-main.ts) next
 * to the proxy, as root: on systemd hosts the unit k2s-dnsproxy-capture.service, tied to
 * k2s-dnsproxy.service (shared/capture-unit.ts: started with it at boot, stopped and restarted
 * with it); elsewhere a detached keeper shell with a pidfile in /run/k2s that runs it and, like
 * the unit's Restart=on-failure, restarts it when it fails (capture-keeper.ts). Start runs
 * it right after save, so its start-up runs alongside discover, config and the proxy's own start
 * (tcpdump -i any reads the ports whether they listen yet or not) — the pidfile process begun,
 * held, as soon as start holds the lifecycle lock (prepare); stop ends it with the proxy. A
 * followed network's engine restart leaves it running under both (lifecycle/follow.ts restarts
 * it only for new ports).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { relinkUnits, unlinkUnits } from './unit-links';
import { ROOT_WRITTEN_DIRS } from '../../../shared/root-dir-check';
import { CAPTURE_UNIT_NAME, renderCaptureUnit } from '../../../shared/capture-unit';
import { CAPTURE_FAILED_FILE, CAPTURE_FLAGS_FILE, CAPTURE_FLAGS_FILE_FLAG, CAPTURE_HELD_FLAG, CAPTURE_HOLD_FILE, CAPTURE_MISSED_FILE, holdFileText, type CaptureHold, CAPTURE_READY_FILE, PARSER_RUN_PATH, CAPTURE_UNWRITTEN_FILE, CAPTURE_VERB, heldGoLine, isCaptureArgv } from '../capture/capture-args';
import { pidfileProcess, type HeldProcess } from './pidfile-process';
import { CompanionFailed, failedRuns, KEEPER_RESTARTER, READY_TIMEOUT_MS, SYSTEMD_RESTARTER, waitReady, type FailedRuns, type Restarter } from './capture-wait';
import { isNoRestartStatus } from '../../../shared/capture-exit';
import { failedFileText } from '../capture/failed-file';
import { CAPTURE_GO_FILE, CAPTURE_KEEPER_STATE, isKeeperArgv, keeperArgv, parseKeeperState } from './capture-keeper';
import { treeToNormal } from '../capture/go-idle';
import { isCompanion } from '../capture/companion-pid';
import { processStartTime } from '../capture/hold-wait';
import { captureChildren, childrenLeftWords, endCaptureChildren, recordedCaptureChildren, type ChildLeft } from './capture-children';
import { CAPTURE_CHILDREN_FILE, CHILDREN_FILE_MAX_BYTES, parseChildrenFile } from '../capture/children-file';
import { ensureRootDir } from './root-dirs';
import { settledAll, systemdReload, writeUnitFile, type ManagerReload } from './systemd-reload';
import { RESTART_JOB_MODE } from './systemd-service';

/** Host path of the supervised companion's pid. */
export const CAPTURE_PID_FILE = `${K2S_PATHS.runDir}/capture.pid`;
/** Host path of the supervised companion's own output (its start line and its counts). */
export const CAPTURE_LOG = `${K2S_PATHS.runDir}/capture.log`;

/** A companion process started ahead of its flags (CaptureCompanion prepare). */
export interface HeldCompanion {
  /** The program it runs (node, entry, CAPTURE_VERB; capture/capture-program.ts): a start's argv beyond it are its flags. */
  base: readonly string[];
  process: HeldProcess;
}

/** Starts and stops the one capture companion. */
export interface CaptureCompanion {
  /**
   * (Re)starts it with `argv` (capture/capture-program.ts's program — absolute node binary, entry
   * script, CAPTURE_VERB; or the package's launcher, CAPTURE_VERB — then the flags). With
   * `held` (prepare's, same program) that process is let go with the flags instead of a new one
   * started; one that has exited meanwhile is replaced by a new one. Throws with the cause.
   * `abort`: its abort ends the wait for the capture to open — a rollback stops the companion
   * (systemd: the unit, with the proxy, ServiceManager.stop; else its keeper) and then waits for
   * this start, whose ready file can no longer come; the unit's start job itself is always waited for.
   */
  start(argv: string[], held?: HeldCompanion | null, abort?: AbortSignal): Promise<void>;
  /**
   * Starts the companion's process now, before its flags are known, held (CAPTURE_HELD_FLAG):
   * its Node start-up — most of the time start waited for the capture — then runs while start
   * checks the host and saves, and start(argv, held) lets it go. It exits having done nothing
   * when dropped (HeldProcess.drop) or when its starter dies. systemd: the unit restarted, held
   * by the hold file, and only in the cases systemdCapture's prepare says (else it throws).
   */
  prepare?(base: readonly string[]): Promise<HeldCompanion>;
  /**
   * Ends it (it drains the parser first) and removes its failed, ready and missed files; no error
   * when none runs. `stoppedWithProxy`: systemd only, the ServiceManager.stop() just before
   * stopped the proxy without it (captureAfter) and unlinked it, so the companion is sent its
   * SIGTERM here and not waited for: its drain ends after this returns (systemdCapture endLeft).
   * Without systemd, rejects with CaptureChildrenLeft (after removing those files) when a tcpdump
   * or parser of a companion that did not end on SIGTERM could not be ended either
   * (capture-children.ts). `after`: the proxy's stop, begun alongside
   * (stop's stop-service step): the companion's processes are read meanwhile, and nothing is
   * signalled or removed until it has fulfilled, so the drain still begins once no more traffic
   * comes; when it rejects, the companion is left as it was (this stop then does nothing).
   */
  stop(opts?: { stoppedWithProxy?: boolean; after?: Promise<unknown> }): Promise<void>;
}

/** The real directory of the ready and failed files, which start's wait watches (capture-wait.ts). */
const runDirOf = (fs: HostFs) => fs.real(path.posix.dirname(CAPTURE_READY_FILE));

/** The last non-empty line of `text`, '' when none. */
const lastLine = (text: string) => text.trim().split('\n').at(-1)?.trim() ?? '';

/**
 * Runs a companion start; when it fails, leaves CAPTURE_FAILED_FILE saying so
 * (`ISO-TIME the capture did not start: why`) before rethrowing, so status, `queries` and the Logs
 * view keep saying the exact log is not running and why until the next start removes it. A
 * companion that ended with a status nothing restarts it for (CompanionFailed, shared/capture-exit.ts)
 * keeps that status on the file's `exit=` line: the exact log's readers then say it is not restarted.
 */
export async function rememberStartFailure(fs: HostFs, start: () => Promise<void>, now: () => Date = () => new Date()): Promise<void> {
  try {
    await start();
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
    const exit = err instanceof CompanionFailed && isNoRestartStatus(err.exit) ? err.exit! : undefined;
    await fs.writeFileAtomic(CAPTURE_FAILED_FILE, failedFileText(now(), `the capture did not start: ${why}`, exit), { mode: 0o644 }).catch(() => undefined);
    throw err;
  }
}

/** failedRuns over the companion's failed file, for one start whose runs `restarter` restarts (capture-wait.ts). */
const failedRunsIn = (fs: HostFs, restarter: Restarter) => failedRuns(async () => (await fs.readFile(CAPTURE_FAILED_FILE).catch(() => Buffer.from(''))).toString('utf8'), restarter);

export { isCaptureArgv };

/** The companion's argv up to CAPTURE_VERB (node, entry, verb): the program a held one runs. */
function baseOf(argv: readonly string[]): string[] {
  const i = argv.indexOf(CAPTURE_VERB);
  if (i < 0) throw new Error(`not a capture companion's command line: ${JSON.stringify(argv.slice(0, 4))}`);
  return argv.slice(0, i + 1);
}

/** Host path of the capture unit's cgroup process list (cgroup v2, system.slice: as systemd-service.ts UNIT_CGROUP_PROCS). */
export const CAPTURE_CGROUP_PROCS = `/sys/fs/cgroup/system.slice/${CAPTURE_UNIT_NAME}.service/cgroup.procs`;

/**
 * True when CAPTURE_READY_FILE names a pid that is a capture companion: the file of one that is
 * running now, not one a companion killed by SIGKILL left behind.
 */
async function readyFileLive(fs: HostFs, procDir: string): Promise<boolean> {
  return isCompanion(Number((await fs.readFile(CAPTURE_READY_FILE).catch(() => Buffer.from(''))).toString('utf8').trim()), procDir);
}

/** The companion's children supervisedCapture's stop could not end (capture-children.ts): its message names each, its pid and its program. */
export class CaptureChildrenLeft extends Error {
  constructor(readonly left: readonly ChildLeft[]) {
    super(childrenLeftWords(left));
  }
}

/** Sends `sig` to `pid` when it is still a companion (a reused pid is never signalled). */
async function signalCompanion(pid: number | null, sig: NodeJS.Signals, procDir: string): Promise<void> {
  if (pid === null || !(await isCompanion(pid, procDir))) return;
  try {
    process.kill(pid, sig);
  } catch {
    // Gone meanwhile.
  }
}

/**
 * The companion as a detached process (hosts without systemd), run by its keeper
 * (capture-keeper.ts: restarts it on failure, as Restart=on-failure does for the unit, but not
 * after a status of shared/capture-exit.ts). The pidfile names the keeper; the companion's own pid
 * is in its ready file once its capture opened. Start's wait for its capture ends at the ready
 * file, at its failure (capture-wait.ts failedRuns, KEEPER_RESTARTER: its failed file, read at the
 * same wakes; after a first failure it waits on for the keeper's restart, 1 s later; the keeper
 * writes that file itself for a companion that ended before it ran, CAPTURE_SILENT_STATUSES), at
 * the rollback's abort, or after `readyTimeoutMs`; its error then quotes the companion's own words.
 * Stop SIGKILLs, after its keeper and by identity, the tcpdump and parser of a companion that did
 * not end on SIGTERM (capture-children.ts), and those a companion killed with its keeper left to
 * PID 1 (its record, capture/children-file.ts): no cgroup ends them here.
 */
export function supervisedCapture(fs: HostFs, procDir = '/proc', stopWaitMs = 8000, readyTimeoutMs = READY_TIMEOUT_MS): CaptureCompanion {
  // Bounded: the keeper stops the companion, which drains (at most 1.2 s, DRAIN_MAX_MS) and then gives
  // tcpdump and the parser up to 2 s each to end (TERM_GRACE_MS, capture/pipeline.ts): ~5.5 s at worst; 8 s leaves a busy host room.
  const proc = pidfileProcess(fs, { pidFile: CAPTURE_PID_FILE, logFile: CAPTURE_LOG, isOwnArgv: (a) => isKeeperArgv(a) || isCaptureArgv(a), stopWaitMs }, procDir);
  const pidIn = async (file: string, read: (t: string) => number | null) => read((await fs.readFile(file).catch(() => Buffer.from(''))).toString('utf8'));
  // The ready file too: a companion killed (kill -9) left it (capture-stopped.ts reads it as dead).
  const stop = async (opts?: { after?: Promise<unknown> }) => {
    // Whether the proxy's stop fulfilled, taken at once (a rejection is this stop's to handle).
    const proxyStopped = opts?.after?.then(() => true, () => false);
    // The companion's pid, read before the stop: at its SIGTERM it removes its ready file
    // (capture-main.ts), so one still closing when its keeper is killed would not be found after.
    const left = [await pidIn(CAPTURE_READY_FILE, (t) => (/^\d+$/.test(t.trim()) ? Number(t.trim()) : null)), await pidIn(CAPTURE_KEEPER_STATE, (t) => parseKeeperState(t).pid)];
    const companions = (await Promise.all([...new Set(left)].map(async (pid) => ((await isCompanion(pid, procDir)) ? pid : null)))).filter((p): p is number => p !== null);
    // Its tcpdump and parser, read before the SIGTERM too (capture-children.ts): a companion that
    // does not end on it (stopped, hung) is SIGKILLed below, and its children, orphaned, would run on.
    // Its drain at normal priority from the start (go-idle.ts treeToNormal): the group back to nice 0 before the SIGTERM.
    // With the ones the last companion recorded (children-file.ts): killed together with its keeper, it left them to PID 1.
    // Read only as a regular file, never through a link, and its first CHILDREN_FILE_MAX_BYTES (a cut last line is left out).
    const [found, recorded] = await Promise.all([
      captureChildren(companions, procDir, fs.real(PARSER_RUN_PATH)),
      fs.readFileNoFollow(CAPTURE_CHILDREN_FILE, { maxBytes: CHILDREN_FILE_MAX_BYTES }).then((b) => recordedCaptureChildren(parseChildrenFile(b.toString('utf8')), procDir, fs.real(PARSER_RUN_PATH)), () => []),
    ]);
    // Read while the proxy stops (opts.after); the rest once it has stopped, or not at all.
    if (proxyStopped && !(await proxyStopped)) return;
    for (const pid of new Set(left)) await treeToNormal(pid, procDir);
    const children = [...found, ...recorded.filter((r) => !found.some((f) => f.pid === r.pid))];
    await proc.stop();
    // A companion its keeper did not end (the keeper killed, or SIGKILLed after stopWaitMs): ended by its pid.
    for (const pid of new Set(left)) await signalCompanion(pid, 'SIGKILL', procDir);
    // And its children it did not end (none after its own stop: nothing signalled, nothing waited for).
    const unended = await endCaptureChildren(children, procDir);
    await fs.remove(CAPTURE_FAILED_FILE);
    await fs.remove(CAPTURE_READY_FILE);
    // Its drops and its unwritten rows belong to that run: a start without the log (--no-log-queries) must not say them.
    await fs.remove(CAPTURE_MISSED_FILE);
    await fs.remove(CAPTURE_UNWRITTEN_FILE);
    await fs.remove(CAPTURE_KEEPER_STATE);
    await fs.remove(CAPTURE_GO_FILE);
    await fs.remove(CAPTURE_CHILDREN_FILE);
    if (unended.length > 0) throw new CaptureChildrenLeft(unended);
  };
  const prepare = async (base: readonly string[]): Promise<HeldCompanion> => ({
    base: [...base],
    process: await proc.prepare(keeperArgv(fs.real(CAPTURE_PID_FILE), fs.real(CAPTURE_KEEPER_STATE), fs.real(CAPTURE_GO_FILE), [...base, CAPTURE_HELD_FLAG], ROOT_WRITTEN_DIRS.map((d) => fs.real(d.path)), fs.real(CAPTURE_FAILED_FILE), fs.real(CAPTURE_CHILDREN_FILE))),
  });
  return {
    async start(argv, held, abort) {
      // A child left with its SIGKILL pending (uninterruptible sleep) dies as it wakes: no reason to refuse the start.
      await stop().catch((err: unknown) => {
        if (!(err instanceof CaptureChildrenLeft)) throw err;
      });
      await rememberStartFailure(fs, async () => {
        const base = baseOf(argv);
        const line = heldGoLine(argv.slice(base.length));
        const usable = held && !held.process.exited() && held.base.length === base.length && held.base.every((w, i) => w === argv[i]);
        if (!usable) held?.process.drop();
        let keeper = usable ? held.process : (await prepare(base)).process;
        // The keeper's restarts read the same go line (root's file in root's run dir).
        await fs.writeFileAtomic(CAPTURE_GO_FILE, `${line}\n`, { mode: 0o600 });
        await proc.startHeld(keeper, line).catch(async (err: unknown) => {
          // It exited before it was let go (nothing recorded): a new one instead.
          if (!keeper.exited()) throw err;
          keeper = (await prepare(base)).process;
          await proc.startHeld(keeper, line);
        });
        // Waits for the ready file or the companion's failure (its failed file, removed by the stop
        // above); a first failed run: on for the run its keeper restarts (its log says the rest).
        const runs = failedRunsIn(fs, KEEPER_RESTARTER);
        const checks = { isReady: async () => (await fs.lstat(CAPTURE_READY_FILE)) !== null, failed: runs.check, lastWords: async () => runs.last() || lastLine(await readFile(fs.real(CAPTURE_LOG), 'utf8').catch(() => '')) };
        while ((await waitReady(runDirOf(fs), checks, abort, readyTimeoutMs)) === 'retry');
      });
    },
    prepare,
    stop,
  };
}

/**
 * The companion as k2s-dnsproxy-capture.service (systemd hosts). The unit runs `capture-watch
 * --flags-file CAPTURE_FLAGS_FILE` (the same command line from start to start: other ports
 * rewrite that small file, not the unit, so no daemon-reload); start writes the flags (a go line)
 * before the unit's companion reads them. `prepare` restarts the unit before the flags are known,
 * held by the hold file (capture-args.ts CAPTURE_HOLD_FILE, capture/hold-wait.ts): its Node
 * start-up and reads then run while start checks the host, and start(argv, held) writes `go`.
 * Start's wait for its capture ends at the companion's ready file, at its failure
 * (capture-wait.ts failedRuns: its failed file, read at the same wakes; a first failure that a new
 * run may mend restarts it once at once), or after `readyTimeoutMs`; its error then quotes the
 * companion's own words.
 */
export function systemdCapture(fs: HostFs, exec: Exec, procDir = '/proc', reload: ManagerReload = systemdReload(exec), readyTimeoutMs = READY_TIMEOUT_MS): CaptureCompanion {
  const unit = `${CAPTURE_UNIT_NAME}.service`;
  const systemctl = async (args: string[], ok: number[] = [0]) => {
    const r = await exec.run('systemctl', args, { timeoutMs: 60_000 });
    if (r.code === null || !ok.includes(r.code)) throw new Error(`systemctl ${args.join(' ')} failed (${r.stderr.trim() || `exit ${r.code}`}); see "journalctl -u ${unit}".`);
  };
  /** The unit's command line for the program `base`: its flags come from the flags file. */
  const unitArgv = (base: readonly string[]) => [...base, CAPTURE_FLAGS_FILE_FLAG, fs.real(CAPTURE_FLAGS_FILE)];
  /** Writes the unit for `argv` unless it already holds those bytes; true when it wrote. */
  const writeUnit = async (argv: string[]): Promise<boolean> => {
    const written = await writeUnitFile(fs, K2S_PATHS.captureUnit, renderCaptureUnit(argv));
    if (written) reload.unitWritten(unit);
    return written;
  };
  const putHold = (h: CaptureHold) => fs.writeFileAtomic(CAPTURE_HOLD_FILE, holdFileText(h), { mode: 0o644 });
  /**
   * True when the unit runs a capture companion (/proc/PID/cmdline): one of the processes of its
   * cgroup (cgroup v2, read from the kernel: no process spawned on start's path), or, where that
   * file cannot be read, its main process (systemctl show MainPID; 0 while none).
   */
  const heldRunning = async (): Promise<boolean> => {
    const procs = await fs.readFile(CAPTURE_CGROUP_PROCS).then((b) => b.toString('utf8').split('\n').filter(Boolean), () => null);
    if (procs) return (await Promise.all(procs.map((p) => isCompanion(Number(p), procDir)))).includes(true);
    const r = await exec.run('systemctl', ['show', '-P', 'MainPID', unit], { timeoutMs: 10_000 }).catch(() => null);
    return isCompanion(Number(r?.code === 0 ? r.stdout.trim() : ''), procDir);
  };
  /**
   * The last line the unit's current companion wrote to the journal, '' when none: only its own
   * run's (the unit's InvocationID, which journald stamps on every line of the unit's processes
   * as _SYSTEMD_INVOCATION_ID: systemd.exec(5) $INVOCATION_ID, systemd.journal-fields(7)), never
   * a line of the companion before it or systemd's own about the unit. Two processes: asked only
   * once a wait has timed out.
   */
  const ownJournalLine = async (): Promise<string> => {
    const r = await exec.run('systemctl', ['show', '-P', 'InvocationID', unit], { timeoutMs: 10_000 }).catch(() => null);
    const id = r?.code === 0 ? r.stdout.trim() : '';
    if (!/^[0-9a-f]{32}$/.test(id)) return '';
    return lastLine((await exec.run('journalctl', ['--no-pager', '-o', 'cat', '-n', '1', `_SYSTEMD_INVOCATION_ID=${id}`], { timeoutMs: 10_000 }).catch(() => null))?.stdout ?? '');
  };
  /**
   * Waits for the capture of the companion just started or let go (capture-wait.ts), whose failed
   * file this start removed before; `runs` reads that file (failedRuns), this start's failed runs.
   */
  const waitOpen = (abort: AbortSignal | undefined, runs: FailedRuns) =>
    waitReady(runDirOf(fs), { isReady: () => readyFileLive(fs, procDir), failed: runs.check, lastWords: async () => runs.last() || (await ownJournalLine()) }, abort, readyTimeoutMs);
  /**
   * The capture companions in the unit's cgroup (cgroup v2, systemd's system.slice: none when the
   * unit's cgroup is gone, as it is once the unit is inactive); null when that cannot be read.
   */
  const unitCompanions = async (): Promise<number[] | null> => {
    const procs = await fs.readFile(CAPTURE_CGROUP_PROCS).then(
      (b) => b.toString('utf8').split('\n').filter(Boolean).map(Number),
      async (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' && (await fs.lstat(path.posix.dirname(path.posix.dirname(CAPTURE_CGROUP_PROCS)))) ? [] : null),
    );
    return procs && (await Promise.all(procs.map(async (p) => ((await isCompanion(p, procDir)) ? [p] : [])))).flat();
  };
  /**
   * Ends the companion the proxy's stop left running (ServiceManager.stop captureAfter): its group
   * back to nice 0, as the unit's ExecStop= does (capture-unit.ts), then SIGTERM, as systemd's
   * stop would send; not waited for. Its drain (capture-main.ts) then runs after the proxy has
   * stopped, with no more traffic, and it exits 0, which leaves the unit inactive (Restart=on-failure
   * restarts no clean exit); its children, missed and unwritten files go at its end
   * (capture-main.ts), `k2s-dns queries` waits for that end (queries-wait.ts captureDrained), and a
   * start meanwhile restarts the unit once it has stopped. The unit's own stop is queued too
   * (`--no-block`, launched as a detached child where the Exec can: not waited for), so its
   * TimeoutStopSec= still ends a companion that does not end on SIGTERM, a unit waiting out its
   * RestartSec= (no process) is stopped rather than restarted into Requisite='s refusal, and where
   * the cgroup cannot be read, that stop is the one.
   */
  const endLeft = async () => {
    const pids = await unitCompanions();
    for (const pid of pids ?? []) {
      await treeToNormal(pid, procDir);
      await signalCompanion(pid, 'SIGTERM', procDir);
    }
    const args = ['stop', '--no-block', unit];
    if (!exec.launch?.('systemctl', args)) await systemctl(args, [0, 5]);
  };
  /** The companion prepare restarted, held; `restarted` resolves false when its restart failed. */
  let prepared: { held: HeldCompanion; restarted: Promise<boolean>; letGo: boolean } | null = null;
  return {
    async start(argv, held, abort) {
      const base = baseOf(argv);
      // Throws for bad flags, before anything is written.
      const line = heldGoLine(argv.slice(base.length));
      // This start's failed runs of the companion, the held one's and a restart's (capture-wait.ts).
      const runs = failedRunsIn(fs, SYSTEMD_RESTARTER);
      // The one prepare made (start.ts passes it wrapped, so matched by its program, not by identity).
      const mine = held && prepared && !prepared.held.process.exited() && held.base.length === base.length && held.base.every((w, i) => w === base[i]) ? prepared : null;
      // One not used (another program, its restart failed) is replaced by the restart below: no
      // `drop` is written for it, which could land after that restart's removal of the hold.
      if (prepared && prepared !== mine) prepared.letGo = true;
      await writeUnit(unitArgv(base));
      // The flags before the go (or the restart) that makes the companion read them; their
      // directory may not be there yet (the proxy's config, written later, makes it too).
      await ensureRootDir(fs, path.posix.dirname(CAPTURE_FLAGS_FILE), 0o755);
      await fs.writeFileAtomic(CAPTURE_FLAGS_FILE, `${line}\n`, { mode: 0o600 });
      // Three at once: the reset (a unit systemd gave up on, at its start limit, refuses even a
      // start by hand until then); the [Install] WantedBy=k2s-dnsproxy.service link, made on disk
      // in-process (unit-links.ts; stop removes it), so the proxy's start pulls it in at boot; and
      // the manager's question, which a link on disk does not change.
      // The held one's restart had the question (prepare), and the reset when it needed one.
      const link = (async () => {
        if (await relinkUnits(fs, [{ name: unit, file: K2S_PATHS.captureUnit, text: renderCaptureUnit(unitArgv(base)) }], (args) => systemctl(args))) reload.linksChanged();
      })();
      // Its failure is thrown where it is awaited below; until then (the held path awaits the
      // restart and the go first) it must not end the process as an unhandled rejection.
      link.catch(() => undefined);
      // The held one runs the unit as the manager holds it: when that is an older file (asked by
      // start before preflight, ServiceManager.askUnits; ManagerReload.current: no `systemctl show` of
      // its own), the manager reloads and the held one is restarted, still held (the hold file says so
      // until the go below). A held one whose restart failed is replaced below, as before.
      const heldUp = async () => {
        if (!(await mine!.restarted)) return false;
        if (!(await reload.current([unit], { linksFirst: link }).catch(() => true))) return true;
        return systemctl(['restart', RESTART_JOB_MODE, unit]).then(
          () => true,
          () => false,
        );
      };
      if (mine && (await heldUp())) {
        // Dead, or failed in a way a new run may mend: started again below.
        let gone = false;
        await rememberStartFailure(fs, async () => {
          await putHold({ kind: 'go' });
          mine.letGo = true;
          held!.process.letGo(line);
          // The held companion may have died before its go (kill -9, the OOM killer): systemd's
          // own restart of it (Restart=on-failure) then failed on Requisite= — the proxy does not
          // run yet — and nothing would write the ready file waited for (12 s, then
          // CAPTURE_NOT_STARTED). Asked after the go: one alive then has it and goes on its own.
          const [, alive] = await Promise.all([link, heldRunning()]);
          if (!alive) {
            // One that failed for good (a bad flags file: its unit does not restart it) is not
            // started again; a failure it left (tcpdump gone) is the first of this start's runs.
            const f = await runs.check();
            if (f?.retry === false) throw new CompanionFailed(f.why, f.exit);
            gone = true;
            return;
          }
          gone = (await waitOpen(abort, runs)) === 'retry';
        });
        if (!gone) return;
        // Started again below, as a start without a held one does (its hold file removed).
      }
      if (mine) mine.letGo = true;
      // A reload only when the manager holds an older file of it (or this process wrote it); it
      // waits for the link, so it reads it too.
      await settledAll([systemctl(['reset-failed', unit], [0, 1, 5]), link, reload.current([unit], { linksFirst: link }), fs.remove(CAPTURE_HOLD_FILE)]);
      await fs.remove(CAPTURE_READY_FILE);
      await fs.remove(CAPTURE_FAILED_FILE);
      await rememberStartFailure(fs, async () => {
        // Before the proxy runs (start.ts: right after save): Requisite= would refuse this start,
        // RESTART_JOB_MODE ignores it (and a running companion is replaced). The proxy's own start
        // uses the same mode, so PartOf= does not restart this one as the proxy starts
        // (systemd-service.ts). Measured on the booted Debian 13 host (systemd 257): with the
        // proxy inactive, `systemctl start` of the unit fails ("A dependency job … failed"), with
        // this mode it runs; the proxy's start then leaves its PID as it was. A first run that
        // failed is started again the same way at once (runs ends the wait at the next failure):
        // systemd's own restart, 1 s later, is refused by Requisite= while the proxy is not running.
        for (;;) {
          await systemctl(['restart', RESTART_JOB_MODE, unit]);
          if ((await waitOpen(abort, runs)) === 'ready') return;
          await fs.remove(CAPTURE_FAILED_FILE);
        }
      });
    },
    /**
     * Restarts the unit now, its companion held until start(argv, held) (see above). Only while
     * K2s DNS is stopped (no state file: a running capture is never restarted by a start that
     * then finds K2s DNS running) and over the unit file as start writes it (a held start writes
     * no unit and links nothing, so a refused start leaves no file of it behind). Throws
     * otherwise; start then starts the companion after save, as before. Resolves once the hold
     * file is written; the restart runs on.
     */
    async prepare(base) {
      const text = (await fs.readFile(K2S_PATHS.captureUnit).catch(() => null))?.toString('utf8');
      if (text !== renderCaptureUnit(unitArgv(base))) throw new Error('the capture unit is not written for this program yet');
      if ((await fs.lstat(K2S_PATHS.stateFile)) !== null) throw new Error('K2s DNS may be running (its state file is there)');
      // This process, as the companion finds it in /proc (the real one: the holder is this process).
      const startTime = await processStartTime('self');
      if (startTime === null) throw new Error('no /proc/self/stat');
      await fs.mkdirp(K2S_PATHS.runDir, 0o755);
      await putHold({ kind: 'hold', pid: process.pid, startTime });
      await Promise.all([fs.remove(CAPTURE_READY_FILE), fs.remove(CAPTURE_FAILED_FILE)]);
      // The restart at once: the companion's Node start-up is what start then waits for (measured
      // on the booted Debian 13 host: a reset and a question first put the restart ~45 ms later).
      // Again when it was refused (a unit at its start limit: reset first). The manager's question
      // (did it run an older file?) is start's, once start asked it (ServiceManager.askUnits).
      const restarted = (async () => {
        if (await systemctl(['restart', RESTART_JOB_MODE, unit]).then(() => true, () => false)) return;
        await systemctl(['reset-failed', unit], [0, 1, 5]);
        await systemctl(['restart', RESTART_JOB_MODE, unit]);
      })().then(
        () => true,
        () => false,
      );
      let dropped = false;
      let failed = false;
      void restarted.then((ok) => (failed = !ok));
      const held: HeldCompanion = {
        base: [...base],
        process: {
          pid: 0,
          exited: () => dropped || failed,
          // Not let go: `drop` in the hold file, and the held companion exits 0 having done
          // nothing (one not yet started reads it at its start). A kill -9 of start writes
          // nothing: the companion sees its holder gone (hold-wait.ts).
          drop: () => {
            if (dropped || rec.letGo) return;
            dropped = true;
            void putHold({ kind: 'drop' }).catch(() => undefined);
          },
          // start(argv, held) wrote `go` to the hold file before it calls this.
          letGo: () => undefined,
        },
      };
      const rec = { held, restarted, letGo: false };
      prepared = rec;
      return held;
    },
    async stop(opts) {
      // After the proxy's stop (with it, its unit's: PartOf=), never before, nor after a failed one.
      if (opts?.after && !(await opts.after.then(() => true, () => false))) return;
      if (!(await fs.lstat(K2S_PATHS.captureUnit))) return;
      if (opts?.stoppedWithProxy) await endLeft();
      else {
        // As supervisedCapture's stop: the unit's group (the companion leads it) at nice 0 before the SIGTERM.
        const ready = (await fs.readFile(CAPTURE_READY_FILE).catch(() => Buffer.from(''))).toString('utf8').trim();
        await treeToNormal(/^\d+$/.test(ready) ? Number(ready) : null, procDir);
        await systemctl(['stop', unit], [0, 5]);
        // The link goes now; the manager reads it at the command's end (systemd-reload.ts settle).
        // Until then a stale "k2s-dnsproxy wants it" can only pull it in with the proxy, and our
        // start re-links it anyway.
        if (await unlinkUnits(fs, [unit], (args) => systemctl(args))) reload.linksChanged();
      }
      await fs.remove(CAPTURE_FAILED_FILE);
      await fs.remove(CAPTURE_READY_FILE);
      await fs.remove(CAPTURE_HOLD_FILE);
      await fs.remove(CAPTURE_CHILDREN_FILE);
      // As supervisedCapture's stop: the run's drops and unwritten rows are not the next run's.
      await fs.remove(CAPTURE_MISSED_FILE);
      await fs.remove(CAPTURE_UNWRITTEN_FILE);
    },
  };
}
