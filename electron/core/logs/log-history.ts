/**
 * The proxy log's whole history: the current file and the one rotated copy (`<log>.1`, the
 * rotation cap is 20 MiB per file), read as one sequence of lines, oldest in `.1`, newest at
 * the end of the current file.
 *
 *  - readPage: the `maxLines` lines before a cursor, newest page first, crossing from the
 *    current file into `.1`. A cursor names the file by its inode, so it still points at the
 *    same bytes after a rotation renamed `log` to `log.1`.
 *  - searchLog: one streaming pass over both files (fixed-size reads, never the whole file in
 *    memory), case-insensitive substring match, returning the match count and the newest
 *    matches with `context` lines around each (a dnsproxy -v query spans ~20 lines, so the
 *    query view can rebuild the matching queries from them).
 */
import { createReadStream, promises as fsp } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { LINE_MAX_BYTES, LineBuffer, cutMarker } from './line-buffer';
import { TAIL_CHUNK_BYTES, TAIL_DEFAULT_MAX_BYTES, logReadError } from './tail';
import { openForRead } from '../host/open-regular';

/** Where to continue paging back: lines that start before `offset` in the file with inode `ino`. */
export interface LogCursor {
  ino: number;
  offset: number;
}

/** One page of raw lines, oldest first. */
export interface RawPage {
  lines: string[];
  /** Cursor for the page before this one; null when the oldest line of the file set was reached. */
  older: LogCursor | null;
  /** Cursor just after the newest line returned (the follower may continue there); null when no file. */
  end: LogCursor | null;
  /** True when `before` named a file that is no longer in the set (rotated away twice). */
  lost: boolean;
  /** The files of the set that exist, oldest first (`<log>.1` only once rotation made it). */
  files: string[];
}

/** What searchLog found. */
export interface RawSearch {
  /** The newest matches and their context lines, oldest first (at most `maxLines`). */
  lines: string[];
  /** For each entry of `lines`: true when it matched (false: a context line). */
  matched: boolean[];
  /** Matching lines in the whole file set (excluded lines not counted). */
  matches: number;
  /** True when older matches were left out to keep `lines` within `maxLines`. */
  truncated: boolean;
  /** Bytes read, all files. */
  bytesScanned: number;
  /** Files searched, oldest first (only those that exist). */
  files: string[];
  /** Wall time of the search, ms. */
  tookMs: number;
}

interface FileInfo {
  path: string;
  ino: number;
  size: number;
}

function errnoOf(err: unknown): string {
  return typeof err === 'object' && err !== null ? ((err as NodeJS.ErrnoException).code ?? '') : '';
}

/** The file set newest first: `path`, then `path.1`; missing files are left out. */
export async function logFiles(path: string): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  for (const p of [path, `${path}.1`]) {
    try {
      const st = await fsp.stat(p);
      if (st.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
      // A FIFO (its open waits for a writer) or a device (a link to /dev/zero: a search without end) is no log.
      if (!st.isFile()) throw Object.assign(new Error(st.isFIFO() ? 'it is a FIFO (named pipe), not a file' : 'it is not a regular file'), { code: 'EINVAL' });
      out.push({ path: p, ino: st.ino, size: st.size });
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT') throw logReadError(p, err);
    }
  }
  return out;
}

/**
 * Reads up to `maxLines` complete lines that end at or before `end` in `file` (the byte at
 * `end - 1` is the LF of the last one, or `end` is the size of a file ending without LF).
 * Returns them oldest first with the offset where the first of them starts.
 */
async function linesBefore(file: string, end: number, maxLines: number): Promise<{ lines: string[]; start: number }> {
  // Non-blocking, a FIFO refused (open-regular.ts), as readTail opens it.
  const handle = await openForRead(file, 'it').then(
    (o) => o.handle,
    (err: unknown) => {
      throw logReadError(file, err);
    },
  );
  try {
    const chunks: Buffer[] = [];
    let pos = end;
    let lfs = 0;
    // Count LFs that begin a line inside what was read (the LF at end-1 ends the last line).
    while (pos > 0 && lfs < maxLines && end - pos < TAIL_DEFAULT_MAX_BYTES) {
      const len = Math.min(TAIL_CHUNK_BYTES, pos);
      const buf = Buffer.allocUnsafe(len);
      const { bytesRead } = await handle.read(buf, 0, len, pos - len);
      if (bytesRead !== len) break;
      pos -= len;
      chunks.unshift(buf);
      const limit = pos + len === end ? len - 1 : len;
      for (let i = buf.indexOf(0x0a); i !== -1 && i < limit; i = buf.indexOf(0x0a, i + 1)) lfs += 1;
    }
    const data = Buffer.concat(chunks);
    // Walk back from the end over at most maxLines lines; the final LF ends the last line.
    let lineEnd = data.length > 0 && data[data.length - 1] === 0x0a ? data.length - 1 : data.length;
    let start = data.length;
    for (let count = 0; count < maxLines; count++) {
      const lf = lineEnd > 0 ? data.lastIndexOf(0x0a, lineEnd - 1) : -1;
      if (lf === -1) {
        // The line at data[0] is whole only when the read reached the start of the file.
        // Also past the 8 MiB cap with no LF found: one runaway line, shown cut (LineBuffer).
        if (pos === 0 || start === data.length) start = 0;
        break;
      }
      start = lf + 1;
      lineEnd = lf;
    }
    const splitter = new LineBuffer();
    const lines = splitter.push(data.subarray(start));
    const last = splitter.flush();
    if (last !== null) lines.push(last);
    return { lines, start: pos + start };
  } catch (err) {
    throw logReadError(file, err);
  } finally {
    await handle.close();
  }
}

/**
 * The `maxLines` lines before `before` (default: the end of the current file) across the file
 * set, oldest first. Blank lines count as lines. Throws LogReadError for an unreadable file.
 */
export async function readPage(path: string, maxLines: number, before?: LogCursor): Promise<RawPage> {
  const files = await logFiles(path);
  if (files.length === 0) return { lines: [], older: null, end: null, lost: false, files: [] };
  const existing = files.map((f) => f.path).reverse();
  let idx = 0;
  let offset = files[0]!.size;
  if (before) {
    idx = files.findIndex((f) => f.ino === before.ino);
    if (idx === -1) return { lines: [], older: null, end: null, lost: true, files: existing };
    offset = Math.min(before.offset, files[idx]!.size);
  }
  const end: LogCursor = { ino: files[idx]!.ino, offset };
  let lines: string[] = [];
  let older: LogCursor | null = null;
  while (idx < files.length) {
    const f = files[idx]!;
    const need = maxLines - lines.length;
    const got = offset > 0 ? await linesBefore(f.path, offset, need) : { lines: [], start: 0 };
    lines = [...got.lines, ...lines];
    if (got.start > 0) {
      older = { ino: f.ino, offset: got.start };
      break;
    }
    idx += 1;
    if (idx < files.length) {
      offset = files[idx]!.size;
      if (lines.length >= maxLines) {
        older = { ino: files[idx]!.ino, offset };
        break;
      }
    }
  }
  return { lines, older, end, lost: false, files: existing };
}

/** Escapes a text for use as a literal inside a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Options of searchLog. */
export interface SearchOptions {
  /** Lines returned at most (matches and context; the newest are kept). */
  maxLines: number;
  /** Lines kept before and after each match. */
  context: number;
  /** Lines never counted or returned as matches (e.g. health probe lines); they may be context. */
  exclude?: (line: string) => boolean;
}

/** Drops a trailing CR (CRLF logs) and cuts a runaway line as the line splitter does. */
function clean(line: string): string {
  const l = line.endsWith('\r') ? line.slice(0, -1) : line;
  return l.length > LINE_MAX_BYTES ? l.slice(0, LINE_MAX_BYTES) + cutMarker(l.length - LINE_MAX_BYTES) : l;
}

/** Bytes of one read while searching. */
const SEARCH_READ_BYTES = 4 * 1024 * 1024;

/**
 * Searches `text` (case-insensitive, literal) in every line of the file set, oldest file first,
 * streaming each file in 4 MiB reads: the pattern runs over each decoded block as a whole and
 * only the lines it hits are cut out (a per-line split of 20 MiB costs ~1 s; this ~0.1 s).
 * Throws LogReadError for an unreadable file.
 */
export async function searchLog(path: string, text: string, opts: SearchOptions): Promise<RawSearch> {
  const t0 = performance.now();
  const files = (await logFiles(path)).reverse();
  const re = new RegExp(literal(text), 'gi');
  const out: string[] = [];
  const matched: boolean[] = [];
  let matches = 0;
  let truncated = false;
  let bytesScanned = 0;
  const ctx = Math.max(0, opts.context);
  // After-context lines still owed to the last match.
  let after = 0;
  const keep = (line: string, isMatch: boolean) => {
    out.push(clean(line));
    matched.push(isMatch);
    if (out.length > opts.maxLines * 2) {
      const drop = out.length - opts.maxLines;
      out.splice(0, drop);
      matched.splice(0, drop);
      truncated = true;
    }
  };
  /** Lines of `block` in [a, b) (whole lines, each ending in LF) that no match claimed: owed after-context, then before-context for a match at b. */
  const gap = (block: string, a: number, b: number, before: boolean) => {
    while (after > 0 && a < b) {
      const lf = block.indexOf('\n', a);
      keep(block.slice(a, lf), false);
      after -= 1;
      a = lf + 1;
    }
    if (!before || ctx === 0 || a >= b) return a;
    let from = b - 1; // the LF ending the line before b
    let n = 0;
    while (n < ctx && from > a) {
      const lf = block.lastIndexOf('\n', from - 1);
      if (lf < a - 1) {
        from = a - 1;
        n += 1;
        break;
      }
      from = lf;
      n += 1;
    }
    const start = Math.max(a, from + 1);
    for (let p = start; p < b; ) {
      const lf = block.indexOf('\n', p);
      keep(block.slice(p, lf), false);
      p = lf + 1;
    }
    return b;
  };
  /** Scans one block of whole lines; `from` is where new text starts (before it: carried before-context). Returns the unclaimed tail's last `ctx` lines. */
  const scan = (block: string, from: number): string => {
    let pos = 0;
    re.lastIndex = from;
    for (let m = re.exec(block); m !== null; m = re.exec(block)) {
      const ls = block.lastIndexOf('\n', m.index - 1) + 1;
      const le = block.indexOf('\n', m.index);
      const line = block.slice(ls, le);
      re.lastIndex = le + 1;
      if (line.includes('\n') || (opts.exclude?.(line) ?? false)) continue;
      matches += 1;
      gap(block, pos, ls, true);
      keep(line, true);
      after = ctx;
      pos = le + 1;
    }
    pos = gap(block, pos, block.length, false);
    if (ctx === 0 || pos >= block.length) return '';
    // Keep the last ctx lines as before-context for the next block.
    let cut = block.length - 1;
    for (let n = 0; n < ctx && cut > pos; n++) {
      const lf = block.lastIndexOf('\n', cut - 1);
      cut = lf < pos ? pos - 1 : lf;
    }
    return block.slice(Math.max(pos, cut + 1));
  };
  for (const f of files) {
    let carry: Buffer = Buffer.alloc(0);
    let prefix = '';
    after = 0; // context does not run across files
    try {
      for await (const chunk of createReadStream(f.path, { highWaterMark: SEARCH_READ_BYTES })) {
        const buf = chunk as Buffer;
        bytesScanned += buf.length;
        const lastLf = buf.lastIndexOf(0x0a);
        if (lastLf === -1) {
          carry = Buffer.concat([carry, buf]);
          continue;
        }
        const whole = carry.length ? Buffer.concat([carry, buf.subarray(0, lastLf + 1)]) : buf.subarray(0, lastLf + 1);
        carry = Buffer.from(buf.subarray(lastLf + 1));
        prefix = scan(prefix + whole.toString('utf8'), prefix.length);
      }
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') continue; // rotated away between stat and open
      throw logReadError(f.path, err);
    }
    if (carry.length) scan(`${prefix}${carry.toString('utf8')}\n`, prefix.length);
  }
  if (out.length > opts.maxLines) {
    const drop = out.length - opts.maxLines;
    out.splice(0, drop);
    matched.splice(0, drop);
    truncated = true;
  }
  return { lines: out, matched, matches, truncated, bytesScanned, files: files.map((f) => f.path), tookMs: performance.now() - t0 };
}
