/**
 * Runs the proxy as a service: systemd when the host has it, else a supervised detached process
 * with a pidfile (docs/host-facts.md "Service manager"). Both use the same log path. The choice
 * between them is detect-service-manager.ts.
 */
import type { ServiceSpec } from '../../../shared/systemd-unit';
import type { ManagerReload } from './systemd-reload';
import type { CaptureUnitState } from '../../../shared/capture-unit-state';

export type { ServiceSpec } from '../../../shared/systemd-unit';

/** systemd's own restart of the proxy, as status and doctor report it. */
export interface ServiceRestart {
  /** The restart systemd waits to make (NRestarts + 1 in auto-restart) or is making (NRestarts while it starts); the count of restarts when it gave up. */
  attempt: number;
  /** How the last run ended (`exited with status 1`), from ExecMainCode/ExecMainStatus. */
  lastExit: string | null;
  /** The proxy's own last error line from its log file, when readable. */
  reason: string | null;
  /** True when systemd stopped restarting it (failed after restarts: its start limit). */
  gaveUp: boolean;
}

/**
 * systemd only: the service runs again after systemd restarted it (NRestarts > 0): how and when
 * the run before ended, from systemd's journal (systemd resets ExecMain* at the restart).
 */
export interface RestartedExit {
  /** `killed by signal KILL`, `exited with status 1`. */
  how: string;
  /** ms since the epoch; null when the journal entry had no time. */
  at: number | null;
  /** systemd's restart count of the unit (NRestarts). */
  restarts: number;
}

/** Starts, stops and reports the one k2s-dnsproxy service. */
export interface ServiceManager {
  kind: 'systemd' | 'supervised';
  /**
   * Starts (or restarts, to apply a new config) the service; pid when known, and `running` when
   * the start's own read of the service said it runs (systemd: ActiveState=active right after the
   * start job; the first poll for its listeners then needs no status read). Throws with the cause.
   */
  start(spec: ServiceSpec): Promise<{ pid: number | null; running?: boolean }>;
  /**
   * Begins, without waiting, the calls a start() soon after needs from the service manager that
   * do not depend on its spec (systemd: the reset of a failed unit for the units an earlier start
   * wrote; their NeedDaemonReload question start asked before, askUnits and preflight's status()), so they
   * run alongside discover; start() uses them when they still apply. Never rejects.
   */
  prepareStart?(): Promise<void>;
  /**
   * systemd only: writes the unit files start(spec) would write whose bytes changed (noted for
   * the manager's reload, ManagerReload.unitWritten) and does nothing else — no link, no start.
   * Start calls it right after save when the capture's start follows and may reload for its own
   * new unit (the first start after install): that reload then reads these too, and start(spec)
   * finds them written (one reload on start's path, not two). Throws for a spec start would refuse.
   */
  writeUnits?(spec: ServiceSpec): Promise<void>;
  /**
   * systemd only: asks the manager now, without waiting, in one `systemctl show`, whether each
   * K2s unit is loaded from its current file (ManagerReload.ask), the proxy's state, and whether
   * systemd-resolved runs, so the reads of the start that follows — preflight's status() and
   * resolvedActive(), its capture's, its service step's and its follower's reload questions —
   * run no `systemctl` of their own. Its answer stands for status() and resolvedActive() for
   * EARLY_SHOW_MS (systemd-service.ts), until this manager changes a unit. Start calls it once
   * it holds the lock, before preflight.
   */
  askUnits?(): void;
  /**
   * systemd only: whether systemd-resolved.service is active (ActiveState=active, what
   * `systemctl is-active` prints), from askUnits()'s answer when it stands, else its own
   * `systemctl is-active`. False when systemctl fails.
   */
  resolvedActive?(): Promise<boolean>;
  /**
   * Restarts the running service with the unit/argv it has, so it reads its config file again
   * (a followed network: only the config changed). Absent: the caller uses start(spec).
   */
  restart?(): Promise<{ pid: number | null; running?: boolean }>;
  /**
   * Stops the service; no error when it is not running. `leaveFollower` (systemd): the network
   * follower's unit is not in the stop job (the follower runs this stop itself; its link still goes).
   * `captureAfter` (systemd): the exact query log's capture unit is not in the stop job either, nor
   * pulled into it by its PartOf= tie, so the proxy's stop does not wait for the capture's drain;
   * the caller ends the capture once this has fulfilled (CaptureCompanion.stop stoppedWithProxy).
   * Its link still goes. Without it the capture stops in the same job, before the proxy (After=).
   */
  stop(opts?: { leaveFollower?: boolean; captureAfter?: boolean }): Promise<void>;
  /**
   * Whether the service runs now, and its main pid; `restart` is set while the service manager
   * itself is restarting it after a failure (systemd: SubState auto-restart), or gave up on it.
   * `captureUnit` (systemd, its unit file there): the capture unit's state when it is not
   * inactive (shared/capture-unit-state.ts: draining after a stop, failed, …).
   */
  status(): Promise<{ running: boolean; pid: number | null; restart?: ServiceRestart | null; restarted?: RestartedExit | null; captureUnit?: CaptureUnitState | null }>;
  /**
   * systemd only: the type of the job the manager holds for the proxy's unit now (queued or
   * running, `systemctl list-jobs`): `stop` — someone stops it (it may still run while the job
   * waits for the units ordered after it, the capture companion's drain); `start`/`restart` — it
   * is being (re)started; null when none, or when unknown.
   */
  pendingJob?(): Promise<string | null>;
  /**
   * systemd only: installs and starts the companion that re-applies the systemd-resolved route
   * from `routeFile` next to the running proxy, without restarting the proxy (a K2s DNS started by
   * a version without that unit keeps running across the package upgrade). Throws with the cause.
   */
  installRouteUnit?(routeFile: string): Promise<void>;
  /**
   * systemd only: the manager's reload, paid when a unit changed (systemd-reload.ts), shared with
   * the capture and follower units. A start and a stop call its settle() once at their end,
   * whatever the outcome, so the manager reads the links they changed without a reload.
   */
  reload?: ManagerReload;
}
