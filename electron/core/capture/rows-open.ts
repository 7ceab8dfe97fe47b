/**
 * Opening the exact query log (`queries.jsonl`) or its rotated copy to read it back: only a
 * regular file is read (host/open-regular.ts openForRead: O_NONBLOCK, then fstat). A FIFO there
 * made a plain open(2) wait for a writer (fifo(7)): `k2s-dns queries` hung; a link to /dev/zero
 * or another device is endless, so the whole-file search never ended; a directory failed the
 * read (EISDIR). Such a file is read as missing.
 */
import type { promises as fsp } from 'node:fs';
import { openForRead } from '../host/open-regular';

/** A read handle on the regular file at the real path `file`, or null when it is missing, not readable or no regular file. */
export async function openRowsFile(file: string): Promise<fsp.FileHandle | null> {
  return openForRead(file, file, { regularOnly: true }).then(
    (o) => o.handle,
    () => null,
  );
}
