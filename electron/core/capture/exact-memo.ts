/**
 * Keeps the last `logs:exact` answer while the files it was read from are unchanged: an open
 * Logs tab asks every 2 s (renderer/src/stores/logs.ts EXACT_POLL_MS), and a read parses up to
 * ~2 MB of rows (rows-reader.ts); a stat(2) of each file says whether anything changed. A file
 * is unchanged when its inode, size and mtime (ns) are (the companion only appends, and
 * rotation makes a new inode: rows-file.ts).
 */
import { stat } from 'node:fs/promises';

/** The memo: `get` answers from the kept value while `files` and `key` are as they were. */
export interface FileMemo<T> {
  /**
   * The kept value when `key` and the stat of every file in `files` (real paths) match the read
   * that made it, else `read()`'s; a value `keep` refuses (default: all kept) is not kept.
   */
  get(files: readonly string[], key: string, read: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
  /** How many times `read` ran (tests). */
  readonly reads: number;
}

/** "ino:size:mtimeNs" of `file`, or "-" when it cannot be stat'ed. */
async function fileStamp(file: string): Promise<string> {
  const st = await stat(file, { bigint: true }).catch(() => null);
  return st === null ? '-' : `${st.ino}:${st.size}:${st.mtimeNs}`;
}

/** Creates an empty memo. */
export function createFileMemo<T>(): FileMemo<T> {
  let kept: { stamp: string; value: T } | null = null;
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    async get(files, key, read, keep = () => true) {
      // Stamped before the read: a change during it makes the next stamp differ, so it is read again.
      const stamp = `${key}\n${(await Promise.all(files.map(fileStamp))).join('\n')}`;
      if (kept !== null && kept.stamp === stamp) return kept.value;
      reads++;
      const value = await read();
      kept = keep(value) ? { stamp, value } : null;
      return value;
    },
  };
}
