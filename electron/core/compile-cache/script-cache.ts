/**
 * Loads a CommonJS vendor script (dist/vendor-*.cjs, scripts/build.mjs) with a V8 code cache:
 * the compiled code of its last run (vm.Script `cachedData`, Node vm docs) replaces most of the
 * parse and compile that otherwise dominates loading @kubernetes/client-node (~120 ms of CPU on
 * the 2-core test bed, CPU profile). Node 20 has no compile cache for ES modules
 * (`module.enableCompileCache` is Node ≥ 22.1), hence a CommonJS script run through vm.
 *
 * The cache is best-effort and trusted only when only this user could have written it — V8
 * code cache is executable code, not data to parse defensively:
 *  - the directory (cache-dir.ts) is created 0700, and used only when it is a real directory
 *    (not a symlink) owned by the effective uid with no group/other write bit;
 *  - a cache file is opened O_NOFOLLOW and used only when it is a regular file owned by the
 *    effective uid, without group/other write, smaller than MAX_CACHE_BYTES;
 *  - its name carries a hash of the script file's identity (size, mtime, ctime, inode: a
 *    rebuild or reinstall changes them; hashing 2 MB of source would cost ~13 ms) and of the
 *    runtime (Node, V8, arch), so another build or runtime never reads it; V8 itself rejects
 *    data that does not match (version, flags, source length, checksum) — a corrupt or stale
 *    file is then ignored and rewritten;
 *  - a new file is written to a temporary name (O_EXCL, 0600) and renamed into place, so a
 *    reader never sees half a file; any failure only means no cache.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, constants as fsc, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/** Largest cache file read, bytes (client-node's is ~2–4 MB). */
export const MAX_CACHE_BYTES = 64 * 2 ** 20;

/** What happened to the cache on one load: used, made (or to be made at exit: CacheOptions.writeAt), unusable (V8 rejected it: rewritten), or not used at all. */
export type CacheOutcome = 'hit' | 'written' | 'rejected' | 'off';

/** The script's module.exports and what the cache did. */
export interface LoadedScript {
  exports: unknown;
  cache: CacheOutcome;
}

/** Whether `st` belongs to `euid` alone as far as writing goes (owner, no group/other write). */
const ownedAlone = (st: { uid: number; mode: number }, euid: number) => st.uid === euid && (st.mode & 0o022) === 0;

/** `dir` created (0700, parents too) when missing; null unless it is a real directory `euid` alone may write. */
export function usableCacheDir(dir: string | null, euid: number): string | null {
  if (!dir) return null;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && ownedAlone(st, euid) ? dir : null;
  } catch {
    return null;
  }
}

/** The cache file's bytes when it is `euid`'s own regular file (never through a symlink), else undefined. */
function readTrusted(path: string, euid: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, fsc.O_RDONLY | fsc.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || !ownedAlone(st, euid) || st.size === 0 || st.size > MAX_CACHE_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) return undefined;
      at += n;
    }
    return buf;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` as `path` atomically (temp name O_EXCL 0600, rename); removes the script's older cache files. Errors are ignored. */
function writeCache(path: string, data: Buffer, stem: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
    try {
      let at = 0;
      while (at < data.length) at += writeSync(fd, data, at, data.length - at);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
    return;
  }
  // Caches of earlier builds of the same script are never read again.
  try {
    for (const f of readdirSync(dirname(path))) if (f.startsWith(`${stem}.`) && f.endsWith('.v8cache') && join(dirname(path), f) !== path) rmSync(join(dirname(path), f), { force: true });
  } catch {
    // best-effort
  }
}

/** What identifies one build of a script file (fs.Stats fields, ns where the kernel has them). */
export interface ScriptIdentity {
  size: number | bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: number | bigint;
}

/** The cache file name for script `stem` with `id` on this runtime. */
export function cacheFileName(stem: string, id: ScriptIdentity): string {
  const key = createHash('sha256')
    .update(`${id.size}\0${id.mtimeNs}\0${id.ctimeNs}\0${id.ino}\0${process.version}\0${process.versions.v8}\0${process.arch}`)
    .digest('hex')
    .slice(0, 16);
  return `${stem}.${key}.v8cache`;
}

/** Options of loadCachedScript. */
export interface CacheOptions {
  /**
   * The cache's own name (default: the script's file name). One script run for different jobs
   * keeps one cache per job (the CLI script: one per verb), each holding the code that job ran.
   */
  name?: string;
  /**
   * When a missing or rejected cache is written: `load` (default) right after the script's
   * top level ran; `exit` when the process exits (its 'exit' event), so the functions the
   * program compiled while it ran are in the cache too, not only those of loading.
   */
  writeAt?: 'load' | 'exit';
  /**
   * With `exit`: whether this run's cache is worth keeping, asked with the exit status
   * (default: always). A cache is written once and then read by every later run, so a run that
   * took a short path (help, a refusal) should leave none: the next run writes it (full-run.ts).
   */
  keepIf?: (exitCode: number) => boolean;
}

/**
 * Runs CommonJS script `file` (absolute path) as a module of its own and returns its exports,
 * with the code cache in `cacheDir` (null: none) belonging to `euid`. Throws what loading the
 * script itself throws, and an Error when `file` is not a regular file (never blocks on a FIFO).
 */
export function loadCachedScript(file: string, cacheDir: string | null, euid: number, opts: CacheOptions = {}): LoadedScript {
  // One descriptor for the identity and the bytes, so both describe the same file. The build
  // writes vendor scripts as ASCII (esbuild charset): decoded as latin1, a one-byte string
  // without UTF-8 decoding; any other text is decoded as UTF-8.
  // O_NONBLOCK: the open of a FIFO returns at once instead of waiting for a writer (fifo(7));
  // anything but a regular file (a FIFO, a device: a link to /dev/zero) is refused before a read.
  const fd = openSync(file, fsc.O_RDONLY | fsc.O_NONBLOCK);
  let source: string;
  let id: ScriptIdentity;
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw new Error('it is not a regular file');
    id = { size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino };
    const bytes = readFileSync(fd);
    source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  } finally {
    closeSync(fd);
  }
  const dir = usableCacheDir(cacheDir, euid);
  const stem = opts.name ?? basename(file);
  const cachePath = dir ? join(dir, cacheFileName(stem, id)) : null;
  const cachedData = cachePath ? readTrusted(cachePath, euid) : undefined;
  // The CommonJS wrapper Node itself uses (Module.wrap), so the script sees the usual five names.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (!cachePath) return { exports: module.exports, cache: 'off' };
  if (cachedData && !script.cachedDataRejected) return { exports: module.exports, cache: 'hit' };
  // After the run, so the functions the script compiled while loading are in the cache too
  // (with `exit`, also those it compiled later; writeCache never throws).
  if (opts.writeAt === 'exit') {
    const keepIf = opts.keepIf;
    process.once('exit', (code) => {
      if (!keepIf || keepIf(code)) writeCache(cachePath, script.createCachedData(), stem);
    });
  }
  else writeCache(cachePath, script.createCachedData(), stem);
  return { exports: module.exports, cache: cachedData ? 'rejected' : 'written' };
}
