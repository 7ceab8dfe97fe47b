/**
 * The [Install] links of K2s DNS's own units, made and removed on disk by this process as
 * `systemctl --root=/ reenable` and `disable` make and remove them (systemctl(1); systemd.unit(5)
 * "[Install] Section Options": WantedBy=T makes the symlink /etc/systemd/system/T.wants/U, which
 * names the unit file by its absolute path). In-process: no systemctl process (the fork of the
 * whole CLI, ~5–35 ms of a start's service step on a booted Debian 13 host), and it knows whether
 * a link changed, so the manager is asked to read them again (ManagerReload.linksChanged) only
 * then. Only for units whose [Install] section holds nothing but WantedBy= — every unit K2s DNS
 * writes; installTargets refuses any other key. A unit an admin gave an [Install] drop-in
 * (install-dropins.ts) is left to systemctl itself, which reads it.
 */
import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { HostFs } from './host-fs';
import { unitsWithInstallDropIns } from './install-dropins';
import { LINKS_ONLY } from './systemd-reload';
import { linksOf, SYSTEM_UNIT_DIR } from './unit-link-scan';

export { SYSTEM_UNIT_DIR } from './unit-link-scan';

/** One unit to link: its name (`k2s-dnsproxy.service`), its file's host path, and that file's text. */
export interface LinkedUnit {
  name: string;
  file: string;
  text: string;
}

/** Runs `systemctl ARGS` (for a unit left to systemctl: install-dropins.ts); throws when it fails. */
export type Systemctl = (args: string[]) => Promise<unknown>;

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

/** The error for a path in the way of a link (systemctl enable refuses it too: "already exists", "Not a directory"): names it and the way out. */
function inTheWay(link: string, what: string): Error {
  return new Error(`Cannot make the systemd link ${link} (its unit's [Install] section asks for it): ${what}. K2s DNS leaves what it did not make alone; move it away, then start again.`);
}

/**
 * An I/O error of a link's write or removal, said with the link's own path (Node's message names
 * the temp file of HostFs.symlinkAtomic instead); its errno `code` is kept.
 */
function linkError(link: string, doing: 'write' | 'remove', err: unknown): Error {
  const e = err as NodeJS.ErrnoException;
  const why = e.code ? `${(e.message ?? '').split(',')[0]}` : String(e?.message ?? err);
  return Object.assign(new Error(`Could not ${doing} the systemd link ${link} (${why}).`), e.code ? { code: e.code } : {});
}

/** Makes the link directory `dir` if need be; throws inTheWay for a file, or a symlink that leads to no directory, there. */
async function linkDir(fs: HostFs, dir: string, link: string): Promise<void> {
  const st = await fs.lstat(dir);
  if (st === null) return fs.mkdirp(dir, 0o755);
  if (st.kind === 'dir') return;
  if (st.kind === 'symlink' && (await fs.stat(dir))?.kind === 'dir') return; // as systemctl, linked into where it leads
  throw inTheWay(link, `${dir} is ${st.kind === 'symlink' ? 'a symlink that leads to no directory' : 'not a directory'}`);
}

/**
 * Makes each unit's links as its [Install] WantedBy= says and removes every other link to it
 * (a link an older version made elsewhere, an admin's alias; unit-link-scan.ts), as
 * `systemctl --root=/ reenable` would; links that are right are left untouched (no write, no
 * changed mtime). Each new link is written atomically (HostFs.symlinkAtomic: a power loss leaves
 * the old state or the new one). A unit with an [Install] drop-in is reenabled by `systemctl`
 * (install-dropins.ts). Resolves true when a link was made, changed or removed (or systemctl
 * ran). Throws when a file, directory or broken link is where a link goes (a message that names
 * it), on an I/O error, or for an [Install] key installTargets refuses.
 */
export async function relinkUnits(fs: HostFs, units: readonly LinkedUnit[], systemctl: Systemctl): Promise<boolean> {
  const delegated = new Set(await unitsWithInstallDropIns(fs, units.map((u) => u.name)));
  const own = units.filter((u) => !delegated.has(u.name));
  const wanted = new Map<string, string>();
  for (const u of own) for (const t of installTargets(u.text)) wanted.set(`${SYSTEM_UNIT_DIR}/${t}.wants/${u.name}`, u.file);
  let removed = false;
  if (own.length > 0) {
    for (const link of await linksOf(fs, own.map((u) => u.name))) {
      if (wanted.has(link)) continue;
      await fs.remove(link).catch((err: unknown) => {
        throw linkError(link, 'remove', err);
      });
      await removeIfEmpty(fs, path.posix.dirname(link));
      removed = true;
    }
  }
  // Side by side: each link's write ends with its directory's fsync, and the file system
  // commits fsyncs that wait together at once (a start after a stop makes three links).
  const made = await Promise.all([...wanted].map(async ([link, file]) => {
    await linkDir(fs, path.posix.dirname(link), link);
    const st = await fs.lstat(link);
    if (st?.kind === 'symlink' && (await fs.readlink(link)) === file) return false;
    if (st && st.kind !== 'symlink') throw inTheWay(link, `it is ${st.kind === 'dir' ? 'a directory' : st.kind === 'file' ? 'a file' : 'a special file'}, not a symlink`);
    await fs.symlinkAtomic(link, file).catch((err: unknown) => {
      throw linkError(link, 'write', err);
    });
    return true;
  }));
  if (delegated.size > 0) await systemctl([LINKS_ONLY, 'reenable', ...delegated]);
  return removed || made.includes(true) || delegated.size > 0;
}

/**
 * Removes the link directory `dir` when removing a link left it empty, as `systemctl disable`
 * does for the directories it empties (systemd's src/shared/install.c: rmdir_parents up to the
 * configuration directory) — a `k2s-dnsproxy.service.wants/` made for the companions is gone
 * again after stop and uninstall. Never SYSTEM_UNIT_DIR itself or a path outside it; a directory
 * that still holds anything, or a symlink to one, stays (rmdir(2) refuses it). Never rejects.
 */
async function removeIfEmpty(fs: HostFs, dir: string): Promise<void> {
  if (!dir.startsWith(`${SYSTEM_UNIT_DIR}/`) || dir.slice(SYSTEM_UNIT_DIR.length + 1).includes('/')) return;
  await rmdir(fs.real(dir)).catch(() => undefined);
}

/**
 * Removes every link to the units `names` (unit-link-scan.ts: their [Install] links wherever
 * they are, and aliases of them), as `systemctl --root=/ disable` would; their files stay. A
 * unit with an [Install] drop-in and its file there is also disabled by `systemctl`, which acts
 * on the drop-in's Also= too. Resolves true when a link went (or systemctl ran). Throws on an
 * I/O error.
 */
export async function unlinkUnits(fs: HostFs, names: readonly string[], systemctl: Systemctl): Promise<boolean> {
  let removed = false;
  for (const link of await linksOf(fs, names)) {
    await fs.remove(link).catch((err: unknown) => {
      throw linkError(link, 'remove', err);
    });
    await removeIfEmpty(fs, path.posix.dirname(link));
    removed = true;
  }
  const withFile = (await Promise.all(names.map(async (n) => ((await fs.lstat(`${SYSTEM_UNIT_DIR}/${n}`)) ? [n] : [])))).flat();
  const delegated = await unitsWithInstallDropIns(fs, withFile);
  if (delegated.length > 0) {
    await systemctl([LINKS_ONLY, 'disable', ...delegated]);
    removed = true;
  }
  return removed;
}
