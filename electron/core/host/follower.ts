/**
 * Runs the network follower (`<entry> follow-watch`, electron/core/lifecycle/follow-watch.ts)
 * next to the proxy, as root: on systemd hosts the unit k2s-dnsproxy-follow.service (enabled:
 * the K2s-owned resolv.conf survives a reboot, so must its follower); elsewhere a detached
 * process with a pidfile in /run/k2s, like the proxy's watchdog. Start runs it after the host
 * points at the proxy. stop holds the lifecycle lock through its restore, so the follower's look
 * gets `busy` then and never mistakes that restore for a new network: on systemd the proxy's one
 * stop job ends it after the restore; elsewhere, for uninstall, and without the lock stop ends it
 * before the restore (lifecycle/stop.ts, companions.ts).
 */
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { systemdReload, writeUnitFile, type ManagerReload } from './systemd-reload';
import { relinkUnits, unlinkUnits } from './unit-links';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { FOLLOW_UNIT_NAME, renderFollowUnit } from '../../../shared/systemd-unit';
import { pidfileProcess, type HeldProcess } from './pidfile-process';

/** The verb the follower runs under (the CLI and the helper both take it). */
export const FOLLOW_VERB = 'follow-watch';
/** Host path of the supervised follower's pid. */
export const FOLLOW_PID_FILE = `${K2S_PATHS.runDir}/follow.pid`;
/** Host path of the supervised follower's own output (one line per change it handled). */
export const FOLLOW_LOG = `${K2S_PATHS.runDir}/follow.log`;
/** Host path of the follower's systemd unit. */
export const FOLLOW_UNIT_PATH = `/etc/systemd/system/${FOLLOW_UNIT_NAME}.service`;
/** The link `enable` makes for its `[Install] WantedBy=multi-user.target` (shared/systemd-unit.ts renderFollowUnit; systemctl(1) enable). */
export const FOLLOW_WANTS_LINK = `/etc/systemd/system/multi-user.target.wants/${FOLLOW_UNIT_NAME}.service`;

/** Starts and stops the one network follower. */
export interface Follower {
  /** (Re)starts it with `argv` (absolute node binary, entry script, FOLLOW_VERB). Throws with the cause. */
  start(argv: string[]): Promise<void>;
  /**
   * Ends it; no error when none runs. `unlinkWithProxy`: systemd only, the caller's
   * ServiceManager.stop() removes the follower's link with the proxy's (unit-links.ts) later in
   * the same command (uninstall; a stop without the lock, or whose proxy stop failed), so only
   * the unit is stopped here. A systemd stop otherwise names it in the proxy's own stop job.
   */
  stop(opts?: { unlinkWithProxy?: boolean }): Promise<void>;
  /**
   * systemd only: sends `signal` to its main process (`systemctl kill --kill-who=main`), no stop
   * job queued. A follow in progress restarts k2s-dnsproxy, and the follower's unit is After= it:
   * a stop job of the follower queued while that restart job is in its stop phase makes the
   * restart's start wait for the follower's stop (systemd stops before it starts), while the
   * follower waits for its restart — both until a timeout (measured on the booted Debian 13 host:
   * 60 s). A signal leaves the restart free to finish; the follower then ends (follow-main.ts).
   * Throws when systemctl fails (no process to signal included).
   */
  kill?(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** True while it runs (pidfile + /proc cmdline; systemd: the unit is active, or activating for its Restart=). */
  running?(): Promise<boolean>;
  /** Its PID while it runs (pidfile checked against /proc cmdline; systemd: the unit's MainPID), else null. */
  pid?(): Promise<number | null>;
  /**
   * Spawns the follower for `argv` held (pidfile-process.ts HOLD_BACK: a shell waiting for
   * "go"), so start pays the spawn while it waits for the proxy; it does nothing until
   * startHeld, and exits when dropped or when its starter dies. Hosts without systemd only.
   */
  prepare?(argv: string[]): Promise<HeldProcess>;
  /** Stops the running follower, records `held` as the follower and lets it go. Throws (and drops it) when the pidfile cannot be written or it has exited. */
  startHeld?(held: HeldProcess): Promise<void>;
}

/** True when /proc/PID/cmdline is a follower (its argv ends with FOLLOW_VERB). */
export function isFollowerArgv(argv: readonly string[]): boolean {
  return argv.length >= 2 && argv[argv.length - 1] === FOLLOW_VERB;
}

/** The follower as a detached process (hosts without systemd). */
export function supervisedFollower(fs: HostFs, procDir = '/proc'): Follower {
  // Bounded: it ends its watch and a follow in progress (which holds the lifecycle lock).
  const proc = pidfileProcess(fs, { pidFile: FOLLOW_PID_FILE, logFile: FOLLOW_LOG, isOwnArgv: isFollowerArgv, stopWaitMs: 5000 }, procDir);
  return { ...proc, prepare: (argv) => proc.prepare(argv, { holdBack: true }), startHeld: (held) => proc.startHeld(held, 'go') };
}

/** The follower as k2s-dnsproxy-follow.service (systemd hosts). */
export function systemdFollower(fs: HostFs, exec: Exec, reload: ManagerReload = systemdReload(exec)): Follower {
  const unit = `${FOLLOW_UNIT_NAME}.service`;
  const systemctl = async (args: string[], ok: number[] = [0]) => {
    const r = await exec.run('systemctl', args, { timeoutMs: 60_000 });
    if (r.code === null || !ok.includes(r.code)) throw new Error(`systemctl ${args.join(' ')} failed (${r.stderr.trim() || `exit ${r.code}`}); see "journalctl -u ${unit}".`);
  };
  return {
    async start(argv) {
      const text = renderFollowUnit(argv);
      const written = await writeUnitFile(fs, FOLLOW_UNIT_PATH, text);
      if (written) reload.unitWritten(unit);
      // The link on disk only, made in-process as `systemctl --root=/ reenable` makes it
      // (unit-links.ts), and a reload only when the manager holds an older file of the unit
      // (systemd-reload.ts; a reload is ~110–190 ms on a booted Debian 13 host). Not again for the
      // same file whose link is there: the proxy's relink in this start made it (ServiceSpec.linkFollower).
      if ((written || !(await fs.lstat(FOLLOW_WANTS_LINK))) && (await relinkUnits(fs, [{ name: unit, file: FOLLOW_UNIT_PATH, text }], (args) => systemctl(args)))) reload.linksChanged();
      // Asked already: start asked about it before its preflight (ServiceManager.askUnits, systemd-service.ts), one show less.
      await reload.current([unit]);
      await systemctl(['restart', unit]);
    },
    async stop(opts) {
      if (!(await fs.lstat(FOLLOW_UNIT_PATH))) return;
      await systemctl(['stop', unit], [0, 5]);
      if (opts?.unlinkWithProxy) return;
      // The link goes now, in-process as `systemctl --root=/ disable` removes it (unit-links.ts);
      // the manager reads it at the command's end (systemd-reload.ts settle).
      if (await unlinkUnits(fs, [unit], (args) => systemctl(args))) reload.linksChanged();
    },
    async kill(signal) {
      // --kill-who=: the older spelling of --kill-whom= (systemctl(1)), which systemd 257 still takes (booted Debian 13 host).
      await systemctl(['kill', '--kill-who=main', `--signal=${signal}`, unit]);
    },
    async running() {
      // Restart=on-failure brings a killed one back after RestartSec: "activating" counts as running.
      const r = await exec.run('systemctl', ['is-active', unit], { timeoutMs: 10_000 });
      return ['active', 'activating', 'reloading'].includes(r.stdout.trim());
    },
    async pid() {
      const r = await exec.run('systemctl', ['show', '--property=MainPID', '--value', unit], { timeoutMs: 10_000 });
      const pid = Number.parseInt(r.stdout.trim(), 10);
      return r.code === 0 && Number.isInteger(pid) && pid > 1 ? pid : null;
    },
  };
}
