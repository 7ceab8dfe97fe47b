import { open, readFile, unlink, mkdir, rmdir } from 'node:fs/promises';
import type { HostFs } from '../host/host-fs';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { refused } from './errors';
import { pidAlive } from './journal';


/**
 * Takes the lifecycle lock (`/var/lib/k2s/dns-lifecycle.lock`, O_CREAT|O_EXCL, holding the pid).
 * A lock whose holder is dead is taken over, so a crashed operation never leaves it stuck.
 * Throws a refused (exit 3) LifecycleError BUSY when another live operation holds it.
 * @returns release function
 */
export async function acquireLock(fs: HostFs): Promise<() => Promise<void>> {
  const path = fs.real(K2S_PATHS.lock);
  const dir = fs.real(K2S_PATHS.stateDir);
  // mkdir -p returns the first directory it created: a refused start must leave none behind.
  const created = await mkdir(dir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return async () => {
        await unlink(path).catch(() => undefined);
        // Only succeeds when the operation left nothing there (rmdir refuses a non-empty dir).
        if (created !== undefined) await rmdir(dir).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && pidAlive(holder) && holder !== process.pid) {
        throw refused(
          'BUSY',
          `Another k2s-dns operation (PID ${holder}) is running; wait for it to finish, then try again.`,
        );
      }
      // Stale lock of a crashed holder: remove and retry.
      await unlink(path).catch(() => undefined);
    }
  }
  throw refused('BUSY', `Could not take the lock ${K2S_PATHS.lock}; remove it if no k2s-dns runs.`);
}
