/**
 * Runs the proxy as a service: systemd when the host has it, else a supervised detached process
 * with a pidfile (docs/host-facts.md "Service manager"). Both use the same log path.
 */
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import type { ServiceManager } from './service';
import { createSupervisedManager } from './supervised-service';
import { createSystemdManager } from './systemd-service';

export type { ServiceSpec } from '../../../shared/systemd-unit';
export type { ServiceManager } from './service';

/** systemd when /run/systemd/system is a directory (sd_booted(3)), looked up through `fs`; else supervised. */
export async function detectServiceManager(fs: HostFs, exec: Exec): Promise<ServiceManager> {
  const st = await fs.lstat('/run/systemd/system');
  return st?.kind === 'dir' ? createSystemdManager(fs, exec) : createSupervisedManager(fs);
}
