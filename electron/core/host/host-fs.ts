/**
 * Filesystem access to the host, with every absolute host path mapped under `root`
 * (`/` on a real host, a temp dir in unit tests). Symlink targets are stored and written as
 * exact strings: they are never rewritten with the root prefix.
 *
 * Implemented in host-fs-node.ts.
 */
export interface HostStat {
  kind: 'file' | 'symlink' | 'dir' | 'other';
  /** For `other`: which special file it is (stat(2) st_mode); absent when unknown. */
  special?: 'fifo' | 'socket' | 'char-device' | 'block-device';
  /** st_mode & 0o7777 */
  mode: number;
  uid: number;
  gid: number;
  size: number;
  /** st_ino, to detect a replaced file. */
  ino: number;
  /** mtime in ms since the epoch. */
  mtimeMs: number;
  /**
   * Birth time (statx(2) stx_btime) in ms since the epoch: set when the inode is made and never
   * changed by a write, so with `ino` it tells a file rewritten in place from a new one that got
   * a freed inode number again. null (or absent) when the file system keeps none (statx gives 0).
   * Node reads it with statx(2) (Linux 4.11+; Node 20 supports Linux 4.18+, its BUILDING.md):
   * only without statx would libuv report the ctime here (src/unix/fs.c uv__to_stat).
   */
  birthtimeMs?: number | null;
}

/** Host filesystem operations used by the lifecycle; paths are absolute host paths. */
export interface HostFs {
  /** The root prefix (`/` for the real host). */
  readonly root: string;
  /** Maps an absolute host path to the real path on this machine. */
  real(hostPath: string): string;
  /** lstat(2); null when the path does not exist. */
  lstat(hostPath: string): Promise<HostStat | null>;
  /** stat(2) following links; null when missing or dangling. */
  stat(hostPath: string): Promise<HostStat | null>;
  /** readlink(2): the exact target string. */
  readlink(hostPath: string): Promise<string>;
  /**
   * The host path with every symlink in it resolved inside the root (realpath(3), path_resolution(7)):
   * `/usr/local/bin/dnsproxy` → `/opt/dnsproxy/dnsproxy`. From the first missing component on, the
   * rest is kept as given (no ENOENT). Throws ELOOP after 40 links.
   */
  realpath(hostPath: string): Promise<string>;
  /**
   * Reads bytes, following links. Throws ENOENT when missing, ELOOP for a link loop. With
   * `maxBytes`, reads at most that many from the start (a huge file is never read whole).
   * Never blocks on a FIFO: opened non-blocking and refused with EINVAL.
   */
  readFile(hostPath: string, opts?: { maxBytes?: number }): Promise<Buffer>;
  /**
   * Writes bytes atomically: a temp file in the same directory, fsync, chmod/chown, rename
   * over `hostPath`, fsync of the directory. Never writes through an existing symlink: the
   * link itself is replaced. `sync: false` leaves out both fsyncs (still atomic for readers:
   * the rename), for a file whose loss in a crash costs only a view, never a restore
   * (start-checks.json): each fsync waits for the disk (start waited 0–19 ms for this write after
   * its result on a booted Debian 13 host at load 6–8).
   */
  writeFileAtomic(hostPath: string, data: Buffer | string, opts: { mode: number; uid?: number; gid?: number; sync?: boolean }): Promise<void>;
  /** Atomically replaces `hostPath` with a symlink whose target is exactly `target`. */
  symlinkAtomic(hostPath: string, target: string, opts?: { uid?: number; gid?: number }): Promise<void>;
  /** mkdir -p with the given mode for the directories it creates. */
  mkdirp(hostPath: string, mode: number): Promise<void>;
  /** Removes a file or link; no error when missing. */
  remove(hostPath: string): Promise<void>;
  /** Appends bytes (creates the file with `mode` when missing). */
  append(hostPath: string, data: string, mode?: number): Promise<void>;
  /** Directory entries; [] when missing. */
  readdir(hostPath: string): Promise<string[]>;
  /**
   * Reads a regular file opened with O_NOFOLLOW (a symlink at `hostPath` itself fails with
   * ELOOP; a FIFO or device is refused with ENOTREG-like EINVAL). Throws ENOENT when missing.
   * With `maxBytes`, reads at most that many from the start (a huge file is never read whole).
   */
  readFileNoFollow(hostPath: string, opts?: { maxBytes?: number }): Promise<Buffer>;
  /** chmod(2) of a file or directory that is not a symlink (throws ELOOP for a symlink). */
  chmodNoFollow(hostPath: string, mode: number): Promise<void>;
}
