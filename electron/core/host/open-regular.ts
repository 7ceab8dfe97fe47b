/**
 * Opening a file to read without blocking on what is not one: open(2) of a FIFO without
 * O_NONBLOCK returns only once a writer comes (fifo(7)), which would hang the reader (status,
 * follow, stop, a log follower) for ever and then its exit. O_NONBLOCK makes the open return at
 * once; the fstat(2) after it tells a FIFO (or socket, device) apart, and that is refused.
 * O_NONBLOCK has no effect on reads of a regular file (open(2)).
 */
import { constants as fsc, promises as fsp, type Stats } from 'node:fs';

/**
 * Opens `file` (a real path) read-only, non-blocking, and returns the handle with its fstat.
 * Throws the open's error (ENOENT, EACCES, ELOOP with `noFollow`…), or EINVAL naming `shown`
 * when it is a FIFO, or (with `regularOnly`) anything but a regular file; the handle is closed then.
 */
export async function openForRead(file: string, shown: string, opts: { noFollow?: boolean; regularOnly?: boolean } = {}): Promise<{ handle: fsp.FileHandle; stat: Stats }> {
  const handle = await fsp.open(file, fsc.O_RDONLY | fsc.O_NOCTTY | fsc.O_NONBLOCK | (opts.noFollow ? fsc.O_NOFOLLOW : 0));
  try {
    const stat = await handle.stat();
    if (stat.isFIFO()) throw Object.assign(new Error(`${shown} is a FIFO (named pipe), not a file`), { code: 'EINVAL' });
    if (opts.regularOnly && !stat.isFile()) throw Object.assign(new Error(`${shown} is not a regular file`), { code: 'EINVAL' });
    return { handle, stat };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}
