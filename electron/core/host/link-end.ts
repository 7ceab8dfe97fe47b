import type { HostFs } from './host-fs';
import type { NotFileKind } from '../../../shared/not-a-file';

/**
 * What a symlink at `hostPath` ends at when that is neither a regular file nor missing (a
 * directory, a FIFO, a socket, a device), or null (not a link, a file, dangling or a loop).
 * stat(2) only: a FIFO is never opened (its open(2) would wait for a writer).
 */
export async function linkEndNotFile(fs: HostFs, hostPath: string): Promise<NotFileKind | null> {
  if ((await fs.lstat(hostPath))?.kind !== 'symlink') return null;
  const st = await fs.stat(hostPath).catch(() => null);
  if (st === null || st.kind === 'file' || st.kind === 'symlink') return null;
  return { kind: st.kind, ...(st.special ? { special: st.special } : {}) };
}
