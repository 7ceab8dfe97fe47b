/**
 * The [Install] links of K2s DNS's own units, made and removed on disk by this process as
 * `systemctl --root=/ reenable` and `disable` make and remove them (systemctl(1); systemd.unit(5)
 * "[Install] Section Options": WantedBy=T makes the symlink /etc/systemd/system/T.wants/U, which
 * names the unit file by its absolute path). In-process: no systemctl process (the fork of the
 * whole CLI, ~5–35 ms of a start's service step on a booted Debian 13 host), and it knows whether
 * a link changed, so the manager is asked to read them again (ManagerReload.linksChanged) only
 * then. Only for units whose [Install] section holds nothing but WantedBy= — every unit K2s DNS
 * writes; installTargets refuses any other key.
 */
import path from 'node:path';
import type { HostFs } from './host-fs';

/** The directory of system unit files an admin (and K2s DNS) writes, and of their links (systemd.unit(5) "Unit File Load Path"). */
export const SYSTEM_UNIT_DIR = '/etc/systemd/system';

/** One unit to link: its name (`k2s-dnsproxy.service`), its file's host path, and that file's text. */
export interface LinkedUnit {
  name: string;
  file: string;
  text: string;
}

/**
 * The WantedBy= units of a unit file's [Install] section, in order (space-separated lists and
 * repeated keys both add; systemd.unit(5)). Throws for any other [Install] key (Alias=,
 * RequiredBy=, Also=, …): this code makes only the .wants/ links.
 */
export function installTargets(text: string): string[] {
  const targets: string[] = [];
  let inInstall = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      inInstall = line === '[Install]';
      continue;
    }
    if (!inInstall) continue;
    const eq = line.indexOf('=');
    const key = eq < 0 ? line : line.slice(0, eq).trim();
    if (key !== 'WantedBy') throw new Error(`unit [Install] key ${key} is not supported here (only WantedBy=)`);
    targets.push(...line.slice(eq + 1).trim().split(/\s+/).filter(Boolean));
  }
  return targets;
}

/** The `.wants/` and `.requires/` directories under SYSTEM_UNIT_DIR, where enable puts links (host paths). */
async function linkDirs(fs: HostFs): Promise<string[]> {
  const names = await fs.readdir(SYSTEM_UNIT_DIR).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.wants') || n.endsWith('.requires')).map((n) => `${SYSTEM_UNIT_DIR}/${n}`);
}

/** Removes every symlink named one of `names` in a link directory except those in `keep`; true when one went. */
async function removeLinks(fs: HostFs, names: readonly string[], keep: ReadonlySet<string>): Promise<boolean> {
  const found = await Promise.all((await linkDirs(fs)).flatMap((dir) => names.map(async (n) => {
    const link = `${dir}/${n}`;
    if (keep.has(link) || (await fs.lstat(link))?.kind !== 'symlink') return false;
    await fs.remove(link);
    return true;
  })));
  return found.includes(true);
}

/**
 * Makes each unit's links as its [Install] WantedBy= says and removes every other link to it
 * (a link an older version made elsewhere), as `systemctl --root=/ reenable` would; links that
 * are right are left untouched (no write, no changed mtime). Each new link is written atomically
 * (HostFs.symlinkAtomic: a power loss leaves the old state or the new one). Resolves true when a
 * link was made, changed or removed. Throws on an I/O error or an [Install] key installTargets refuses.
 */
export async function relinkUnits(fs: HostFs, units: readonly LinkedUnit[]): Promise<boolean> {
  const wanted = new Map<string, string>();
  for (const u of units) for (const t of installTargets(u.text)) wanted.set(`${SYSTEM_UNIT_DIR}/${t}.wants/${u.name}`, u.file);
  const removed = await removeLinks(fs, units.map((u) => u.name), new Set(wanted.keys()));
  // Side by side: each link's write ends with its directory's fsync, and the file system
  // commits fsyncs that wait together at once (a start after a stop makes three links).
  const made = await Promise.all([...wanted].map(async ([link, target]) => {
    const st = await fs.lstat(link);
    if (st?.kind === 'symlink' && (await fs.readlink(link)) === target) return false;
    await fs.mkdirp(path.posix.dirname(link), 0o755);
    await fs.symlinkAtomic(link, target);
    return true;
  }));
  return removed || made.includes(true);
}

/**
 * Removes every link to the units `names` in the link directories, as `systemctl --root=/
 * disable` would; their files stay. Resolves true when a link went. Throws on an I/O error.
 */
export async function unlinkUnits(fs: HostFs, names: readonly string[]): Promise<boolean> {
  return removeLinks(fs, names, new Set());
}
