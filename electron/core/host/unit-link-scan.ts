/**
 * Finds the symlinks under /etc/systemd/system that `systemctl --root=/ disable U` removes for
 * units U (systemd's src/shared/install.c remove_marked_symlinks_fd, systemd 257: every symlink
 * named U, or whose target resolves to U's name, and then those pointing at a link it removed):
 * the [Install] links in the `.wants/`, `.requires/` and `.upholds/` directories, an alias of U
 * at the top level (`dns.service -> …/k2s-dnsproxy.service`, made by hand or by an Alias=), and a
 * link named as such an alias in a link directory — which boot follows to U (measured on the
 * booted Debian 13 host: with only the alias's two links left, `systemctl is-enabled` said
 * `indirect` and multi-user.target still pulled the proxy in). Only symlinks are found: a file or
 * directory of that name is left alone, as disable leaves it. Unlike disable, a link of another
 * name in a link directory that points at U's file is left (see linksOf).
 */
import path from 'node:path';
import type { HostFs } from './host-fs';

/** The directory of system unit files an admin (and K2s DNS) writes, and of their links (systemd.unit(5) "Unit File Load Path"). */
export const SYSTEM_UNIT_DIR = '/etc/systemd/system';

/** The directories `systemctl enable` links into: WantedBy= `.wants/`, RequiredBy= `.requires/`, UpheldBy= `.upholds/` (systemd.unit(5) [Install]). */
export const LINK_DIR_SUFFIX = /\.(wants|requires|upholds)$/;

/** A unit name of a type systemctl links (systemd.unit(5)); other entries are not looked at. */
const UNIT_NAME = /^[^./][^/]*\.(service|socket|target|device|mount|automount|swap|timer|path|slice|scope)$/;

/** A link's target, or null when `p` is no symlink or cannot be read. */
async function target(fs: HostFs, p: string): Promise<string | null> {
  return fs.readlink(p).catch(() => null);
}

/**
 * Entries of a link directory; none for one that cannot be looked into — missing, a file, a
 * dangling or looping symlink (ELOOP): systemd reads no links there either, and a stray one of
 * another unit's must not fail K2s DNS's start or stop. Other errors (EIO) are thrown.
 */
async function entries(fs: HostFs, dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return [];
    throw err;
  }
}

/**
 * The host paths of the symlinks `systemctl --root=/ disable` of `names` removes (see above),
 * top-level aliases first. Throws when /etc/systemd/system or a link directory cannot be read
 * for another reason than those `entries` skips.
 */
export async function linksOf(fs: HostFs, names: readonly string[]): Promise<string[]> {
  const ours = new Set(names);
  const top = await fs.readdir(SYSTEM_UNIT_DIR);
  // Aliases: top-level symlinks of another name whose target is named as one of ours, or as an
  // alias found so far (an alias of an alias; the unit files themselves are regular files K2s
  // DNS writes, masks lead to /dev/null). By the target's name, as disable's basename check.
  const targets = new Map<string, string>();
  await Promise.all(
    top.filter((n) => UNIT_NAME.test(n) && !ours.has(n)).map(async (n) => {
      const t = await target(fs, `${SYSTEM_UNIT_DIR}/${n}`);
      if (t !== null && t !== '/dev/null') targets.set(n, path.posix.basename(t));
    }),
  );
  const aliases: string[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [n, t] of targets) {
      if (ours.has(t) || aliases.includes(t)) {
        aliases.push(n);
        targets.delete(n);
        grew = true;
      }
    }
  }
  const named = new Set([...names, ...aliases]);
  const linked = await Promise.all(
    top.filter((n) => LINK_DIR_SUFFIX.test(n)).map(async (d) => {
      const dir = `${SYSTEM_UNIT_DIR}/${d}`;
      const found = await Promise.all(
        // By name only: a link of another name to a unit file makes boot want the unit of the
        // link's name, not the file's (systemd adds the dependency by the entry's name and warns
        // "target … has different name"), so it is left, though disable removes it too; reading
        // every entry's target cost ~1 ms of each start (60 links).
        (await entries(fs, dir)).filter((e) => named.has(e)).map(async (e) => ((await target(fs, `${dir}/${e}`)) !== null ? [`${dir}/${e}`] : [])),
      );
      return found.flat();
    }),
  );
  return [...aliases.map((a) => `${SYSTEM_UNIT_DIR}/${a}`), ...linked.flat()];
}
