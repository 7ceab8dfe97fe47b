/**
 * /proc/self/mountinfo parsing (proc(5), "/proc/pid/mountinfo"). Pure (no Node imports): a file
 * that is itself a mount point (a container's bind-mounted /etc/resolv.conf) cannot be replaced
 * by rename(2) (EBUSY), so the lifecycle refuses before changing anything.
 */

/** One mountinfo row: field 4 (root inside the source fs), field 5 (mount point), fs type, source. */
export interface MountInfoEntry {
  mountId: number;
  root: string;
  mountPoint: string;
  fsType: string;
  source: string;
}

/** Undoes the kernel's octal escapes in mountinfo paths: `\040` space, `\011` tab, `\012` newline, `\134` backslash. */
export function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Parses mountinfo text; rows without the ` - ` separator are skipped. */
export function parseMountinfo(text: string): MountInfoEntry[] {
  const out: MountInfoEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(' ');
    const sep = f.indexOf('-', 6); // optional fields (shared:N, master:N) sit between field 6 and `-`
    if (f.length < 10 || sep === -1) continue;
    out.push({
      mountId: Number(f[0]),
      root: unescapeMountPath(f[3] ?? ''),
      mountPoint: unescapeMountPath(f[4] ?? ''),
      fsType: f[sep + 1] ?? '',
      source: unescapeMountPath(f[sep + 2] ?? ''),
    });
  }
  return out;
}

/** True when `path` (absolute, as the process sees it) is itself a mount point in `mountinfoText`. */
export function isBindMounted(path: string, mountinfoText: string): boolean {
  const want = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return parseMountinfo(mountinfoText).some((m) => m.mountPoint === want);
}
