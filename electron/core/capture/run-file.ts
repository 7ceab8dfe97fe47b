/**
 * Reading one of the capture companion's small state files in /run/k2s (capture-args.ts: the
 * ready, failed, unwritten and missed files) as small-file.ts reads: a regular file only, so a
 * FIFO there is not waited on (open(2) of a FIFO waits for a writer, fifo(7)), a link is not
 * followed (a link to /dev/zero would be endless), and no more than RUN_FILE_MAX_BYTES is read.
 */
import { readSmallFile } from './small-file';

/** The most a state file may hold, bytes: a pid, one failed or unwritten line, four missed lines. */
export const RUN_FILE_MAX_BYTES = 4096;

/** The text of the state file at the real path `file`; null when it is missing, unreadable, not a regular file or larger than RUN_FILE_MAX_BYTES. */
export async function readRunFile(file: string): Promise<string | null> {
  const got = await readSmallFile(file, file, RUN_FILE_MAX_BYTES);
  return 'text' in got ? got.text : null;
}
