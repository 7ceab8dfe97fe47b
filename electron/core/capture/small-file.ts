/**
 * Reading a small root-written file the companion (root) is told about: its flags file and the
 * hold file (capture-args.ts). Never followed through a symbolic link (O_NOFOLLOW: ELOOP), never
 * blocked on a FIFO or device (open-regular.ts: O_NONBLOCK, then fstat), and never read past a
 * bound, so a link to /dev/zero or a huge file costs no memory and a FIFO no hang.
 */
import { openForRead } from '../host/open-regular';

/** The text of the regular file `file` (a real path), or an error whose message says why it was not read; `shown` names it there. */
export async function readSmallFile(file: string, shown: string, maxBytes: number): Promise<{ text: string } | { code: string; why: string }> {
  let opened;
  try {
    opened = await openForRead(file, shown, { noFollow: true, regularOnly: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const code = e.code ?? 'EIO';
    const why = code === 'ELOOP' ? `${shown} is a symbolic link (not followed)` : code === 'ENOENT' ? `${shown} does not exist` : e.code === 'EINVAL' ? e.message : `${shown} cannot be opened (${code})`;
    return { code, why };
  }
  const { handle, stat } = opened;
  try {
    if (stat.size > maxBytes) return { code: 'EFBIG', why: `${shown} is ${stat.size} bytes, more than the ${maxBytes} it may be` };
    // One byte past the bound: a file grown since the fstat is refused too.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > maxBytes) return { code: 'EFBIG', why: `${shown} is more than the ${maxBytes} bytes it may be` };
    }
    return { text: buf.subarray(0, n).toString('utf8') };
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code ?? 'EIO', why: `${shown} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
