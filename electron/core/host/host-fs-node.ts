import { randomBytes } from 'node:crypto';
import { promises as fsp, constants as fsc, type Stats } from 'node:fs';
import path from 'node:path';
import type { HostFs, HostStat } from './host-fs';
import { openForRead } from './open-regular';

/** Symlink hops before resolution gives up with ELOOP (Linux's own limit, path_resolution(7)). */
const MAX_SYMLINK_HOPS = 40;

function isErrno(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as NodeJS.ErrnoException).code ?? '');
}

/** What an `other` is (stat(2) S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK), or undefined for a file, directory or link. */
function specialOf(st: Stats): HostStat['special'] {
  return st.isFIFO() ? 'fifo' : st.isSocket() ? 'socket' : st.isCharacterDevice() ? 'char-device' : st.isBlockDevice() ? 'block-device' : undefined;
}

function toHostStat(st: Stats): HostStat {
  const kind = st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
  const special = kind === 'other' ? specialOf(st) : undefined;
  return {
    kind,
    ...(special ? { special } : {}),
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
    size: st.size,
    ino: st.ino,
    mtimeMs: st.mtimeMs,
    birthtimeMs: st.birthtimeMs > 0 ? st.birthtimeMs : null,
  };
}

function assertAbsolute(hostPath: string): void {
  if (!hostPath.startsWith('/')) {
    throw new Error(`host path "${hostPath}" is not absolute; pass a path starting with "/".`);
  }
}

/** Temp name in the same directory, so rename(2) stays on one filesystem and is atomic. */
function tempSibling(realPath: string): string {
  const dir = path.dirname(realPath);
  return path.join(dir, `.${path.basename(realPath)}.k2s-tmp-${randomBytes(6).toString('hex')}`);
}

/**
 * The first `maxBytes` bytes of an open file (fewer at its end): read(2) from offset 0 until the
 * buffer is full or a read returns 0 bytes (its end), so a file that grows while read is cut at `maxBytes`.
 */
async function readBounded(handle: fsp.FileHandle, maxBytes: number): Promise<Buffer> {
  const buf = Buffer.alloc(maxBytes);
  let n = 0;
  while (n < buf.length) {
    const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return buf.subarray(0, n);
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, fsc.O_RDONLY | fsc.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A HostFs on the local filesystem with every host path mapped under `root` (use `/` on a real
 * host). Links are followed *inside* the root: an absolute target `/run/x` means `<root>/run/x`,
 * a relative one is resolved against the link's directory, so a temp root behaves like a chroot.
 */
export function createHostFs(root: string): HostFs {
  const absRoot = path.resolve(root);
  const real = (hostPath: string): string => {
    assertAbsolute(hostPath);
    return absRoot === '/' ? path.posix.normalize(hostPath) : path.join(absRoot, hostPath);
  };

  /** Resolves every symlink in `hostPath` within the root; returns a host path (may not exist). */
  async function resolveInRoot(hostPath: string): Promise<string> {
    assertAbsolute(hostPath);
    const pending = hostPath.split('/').filter((p) => p !== '');
    const done: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.shift() as string;
      if (part === '.') continue;
      if (part === '..') {
        done.pop(); // `..` at the root stays at the root, as in the kernel
        continue;
      }
      const candidate = '/' + [...done, part].join('/');
      let st: Stats;
      try {
        st = await fsp.lstat(real(candidate));
      } catch (err) {
        if (!isErrno(err, 'ENOENT', 'ENOTDIR')) throw err;
        // Missing component: the caller's fs call reports ENOENT on the joined path.
        return '/' + [...done, part, ...pending].join('/');
      }
      if (!st.isSymbolicLink()) {
        done.push(part);
        continue;
      }
      if (++hops > MAX_SYMLINK_HOPS) {
        throw Object.assign(new Error(`ELOOP: too many symbolic links resolving ${hostPath}`), { code: 'ELOOP' });
      }
      const target = await fsp.readlink(real(candidate));
      if (target.startsWith('/')) done.length = 0;
      pending.unshift(...target.split('/').filter((p) => p !== ''));
    }
    return '/' + done.join('/');
  }

  return {
    root: absRoot,
    real,

    async lstat(hostPath) {
      try {
        return toHostStat(await fsp.lstat(real(hostPath)));
      } catch (err) {
        if (isErrno(err, 'ENOENT', 'ENOTDIR')) return null;
        throw err;
      }
    },

    async stat(hostPath) {
      try {
        return toHostStat(await fsp.stat(real(await resolveInRoot(hostPath))));
      } catch (err) {
        if (isErrno(err, 'ENOENT', 'ENOTDIR', 'ELOOP')) return null;
        throw err;
      }
    },

    readlink(hostPath) {
      return fsp.readlink(real(hostPath));
    },

    realpath(hostPath) {
      return resolveInRoot(hostPath);
    },

    async readFile(hostPath, opts) {
      const file = real(await resolveInRoot(hostPath));
      // No reader of this interface wants a FIFO's bytes: one is refused, not waited on (open-regular.ts).
      const { handle } = await openForRead(file, hostPath);
      try {
        return opts?.maxBytes === undefined ? await handle.readFile() : await readBounded(handle, opts.maxBytes);
      } finally {
        await handle.close();
      }
    },

    async writeFileAtomic(hostPath, data, opts) {
      const target = real(hostPath);
      const tmp = tempSibling(target);
      // O_EXCL: never open something an attacker pre-created under the temp name.
      const handle = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o600);
      try {
        try {
          await handle.writeFile(data);
          if (opts.sync !== false) await handle.sync();
          // chmod after create: the create mode is masked by the umask.
          await handle.chmod(opts.mode);
          if (opts.uid !== undefined || opts.gid !== undefined) {
            await handle.chown(opts.uid ?? -1, opts.gid ?? -1);
          }
        } finally {
          await handle.close();
        }
        // rename(2) replaces the directory entry itself: an existing symlink is replaced, its
        // target is never written.
        await fsp.rename(tmp, target);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
      if (opts.sync !== false) await fsyncDir(path.dirname(target));
    },

    async symlinkAtomic(hostPath, target, opts = {}) {
      const linkPath = real(hostPath);
      const tmp = tempSibling(linkPath);
      await fsp.symlink(target, tmp);
      try {
        if (opts.uid !== undefined || opts.gid !== undefined) {
          await fsp.lchown(tmp, opts.uid ?? -1, opts.gid ?? -1);
        }
        await fsp.rename(tmp, linkPath);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
      await fsyncDir(path.dirname(linkPath));
    },

    async mkdirp(hostPath, mode) {
      assertAbsolute(hostPath);
      // Already a directory (the usual case: the state and run directories of every journal and
      // state write): one stat(2), where the loop's mkdir(2) per component each failed with an
      // EEXIST error object (~0.1–0.2 ms of CPU per call, 10+ calls in a start). The loop below
      // would create nothing there either: it only chmods what it created.
      if ((await fsp.stat(real(hostPath)).catch(() => null))?.isDirectory()) return;
      const parts = hostPath.split('/').filter((p) => p !== '');
      let current = '';
      for (const part of parts) {
        current += '/' + part;
        try {
          await fsp.mkdir(real(current), mode);
        } catch (err) {
          if (isErrno(err, 'EEXIST')) continue;
          throw err;
        }
        // Only directories we created get `mode`; existing ones keep their owner's choice.
        await fsp.chmod(real(current), mode);
      }
    },

    async remove(hostPath) {
      try {
        await fsp.unlink(real(hostPath));
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
      }
    },

    async append(hostPath, data, mode = 0o644) {
      const file = real(await resolveInRoot(hostPath));
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT | fsc.O_EXCL, mode);
        // We created it: give it `mode` exactly, not `mode & ~umask`.
        await handle.chmod(mode);
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
        handle = await fsp.open(file, fsc.O_WRONLY | fsc.O_APPEND);
      }
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
    },

    async readFileNoFollow(hostPath, opts) {
      const handle = await fsp.open(real(hostPath), fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK | fsc.O_NOCTTY);
      try {
        if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`${hostPath} is not a regular file`), { code: 'EINVAL' });
        return opts?.maxBytes === undefined ? await handle.readFile() : await readBounded(handle, opts.maxBytes);
      } finally {
        await handle.close();
      }
    },

    async chmodNoFollow(hostPath, mode) {
      // O_PATH is not exposed by Node: open the object itself with O_NOFOLLOW (O_RDONLY works for
      // files and directories alike) and fchmod the descriptor, so a swapped-in link is never followed.
      const handle = await fsp.open(real(hostPath), fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK | fsc.O_NOCTTY);
      try {
        await handle.chmod(mode);
      } finally {
        await handle.close();
      }
    },

    async readdir(hostPath) {
      try {
        return await fsp.readdir(real(hostPath));
      } catch (err) {
        if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
        throw err;
      }
    },
  };
}
