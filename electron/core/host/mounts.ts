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

/**
 * The mount that holds `path` (absolute, as the process sees it): the entry with the longest
 * mount point that is `path` or a parent of it; the last such row wins (a later mount covers an
 * earlier one on the same point). null when mountinfo names none.
 */
export function mountOf(path: string, mountinfoText: string): MountInfoEntry | null {
  let best: MountInfoEntry | null = null;
  for (const m of parseMountinfo(mountinfoText)) {
    const mp = m.mountPoint;
    const covers = mp === '/' || path === mp || path.startsWith(mp.endsWith('/') ? mp : `${mp}/`);
    if (covers && (best === null || mp.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

/** errno codes of a write refused for lack of room: no space, quota exhausted, read-only fs. */
export function isNoRoomError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS';
}

/**
 * One sentence naming the filesystem that refused a write to `hostPath` and the fix, e.g.
 * "No space left on the tmpfs filesystem mounted at /var/lib/k2s (holding /var/lib/k2s/x); free
 * space there (df -h /var/lib/k2s), then run k2s-dns stop again."
 */
export function noRoomMessage(hostPath: string, realPath: string, code: string | undefined, mountinfoText: string, retry: string): string {
  const m = mountOf(realPath, mountinfoText);
  const where = m ? `the ${m.fsType} filesystem mounted at ${m.mountPoint}${m.source && m.source !== 'none' && m.source !== m.fsType ? ` (${m.source})` : ''}` : `the filesystem holding ${hostPath}`;
  const dir = m?.mountPoint ?? hostPath;
  if (code === 'EROFS') return `${where} is read-only, so ${hostPath} cannot be written; remount it read-write (mount -o remount,rw ${dir}), then ${retry}.`;
  const what = code === 'EDQUOT' ? 'Disk quota exceeded on' : 'No space left on';
  return `${what} ${where}, so ${hostPath} cannot be written; free space there (df -h ${dir}), then ${retry}.`;
}
