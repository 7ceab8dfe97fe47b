/**
 * The exact query log's rows parsed once and kept while the Logs panel pages back through them
 * (`logs:exact` with `before`, issue 20: every page parsed both files whole again, up to 2 × 10
 * MiB). The rotated copy `<file>.1` does not change once written (rotation renames the current
 * file to it: query-log.ts); the current file is only appended to (rows-file.ts). So a page
 * re-reads nothing while no file changed and parses only the appended bytes of the current file;
 * a new inode (rotation), a shrunk file or a changed `.1` is parsed again whole. Each file is read
 * from at most its last OLDER_READ_BYTES (rows-reader.ts), as before.
 */
import { rotatedLogPath } from '../host/query-log';
import type { CapturedQuery } from './pairing';
import { parserLine } from './pipeline';
import { openRowsFile } from './rows-open';

/**
 * A row line of the file with its query time, read by a scan for its `"queryUs":` key: the line
 * is parsed (pipeline.ts parserLine) only when a page returns it (JSON.parse of every line of
 * 2 × 10 MiB was most of a page's cost; the lines are slices of the file's text).
 */
export interface RowLine {
  queryUs: number;
  line: string;
}

/** One file's row lines (file order) and where its read ended. */
interface FileRows {
  ino: bigint;
  /** Byte offset of the first byte not parsed yet (after the last LF read). */
  end: number;
  /** Byte offset the parse began at (0: the file's first byte). */
  start: number;
  /** mtime (ns) at the last read: a `.1` with another mtime or size was replaced. */
  mtimeNs: bigint;
  rows: RowLine[];
}

/** What the index holds for a rows file and its `.1`. */
export interface IndexedRows {
  /** Every row line of `.1` then the current file, oldest query first (stable on ties: file order). */
  sorted: RowLine[];
  /** True when each file was parsed from its first byte (or is missing): `sorted` begins at the log's first row. */
  whole: boolean;
  /** False when neither file can be opened. */
  present: boolean;
}

/** The kept parse of one exact log. */
export interface RowsIndex {
  /** The rows of the exact log at the real path `file` and its `.1`, parsing only what changed since the last call. */
  rows(file: string): Promise<IndexedRows>;
  /** Lines read so far (tests, the bench). */
  readonly parsedLines: number;
  /** Drops what is kept (the memory of up to ~70,000 rows). */
  clear(): void;
}

/** A row's query time as JSON.stringify writes it (rows-file.ts); a quote inside a string is escaped, so only the key matches. */
const QUERY_US = /"queryUs":(\d+)[,}]/;

/**
 * The newest `limit` rows of `sorted[0, end)` that parse as rows (parserLine: a cut or foreign
 * line is skipped), oldest first, and whether they reach `sorted[0]`.
 */
export function pageBefore(sorted: readonly RowLine[], end: number, limit: number): { rows: CapturedQuery[]; fromFirst: boolean } {
  const rows: CapturedQuery[] = [];
  let i = end;
  while (i > 0 && rows.length < limit) {
    const v = parserLine(sorted[--i]!.line);
    if (v !== null && !('counts' in v)) rows.push(v);
  }
  // Rows with no valid line before them: the page reaches the log's first row.
  let j = i;
  while (j > 0 && rows.length === limit) {
    const v = parserLine(sorted[j - 1]!.line);
    if (v !== null && !('counts' in v)) break;
    j--;
  }
  return { rows: rows.reverse(), fromFirst: j === 0 };
}

/** The index of the rows asked at or before `before` µs in `sorted` (exclusive end): the page ends there. */
export function endAtOrBefore(sorted: readonly RowLine[], before: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.queryUs <= before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Creates an empty index; files are read from at most their last `maxBytes` each. Kept until
 * `idleMs` pass without a call (a panel paging back asks again within seconds), then dropped.
 */
export function createRowsIndex(maxBytes: number, idleMs = 60_000): RowsIndex {
  const files = new Map<string, FileRows>();
  let merged: { stamp: string; value: IndexedRows } | null = null;
  let parsedLines = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const clear = () => {
    files.clear();
    merged = null;
  };

  /** Parses `file` from where the kept parse ended, or whole when it was replaced; null when it cannot be opened. */
  async function update(file: string): Promise<FileRows | null> {
    const fh = await openRowsFile(file);
    if (!fh) {
      files.delete(file);
      return null;
    }
    try {
      const st = await fh.stat({ bigint: true });
      const size = Number(st.size);
      let kept = files.get(file);
      const appendedTo = kept !== undefined && kept.ino === st.ino && size >= kept.end && (kept.mtimeNs === st.mtimeNs || size > kept.end) && size - kept.start <= maxBytes;
      if (!appendedTo) kept = { ino: st.ino, start: Math.max(0, size - maxBytes), end: Math.max(0, size - maxBytes), mtimeNs: st.mtimeNs, rows: [] };
      const k = kept!;
      if (size > k.end) {
        const buf = Buffer.alloc(size - k.end);
        const { bytesRead } = await fh.read(buf, 0, buf.length, k.end);
        const lastLf = buf.lastIndexOf(10, bytesRead - 1);
        if (lastLf >= 0) {
          const lines = buf.toString('utf8', 0, lastLf).split('\n');
          // Read from inside the file (its last maxBytes): the first line is cut.
          if (k.end === k.start && k.start > 0) lines.shift();
          for (const l of lines) {
            if (l === '') continue;
            parsedLines++;
            const us = QUERY_US.exec(l);
            if (us) k.rows.push({ queryUs: Number(us[1]), line: l });
          }
          k.end += lastLf + 1;
        }
      }
      k.mtimeNs = st.mtimeNs;
      files.set(file, k);
      return k;
    } finally {
      await fh.close();
    }
  }

  return {
    get parsedLines() {
      return parsedLines;
    },
    clear,
    async rows(file) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(clear, idleMs);
      timer.unref?.();
      const older = await update(rotatedLogPath(file));
      const current = await update(file);
      const stamp = [older, current].map((f) => (f ? `${f.ino}:${f.start}:${f.end}:${f.rows.length}` : '-')).join(' ');
      if (merged?.stamp === stamp) return merged.value;
      // A row is written when its query ends (a timeout lands after later queries): ordered by the
      // query's time; the files are nearly in order, which the stable sort (TimSort) does in ~one pass.
      const sorted = [...(older?.rows ?? []), ...(current?.rows ?? [])].sort((a, b) => a.queryUs - b.queryUs);
      const value = { sorted, whole: (older?.start ?? 0) === 0 && (current?.start ?? 0) === 0, present: older !== null || current !== null };
      merged = { stamp, value };
      return value;
    },
  };
}

