/**
 * Runs the proxy as a service: systemd when the host has it, else a supervised detached process
 * with a pidfile (DESIGN.md "Shape": the e2e sandbox has no systemd). Both use the same log path.
 */
import type { ServiceSpec } from '../../shared/systemd-unit';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { createSupervisedManager } from './supervised-service';
import { createSystemdManager } from './systemd-service';

export type { ServiceSpec } from '../../shared/systemd-unit';

/** systemd's own restart of the proxy, as status and doctor report it. */
export interface ServiceRestart {
  /** The attempt systemd waits to make (NRestarts + 1); the count of restarts when it gave up. */
  attempt: number;
  /** How the last run ended (`exited with status 1`), from ExecMainCode/ExecMainStatus. */
  lastExit: string | null;
  /** The proxy's own last error line from its log file, when readable. */
  reason: string | null;
  /** True when systemd stopped restarting it (failed after restarts: its start limit). */
  gaveUp: boolean;
}

/** Starts, stops and reports the one k2s-dnsproxy service. */
export interface ServiceManager {
  kind: 'systemd' | 'supervised';
  /** Starts (or restarts, to apply a new config) the service; pid when known. Throws with the cause. */
  start(spec: ServiceSpec): Promise<{ pid: number | null }>;
  /** Stops the service; no error when it is not running. */
  stop(): Promise<void>;
  /**
   * Whether the service runs now, and its main pid; `restart` is set while the service manager
   * itself is restarting it after a failure (systemd: SubState auto-restart), or gave up on it.
   */
  status(): Promise<{ running: boolean; pid: number | null; restart?: ServiceRestart | null }>;
}

/** systemd when /run/systemd/system is a directory (sd_booted(3)), looked up through `fs`; else supervised. */
export async function detectServiceManager(fs: HostFs, exec: Exec): Promise<ServiceManager> {
  const st = await fs.lstat('/run/systemd/system');
  return st?.kind === 'dir' ? createSystemdManager(fs, exec) : createSupervisedManager(fs);
}
