/** Picks the service manager for this host (docs/host-facts.md "Service manager"). */
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import type { ServiceManager } from './service-manager';
import { createSupervisedManager } from './supervised-service';
import { createSystemdManager } from './systemd-service';

/** systemd when /run/systemd/system is a directory (sd_booted(3)), looked up through `fs`; else supervised. */
export async function detectServiceManager(fs: HostFs, exec: Exec): Promise<ServiceManager> {
  const st = await fs.lstat('/run/systemd/system');
  return st?.kind === 'dir' ? createSystemdManager(fs, exec) : createSupervisedManager(fs);
}
