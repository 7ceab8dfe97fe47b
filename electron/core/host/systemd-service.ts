/** The ServiceManager for systemd hosts: writes the k2s-dnsproxy unit and drives systemctl. */
import path from 'node:path';
import { K2S_PATHS, SERVICE_NAME } from '../../../shared/k2s-paths';
import { FOLLOW_UNIT_NAME, LATE_UNIT_NAME, renderLateListenerUnit, renderUnit } from '../../../shared/systemd-unit';
import { CAPTURE_UNIT_NAME } from '../../../shared/capture-unit';
import { captureUnitState } from '../../../shared/capture-unit-state';
import { FOLLOW_UNIT_PATH } from './follower';
import { renderRouteUnit, ROUTE_UNIT_NAME } from '../../../shared/resolved-route-unit';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { settledAll, systemdReload, writeUnitFile, KNOWN_CURRENT_MS, type ManagerReload } from './systemd-reload';
import { relinkUnits, unlinkUnits } from './unit-links';
import type { RestartedExit, ServiceManager, ServiceRestart, ServiceSpec } from './service-manager';
import { exitReasonFromLog, jobTypeOf, isAutoRestart, lastExitEventFromJournal, lastExitFromJournal, parseUnitRunState, PROCESS_EXIT_MESSAGE_ID, SHOW_PROPERTIES, showProperties, showUnits } from '../../../shared/systemd-show';
import { open } from 'node:fs/promises';
import { LOGROTATE_PATH, openQueryLog, readAdmGid, renderLogrotate, rotateLogIfOver } from './query-log';

const UNIT = `${SERVICE_NAME}.service`;
const LATE_UNIT = `${LATE_UNIT_NAME}.service`;
const ROUTE_UNIT = `${ROUTE_UNIT_NAME}.service`;
const CAPTURE_UNIT = `${CAPTURE_UNIT_NAME}.service`;
/**
 * The units K2s DNS writes besides the proxy's, asked about by askUnits() in one `systemctl show`
 * (one whose file is not there says LoadState=not-found, and a start that writes it reloads for
 * it anyway). Not in status()'s own: systemctl reads every property of each unit it shows
 * (~4 ms a unit on the booted Debian 13 host), and preflight waits for that status.
 */
const OTHER_UNITS = [LATE_UNIT, ROUTE_UNIT, `${FOLLOW_UNIT_NAME}.service`, `${CAPTURE_UNIT_NAME}.service`] as const;
/** systemd-resolved's unit: whether it runs is ActiveState=active, what `systemctl is-active` prints (systemctl(1)). */
const RESOLVED_UNIT = 'systemd-resolved.service';
/**
 * ms for which the one `systemctl show` of askUnits() answers status() and resolvedActive()
 * instead of a process of their own, unless this manager changed a unit since (start's
 * preflight reads them within tens of ms of it, before it changes anything).
 */
export const EARLY_SHOW_MS = 2_000;
/**
 * The job mode of restart() (a followed network: only the proxy's config changed). systemctl(1)
 * `--job-mode=ignore-requirements`: requirement dependencies are ignored for this job, ordering
 * ones still honoured, so PartOf= does not propagate the restart to the companions tied to the
 * proxy (COMPANION_TIE). The exact query log's capture keeps running across the restart — it
 * reads packets on the interfaces, not from the engine's process — so the restart neither waits
 * for its drain (up to 1.2 s, capture/pipeline.ts) nor leaves a gap without capture. Measured on
 * Debian 13 (systemd 257) with a PartOf=/Requisite=/After= companion whose stop takes 1.5 s:
 * `systemctl restart M` 1.6 s and a new companion PID; with this mode 45 ms, the same PID;
 * `systemctl stop M` still stopped it, and its start alone still failed (Requisite=).
 * The KubeSwitch listener is named in the restart, so it restarts as before.
 */
export const RESTART_JOB_MODE = '--job-mode=ignore-requirements';

/** systemctl exit status for "unit not loaded / not found" (LSB "program is not installed"). */
const EXIT_NOT_LOADED = 5;

async function systemctl(exec: Exec, args: string[], okCodes: number[] = [0]) {
  const r = await exec.run('systemctl', args, { timeoutMs: 60_000 });
  if (r.code === null || !okCodes.includes(r.code)) {
    throw new Error(`systemctl ${args.join(' ')} failed (${r.stderr.trim() || `exit ${r.code}`}); see "journalctl -u ${UNIT}" and fix the cause, then retry.`);
  }
  return r;
}

/** The last `bytes` of a file ('' when unreadable: status runs as a user too, the log is root:adm 0640). */
async function logTail(realPath: string, bytes = 16_384): Promise<string> {
  const fh = await open(realPath, 'r').catch(() => null);
  if (!fh) return '';
  try {
    const { size } = await fh.stat();
    const start = Math.max(0, size - bytes);
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    return buf.toString('utf8');
  } finally {
    await fh.close();
  }
}

/** systemd's journal entries of the proxy's process exits (`journalctl -o json`), null when not readable. */
async function journalExits(exec: Exec): Promise<string | null> {
  const r = await exec.run('journalctl', ['--no-pager', '-o', 'json', '-n', '20', '-u', UNIT, `MESSAGE_ID=${PROCESS_EXIT_MESSAGE_ID}`], { timeoutMs: 10_000 }).catch(() => null);
  return r && r.code === 0 ? r.stdout : null;
}

/** How the proxy's last main process ended, from systemd's journal entry of that exit; null when not readable. */
async function journalLastExit(exec: Exec): Promise<string | null> {
  // PID 1 sends the exit entry to journald before it changes the unit's state, but journald may
  // not have stored it yet on a busy host (CI under heavy load: a status read no entry, or the
  // previous attempt's). `journalctl --sync` returns once journald has written everything
  // queued before the call (journalctl(1) --sync), so the read sees this exit. Root only;
  // without it the read below is best effort.
  await exec.run('journalctl', ['--sync'], { timeoutMs: 5_000 }).catch(() => null);
  const out = await journalExits(exec);
  return out === null ? null : lastExitFromJournal(out);
}

/**
 * Host path of the proxy unit's cgroup process list (cgroup v2, systemd's default slice for a
 * system service without Slice=: systemd.special(7) system.slice; the kernel's cgroup-v2 doc,
 * "cgroup.procs").
 */
export const UNIT_CGROUP_PROCS = `/sys/fs/cgroup/system.slice/${UNIT}/cgroup.procs`;

/**
 * The proxy's main process right after its start job: the one process in the unit's cgroup
 * (Type=simple: the job ends once the main process is forked; that process is the directory
 * check's sh, which execs the engine in place, so the PID stays: root-dir-check.ts guardedArgv),
 * read from the kernel, no process spawned — a `systemctl show` on start's path is a fork of the whole CLI
 * (~4–7 ms of its CPU at its size) and ~20 ms on the booted Debian 13 host. Null when the file
 * cannot be read or holds other than one process (an exit meanwhile, the check's stat(1)): then ask the manager.
 */
async function mainFromCgroup(fs: HostFs): Promise<number | null> {
  const pids = (await fs.readFile(UNIT_CGROUP_PROCS).catch(() => Buffer.from(''))).toString('utf8').split('\n').filter(Boolean);
  return pids.length === 1 && /^[1-9]\d*$/.test(pids[0]!) ? Number(pids[0]) : null;
}

/** The unit's MainPID (null: none) and whether it is active, from one `systemctl show` (the properties status() reads). */
async function runState(exec: Exec): Promise<{ pid: number | null; running: boolean }> {
  const r = await exec.run('systemctl', ['show', ...SHOW_PROPERTIES.flatMap((p) => ['-p', p]), UNIT], { timeoutMs: 10_000 });
  if (r.code !== 0) return { pid: null, running: false };
  const s = parseUnitRunState(r.stdout);
  return { pid: s.mainPid !== null && s.mainPid > 0 ? s.mainPid : null, running: s.activeState === 'active' };
}

/**
 * systemd ServiceManager. start: ensure the log exists, write K2S_PATHS.unit (0644) — and, for
 * spec.lateListeners, K2S_PATHS.lateUnit, the KubeSwitch listener that waits for its address;
 * for spec.resolvedRouteFile, K2S_PATHS.routeUnit, which re-applies the systemd-resolved route
 * (else an old companion is disabled and removed) — a `daemon-reload` only when a loaded unit
 * changed (`reload`, systemd-reload.ts), the [Install] links on disk (unit-links.ts; the K2s-owned
 * resolv.conf survives a reboot, so must the proxy; relinking drops the multi-user.target.wants/
 * link earlier versions made for the companions), `restart` (starts it, or applies a new
 * argv/config to a running one); prepareStart begins the reset alongside discover, and the
 * reload question was asked before (askUnits, one `systemctl show` for every K2s unit, whose answer
 * also gives start's preflight its status() and resolvedActive()).
 * stop: stops the proxy, its companions, the capture (not with `captureAfter`: k2s-dns stop ends
 * it after the proxy, capture-companion.ts) and the follower in one job and removes their links (uninstall and recover stopped the follower first: stopFollower's
 * unlinkWithProxy); `reload.settle()` at the end of the command asks the manager to read the
 * changed links, not waited for.
 */
export function createSystemdManager(fs: HostFs, exec: Exec, reload: ManagerReload = systemdReload(exec)): ServiceManager {
  const resetFailed = (units: readonly string[]) => systemctl(exec, ['reset-failed', ...units], [0, 1, EXIT_NOT_LOADED]);
  // The reset prepareStart began, for the next start().
  let asked: { units: readonly string[]; reset: Promise<unknown>; at: number } | null = null;
  // askUnits()'s one show (the proxy's state, every other K2s unit's reload question, whether
  // systemd-resolved runs), for status() and resolvedActive() until this manager changes a unit.
  let earlyShow: { answer: Promise<string | null>; at: number } | null = null;
  /** askUnits()'s output when it is recent, answered, and has `unit`'s block (by Id=); else null. */
  const earlyBlock = async (unit: string): Promise<Map<string, string> | null> => {
    const e = earlyShow && performance.now() - earlyShow.at < EARLY_SHOW_MS ? earlyShow : null;
    const out = e ? await e.answer.catch(() => null) : null;
    return out === null ? null : (showUnits(out).get(unit) ?? null);
  };
  /** The unit files for `spec` written where their bytes changed (noted for the reload); their texts (null: that companion is not used). */
  const writeUnits = async (spec: ServiceSpec) => {
    const unitText = renderUnit(spec); // validate before touching the host
    const lateText = spec.lateListeners ? renderLateListenerUnit(spec) : null;
    const routeText = spec.resolvedRouteFile ? renderRouteUnit(spec.resolvedRouteFile) : null;
    await fs.mkdirp(path.posix.dirname(K2S_PATHS.unit), 0o755);
    for (const [text, file, unit] of [[unitText, K2S_PATHS.unit, UNIT], [lateText, K2S_PATHS.lateUnit, LATE_UNIT], [routeText, K2S_PATHS.routeUnit, ROUTE_UNIT]] as const) {
      if (text && (await writeUnitFile(fs, file, text))) reload.unitWritten(unit);
    }
    return { unitText, lateText, routeText };
  };
  return {
    reload,
    kind: 'systemd',
    async writeUnits(spec) {
      earlyShow = null;
      await writeUnits(spec);
    },
    askUnits() {
      // One process for what start's preflight and its later reload questions ask the manager:
      // each `systemctl` costs ~20 ms of wall on a booted Debian 13 host, three of them side by
      // side on a busy 2-core one more (status(), resolvedActive() and this each ran one).
      const answer = reload.ask([UNIT, ...OTHER_UNITS, RESOLVED_UNIT], SHOW_PROPERTIES);
      answer.catch(() => null);
      earlyShow = { answer, at: performance.now() };
    },
    async resolvedActive() {
      const kv = await earlyBlock(RESOLVED_UNIT);
      if (kv) return kv.get('ActiveState') === 'active';
      const r = await exec.run('systemctl', ['is-active', RESOLVED_UNIT], { timeoutMs: 15_000 }).catch(() => null);
      return r !== null && r.code === 0 && r.stdout.trim() === 'active';
    },
    async prepareStart() {
      // An answer of an earlier start that never reached its service step is not this start's.
      asked = null;
      earlyShow = null;
      // The units a start uses are those whose files are there from an earlier start (the
      // KubeSwitch and resolved companions follow the host, which rarely changes between starts);
      // the first start after install has none and resets in its service step. The manager's
      // question was asked before (askUnits).
      const onDisk = await Promise.all(([[K2S_PATHS.unit, UNIT], [K2S_PATHS.lateUnit, LATE_UNIT], [K2S_PATHS.routeUnit, ROUTE_UNIT]] as const).map(async ([file, unit]) => ((await fs.lstat(file)) ? [unit] : [])));
      const units = onDisk.flat();
      if (!units.includes(UNIT)) return;
      const reset = resetFailed(units);
      reset.catch(() => undefined);
      asked = { units, reset, at: performance.now() };
    },
    async start(spec) {
      earlyShow = null;
      renderUnit(spec); // validate before touching the host
      const lateText = spec.lateListeners ? renderLateListenerUnit(spec) : null;
      const routeText = spec.resolvedRouteFile ? renderRouteUnit(spec.resolvedRouteFile) : null;
      await fs.mkdirp(path.posix.dirname(spec.logFile), 0o755);
      // Private (root:adm 0640) before systemd appends to it; logrotate bounds it (query-log.ts).
      await rotateLogIfOver(fs.real(spec.logFile));
      await (await openQueryLog(fs.real(spec.logFile), await readAdmGid(fs.real('/etc/group')))).close();
      await fs.mkdirp(path.posix.dirname(LOGROTATE_PATH), 0o755);
      await fs.writeFileAtomic(LOGROTATE_PATH, renderLogrotate(spec.logFile), { mode: 0o644 });
      for (const [text, file, unit] of [[lateText, K2S_PATHS.lateUnit, LATE_UNIT], [routeText, K2S_PATHS.routeUnit, ROUTE_UNIT]] as const) {
        if (!text && (await fs.lstat(file))) {
          await systemctl(exec, ['disable', '--now', unit], [0, EXIT_NOT_LOADED]);
          await fs.remove(file);
        }
      }
      const { unitText } = await writeUnits(spec);
      const companions = [...(lateText ? [LATE_UNIT] : []), ...(routeText ? [ROUTE_UNIT] : [])];
      const units = [UNIT, ...companions];
      // The links on disk (unit-links.ts, as `systemctl --root=/ reenable` makes them; the
      // K2s-owned resolv.conf survives a reboot, so must the proxy), made while the proxy
      // restarts and on disk before this step ends — before activate points the host at it, so a
      // power loss boots into a linked proxy once the host needs one; and a reload (~110–190 ms
      // on a booted Debian 13 host) only when a unit the manager has loaded changed — it waits for
      // the links, so it reads them too; else, when a link changed, the manager is asked to read
      // them once the command is done (settle, systemd-reload.ts). The restart needs none of them:
      // the manager starts the units it holds. The capture unit runs already (started after save by
      // its own start, capture-companion.ts). The follower's unit too, when there is one: its
      // start after verify then asks nothing (ManagerReload.current remembers units found
      // current; follower.ts) and, linked here (spec.linkFollower), only restarts it.
      const follower = (await fs.lstat(FOLLOW_UNIT_PATH)) ? [`${FOLLOW_UNIT_NAME}.service`] : [];
      const linked = [[UNIT, K2S_PATHS.unit, unitText], [LATE_UNIT, K2S_PATHS.lateUnit, lateText], [ROUTE_UNIT, K2S_PATHS.routeUnit, routeText]].flatMap(([name, file, text]) => (text ? [{ name: name!, file: file!, text }] : []));
      if (spec.linkFollower && follower.length) linked.push({ name: follower[0]!, file: FOLLOW_UNIT_PATH, text: (await fs.readFile(FOLLOW_UNIT_PATH)).toString('utf8') });
      const links = relinkUnits(fs, linked, (args) => systemctl(exec, args)).then((changed) => {
        if (changed) reload.linksChanged();
      });
      links.catch(() => undefined);
      // The reset (a unit systemd gave up on, at its start limit, refuses even a start by hand
      // until then), begun alongside discover (prepareStart) when it named these units and not
      // long ago (a long-running process whose start failed before this step reset nothing
      // since), else now; and the manager's question, answered before (askUnits) when
      // that was not long ago (ManagerReload.current), else asked now, side by side.
      const early = asked && performance.now() - asked.at < KNOWN_CURRENT_MS ? asked : null;
      asked = null;
      const reset = early && units.every((u) => early.units.includes(u)) ? early.reset : resetFailed(units);
      const ready = settledAll([reset, reload.current([...units, ...follower], { linksFirst: links })]);
      // RESTART_JOB_MODE: the capture, started before the proxy, is not restarted by PartOf= (nor
      // a linked one pulled in by Wants= when the log is off); the companions named here start
      // after the proxy (After=), as without it. The links settle whatever fails: a rollback's
      // stop then removes every link this start made.
      await settledAll([links, ready.then(() => systemctl(exec, ['restart', RESTART_JOB_MODE, ...units]))]);
      const pid = await mainFromCgroup(fs);
      return pid !== null ? { pid, running: true } : runState(exec);
    },
    async installRouteUnit(routeFile) {
      earlyShow = null;
      await fs.mkdirp(path.posix.dirname(K2S_PATHS.routeUnit), 0o755);
      const text = renderRouteUnit(routeFile);
      if (await writeUnitFile(fs, K2S_PATHS.routeUnit, text)) reload.unitWritten(ROUTE_UNIT);
      // Its links on disk, in-process, as `systemctl --root=/ reenable` makes them (unit-links.ts).
      if (await relinkUnits(fs, [{ name: ROUTE_UNIT, file: K2S_PATHS.routeUnit, text }], (args) => systemctl(exec, args))) reload.linksChanged();
      await reload.current([ROUTE_UNIT]);
      await systemctl(exec, ['restart', ROUTE_UNIT]);
    },
    async restart() {
      // Units and argv are unchanged (the config path is the same): no daemon-reload or enable.
      // RESTART_JOB_MODE: only the units named here restart; the capture and route companions
      // keep running (their PartOf= tie would make this restart wait for the capture's drain).
      earlyShow = null;
      const late = (await fs.lstat(K2S_PATHS.lateUnit)) !== null;
      await systemctl(exec, ['restart', RESTART_JOB_MODE, UNIT, ...(late ? [LATE_UNIT] : [])]);
      return runState(exec);
    },
    async stop(opts) {
      earlyShow = null;
      const companions: string[] = [];
      if (await fs.lstat(K2S_PATHS.lateUnit)) companions.push(LATE_UNIT);
      if (await fs.lstat(K2S_PATHS.routeUnit)) companions.push(ROUTE_UNIT);
      // The capture unit: PartOf= stops it with the proxy, and as it is After= the proxy
      // (COMPANION_TIE) systemd stops it first, the proxy only once its drain is done
      // (systemd.unit(5): units are stopped in the inverse of their start-up order) — 60–110 ms of
      // the stop job on the booted Debian 13 host (docs/benchmarking.md). `captureAfter` (stop):
      // left out, and RESTART_JOB_MODE keeps PartOf= from pulling its stop into this job (ordering
      // binds only queued jobs), so the proxy stops at once and the caller then ends the capture
      // (capture-companion.ts stoppedWithProxy), whose drain needs no more traffic. Otherwise
      // (a rollback, recover, uninstall) named in the same job, as before: it stops with the proxy
      // whatever unit file a running companion was started from.
      const capture = !opts?.captureAfter && (await fs.lstat(K2S_PATHS.captureUnit)) ? [`${CAPTURE_UNIT_NAME}.service`] : [];
      // The network follower too: stop leaves it running through its restore (lifecycle/stop.ts),
      // its one `systemctl stop` is this one. Not tied to the proxy, it stops alongside.
      // Left out when the follower runs this stop (lifecycle/stop.ts byFollower): the job would wait for the caller.
      const follower = !opts?.leaveFollower && (await fs.lstat(FOLLOW_UNIT_PATH)) ? [`${FOLLOW_UNIT_NAME}.service`] : [];
      const stopJob = systemctl(exec, ['stop', ...(opts?.captureAfter ? [RESTART_JOB_MODE] : []), UNIT, ...companions, ...capture, ...follower], [0, EXIT_NOT_LOADED]);
      stopJob.catch(() => undefined);
      // Every K2s unit's links removed — the proxy's, its companions', and the capture and
      // follower units' (stop and uninstall leave their links to this one; recover's own stops
      // unlink them too; unit-links.ts, as `systemctl --root=/ disable` would) — without a
      // reload: the links go from disk (what boot reads), and the manager is asked to read them
      // once the command is done (settle, systemd-reload.ts) instead of ~110–190 ms on stop's
      // path. Done while the stop job runs (the manager stops the units from the copy it holds):
      // the capture's drain is most of that job. The stop job's failure is the one thrown when both fail.
      const unlinked = unlinkUnits(fs, [UNIT, LATE_UNIT, ROUTE_UNIT, `${CAPTURE_UNIT_NAME}.service`, `${FOLLOW_UNIT_NAME}.service`], (args) => systemctl(exec, args)).then((removed) => {
        if (removed) reload.linksChanged();
      });
      unlinked.catch(() => undefined);
      await stopJob;
      await unlinked;
    },
    async pendingJob() {
      const r = await exec.run('systemctl', ['list-jobs', '--no-legend', UNIT], { timeoutMs: 10_000 }).catch(() => null);
      return r !== null && r.code === 0 ? jobTypeOf(r.stdout, UNIT) : null;
    },
    async status() {
      // The proxy's state, and the manager's question for its unit with it (ManagerReload.ask keeps
      // the answer; systemctl reads every property of the unit anyway): start's preflight reads
      // this status; askUnits, just before it, asked it in its one show (then no process here).
      // The capture unit's too (captureUnit) when its file is there (start writes it, uninstall
      // removes it and resets a failed one): ~4 ms more of the show, for status once stopped.
      const asked = await earlyBlock(UNIT);
      const captureAsked = asked ? await earlyBlock(CAPTURE_UNIT) : null;
      const withCapture = !asked && (await fs.lstat(K2S_PATHS.captureUnit)) !== null;
      const out = asked ? null : await reload.ask(withCapture ? [UNIT, CAPTURE_UNIT] : [UNIT], SHOW_PROPERTIES);
      if (!asked && out === null) return { running: false, pid: null, restart: null };
      // The proxy's block by its Id= (the output as one block where none says so).
      const s = parseUnitRunState(asked ?? showUnits(out!).get(UNIT) ?? showProperties(out!));
      const running = s.activeState === 'active';
      const captureBlock = captureAsked ?? (withCapture ? (showUnits(out!).get(CAPTURE_UNIT) ?? null) : null);
      const captureUnit = captureBlock ? captureUnitState(parseUnitRunState(captureBlock)) : null;
      // Measured on systemd 257: after StartLimitBurst auto-restarts the unit is `failed` with the
      // last run's Result (exit-code), not start-limit-hit (that one a refused manual start gets).
      const gaveUp = s.activeState === 'failed' && (s.result === 'start-limit-hit' || s.restarts > 0);
      let restart: ServiceRestart | null = null;
      if (!running && (isAutoRestart(s) || gaveUp)) {
        // systemd counts a restart (NRestarts) when it queues it: while it waits RestartSec
        // (auto-restart) the next attempt is NRestarts + 1; once that attempt starts (start-pre,
        // start) it is NRestarts, and systemd has reset ExecMainCode/ExecMainStatus/Result for it
        // (service_start() in src/core/service.c, systemd 257; measured: ExecMainCode=0 in start-pre).
        const attempt = gaveUp || s.subState !== 'auto-restart' ? s.restarts : s.restarts + 1;
        // Then the journal still has the exit (readable by root and the adm/systemd-journal groups, journalctl(1)).
        const lastExit = s.lastExit ?? (gaveUp ? null : await journalLastExit(exec));
        restart = { attempt, lastExit, reason: exitReasonFromLog(await logTail(fs.real(K2S_PATHS.log))), gaveUp };
      }
      // Running again after systemd's own restart: the crash before it is known only from the
      // journal (ExecMain* describe the new run). Read only then, so a healthy unit costs nothing.
      let restarted: RestartedExit | null = null;
      if (running && s.restarts > 0) {
        const out = await journalExits(exec);
        const e = out === null ? null : lastExitEventFromJournal(out);
        if (e) restarted = { how: e.how, at: e.at, restarts: s.restarts };
      }
      return { running, pid: running ? s.mainPid : null, restart, ...(restarted ? { restarted } : {}), ...(captureUnit ? { captureUnit } : {}) };
    },
  };
}
