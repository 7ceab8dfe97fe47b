/**
 * Runs the proxy as a service: systemd when the host has it, else a supervised detached process
 * with a pidfile (DESIGN.md "Shape": the e2e sandbox has no systemd). Both use the same log path.
 */
import type { ServiceSpec } from '../../../shared/systemd-unit';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { createSupervisedManager } from './supervised-service';
import { createSystemdManager } from './systemd-service';

export type { ServiceSpec } from '../../../shared/systemd-unit';

/** Starts, stops and reports the one k2s-dnsproxy service. */
export interface ServiceManager {
  kind: 'systemd' | 'supervised';
  /** Starts (or restarts, to apply a new config) the service; pid when known. Throws with the cause. */
  start(spec: ServiceSpec): Promise<{ pid: number | null }>;
  /** Stops the service; no error when it is not running. */
  stop(): Promise<void>;
  /** Whether the service runs now, and its main pid. */
  status(): Promise<{ running: boolean; pid: number | null }>;
}

/** systemd when /run/systemd/system is a directory (sd_booted(3)), looked up through `fs`; else supervised. */
export async function detectServiceManager(fs: HostFs, exec: Exec): Promise<ServiceManager> {
  const st = await fs.lstat('/run/systemd/system');
  return st?.kind === 'dir' ? createSystemdManager(fs, exec) : createSupervisedManager(fs);
}
