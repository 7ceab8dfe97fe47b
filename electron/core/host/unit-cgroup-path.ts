/**
 * Where a systemd unit's cgroup files are on this host (cgroup v2): the unit's ControlGroup
 * property (org.freedesktop.systemd1(5): its control group path, relative to the root of the
 * cgroup hierarchy) under the mount point of that hierarchy, the `cgroup2` row of
 * /proc/self/mountinfo (proc(5)). A unit in another slice (Slice=, a drop-in) or a host that
 * mounts cgroup2 elsewhere (a hybrid hierarchy's /sys/fs/cgroup/unified) is found where it is.
 */
import path from 'node:path';
import type { Exec } from './exec';
import type { HostFs } from './host-fs';
import { parseMountinfo } from './mounts';
import { showProperties } from '../../../shared/systemd-show';

/** Bytes of /proc/self/mountinfo read at most (a host with thousands of mounts; never a whole /dev/zero). */
const MOUNTINFO_MAX_BYTES = 4 * 1024 * 1024;
/** Longest wait for `systemctl show`, ms: sized for a busy 2-core host. */
const SHOW_TIMEOUT_MS = 5_000;

/**
 * Where systemd puts a system service without Slice= on a host with cgroup2 at /sys/fs/cgroup
 * (systemd.special(7) system.slice): `unit` is the full unit name (`x.service`).
 */
export function defaultUnitCgroupFile(unit: string, file: string): string {
  return `/sys/fs/cgroup/system.slice/${unit}/${file}`;
}

/**
 * The mount point of the cgroup2 hierarchy in `mountinfoText` that holds `controlGroup` (an
 * absolute path inside the hierarchy), joined with it: the row whose root (mountinfo field 4) is
 * the longest prefix of it, the last such row on a tie (a later mount covers an earlier one).
 * null when no cgroup2 row holds it.
 */
export function cgroupDir(controlGroup: string, mountinfoText: string): string | null {
  let best: { root: string; mountPoint: string } | null = null;
  for (const m of parseMountinfo(mountinfoText)) {
    if (m.fsType !== 'cgroup2') continue;
    const holds = m.root === '/' || controlGroup === m.root || controlGroup.startsWith(`${m.root}/`);
    if (holds && (best === null || m.root.length >= best.root.length)) best = m;
  }
  if (!best) return null;
  const inside = best.root === '/' ? controlGroup : controlGroup.slice(best.root.length);
  return path.posix.join(best.mountPoint, inside);
}

/**
 * Host path of `file` (`cgroup.events`, `cgroup.procs`) in the cgroup of systemd unit `unit`
 * (`x.service`): its ControlGroup (one `systemctl show -p ControlGroup`) under the cgroup2 mount of
 * /proc/self/mountinfo (cgroupDir), both read through `fs`. defaultUnitCgroupFile when systemd is
 * not the init system (no /run/systemd/system directory, sd_booted(3): nothing is asked), when
 * systemctl fails, when the unit has no cgroup now (an empty ControlGroup: it is inactive), or
 * when mountinfo has no cgroup2 row that holds it. Never throws.
 */
export async function unitCgroupFile(fs: HostFs, exec: Exec, unit: string, file: string): Promise<string> {
  const fallback = defaultUnitCgroupFile(unit, file);
  if ((await fs.lstat('/run/systemd/system').catch(() => null))?.kind !== 'dir') return fallback;
  const [shown, mountinfo] = await Promise.all([
    exec.run('systemctl', ['show', '-p', 'ControlGroup', unit], { timeoutMs: SHOW_TIMEOUT_MS }).catch(() => null),
    fs.readFile('/proc/self/mountinfo', { maxBytes: MOUNTINFO_MAX_BYTES }).then((b) => b.toString('utf8')).catch(() => ''),
  ]);
  const cg = shown?.code === 0 ? (showProperties(shown.stdout).get('ControlGroup') ?? '') : '';
  if (!cg.startsWith('/') || cg.split('/').includes('..')) return fallback;
  const dir = cgroupDir(cg, mountinfo);
  return dir === null ? fallback : path.posix.join(dir, file);
}
