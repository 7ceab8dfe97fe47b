/**
 * Which of K2s DNS's units an admin gave an [Install] section in a drop-in. `systemctl enable`
 * and `reenable` read [Install] from the unit's drop-ins too (measured with systemctl 257 on the
 * booted Debian 13 host: a WantedBy=, Alias= or Also= in `U.d/NAME.conf` under
 * /etc/systemd/system, /etc/systemd/system.control, /run/systemd/system or
 * /usr/lib/systemd/system made its link; one in the type-wide `service.d/`, in a prefix
 * `k2s-.service.d/`, or in a file not ending in `.conf` did not). unit-links.ts leaves the links
 * of such a unit to systemctl itself: making them in-process from the unit's own text would drop
 * the admin's (their WantedBy=graphical.target link removed at every start).
 */
import type { HostFs } from './host-fs';

/**
 * The system unit search path (systemd.unit(5) "Unit File Load Path", system mode, without the
 * generator directories systemctl's enable ignores; /lib/systemd/system for hosts without the
 * merged /usr): where a unit's `U.d/` drop-ins may be.
 */
export const UNIT_SEARCH_DIRS = [
  '/etc/systemd/system.control',
  '/run/systemd/system.control',
  '/run/systemd/transient',
  '/etc/systemd/system',
  '/etc/systemd/system.attached',
  '/run/systemd/system',
  '/run/systemd/system.attached',
  '/usr/local/lib/systemd/system',
  '/usr/lib/systemd/system',
  '/lib/systemd/system',
] as const;

/** A drop-in this large is not read (an admin's [Install] drop-in is a few lines). */
const MAX_DROPIN_BYTES = 64 * 1024;

/** True when unit-file text has an `[Install]` section header (systemd.syntax(7): a line of its own). */
export function hasInstallSection(text: string): boolean {
  return /^[ \t]*\[Install\][ \t]*\r?$/m.test(text);
}

/**
 * The units of `names` (in their order) that have a `*.conf` drop-in with an [Install] section
 * in one of UNIT_SEARCH_DIRS. A drop-in directory or file that cannot be read counts as none
 * (a dangling or looping link, a FIFO: HostFs.readFile refuses it). Never throws.
 */
export async function unitsWithInstallDropIns(fs: HostFs, names: readonly string[]): Promise<string[]> {
  // One listing per directory (a missing one is one error, not one per unit: ~3 ms less a call).
  const listings = await Promise.all(UNIT_SEARCH_DIRS.map(async (dir) => new Set(await fs.readdir(dir).catch(() => [] as string[]))));
  const found = await Promise.all(
    names.map(async (name) => {
      const hits = await Promise.all(
        UNIT_SEARCH_DIRS.filter((_, i) => listings[i]!.has(`${name}.d`)).map(async (dir) => {
          const d = `${dir}/${name}.d`;
          const confs = (await fs.readdir(d).catch(() => [] as string[])).filter((f) => f.endsWith('.conf'));
          const texts = await Promise.all(confs.map((f) => fs.readFile(`${d}/${f}`, { maxBytes: MAX_DROPIN_BYTES }).then((b) => b.toString('utf8'), () => '')));
          return texts.some(hasInstallSection);
        }),
      );
      return hits.includes(true);
    }),
  );
  return names.filter((_, i) => found[i]);
}
