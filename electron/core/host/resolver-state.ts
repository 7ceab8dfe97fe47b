/**
 * Exact save and restore of /etc/resolv.conf (docs/host-facts.md "Host resolver traps"): bytes, mode,
 * owner and immutable flag of a regular file, or the exact readlink(2) string of a symlink.
 * Restores replace the entry by rename inside /etc and never write through a link.
 */
import { notFileWords, type NotFileKind } from '../../../shared/not-a-file';
import { K2S_PATHS, MANAGED_HEADER } from '../../../shared/k2s-paths';
import { MAX_RESOLVER_BYTES, RESOLVER_READ_BYTES } from '../../../shared/network-writer';
import type { ResolverEntry } from '../../../shared/types';
import { lstatSync } from 'node:fs';
import type { Exec, ExecResult } from './exec';
import type { HostFs } from './host-fs';

export { sameResolver, describeResolverChanges } from '../../../shared/resolver-compare';
export { readState, writeState, removeState } from './state-store';
export type { ResolverStateFile } from '../../../shared/state-file';

/**
 * Parses `lsattr -d FILE` output (`----i---------e------- /etc/resolv.conf`): true when the flag
 * field has `i` (chattr(1): immutable). null when the output has no flag field.
 */
export function parseLsattrImmutable(stdout: string): boolean | null {
  const flags = stdout.trim().split(/\s+/)[0];
  if (!flags || !/^[-a-zA-Z]+$/.test(flags)) return null;
  return flags.includes('i');
}

/**
 * Parses the flag field of `lsattr -d` into the two flags that make rename(2) over the file
 * fail with EPERM (chattr(1): `i` immutable, `a` append only). null when there is no flag field.
 */
export function parseLsattrFlags(stdout: string): { immutable: boolean; appendOnly: boolean } | null {
  const flags = stdout.trim().split(/\s+/)[0];
  if (!flags || !/^[-a-zA-Z]+$/.test(flags)) return null;
  return { immutable: flags.includes('i'), appendOnly: flags.includes('a') };
}

/** The append-only flag (`chattr +a`) via `lsattr -d`; false when lsattr cannot tell. */
export async function readAppendOnly(fs: HostFs, exec: Exec, hostPath: string): Promise<boolean> {
  const r = await lsattr(exec, fs.real(hostPath)).catch(() => null);
  return r !== null && r.code === 0 && parseLsattrFlags(r.stdout)?.appendOnly === true;
}

/** One `lsattr -d` answer per file version, per Exec: see lsattr below. */
const lsattrCache = new WeakMap<Exec, Map<string, { key: string; result: Promise<ExecResult> }>>();

/**
 * `lsattr -d realPath`, run once per version of the file: the answer is reused while the file's
 * device, inode and ctime are unchanged — chattr(1) changes the flags with the FS_IOC_SETFLAGS
 * ioctl, which updates the inode's ctime (ioctl_iflags(2)), so a reused answer is never stale.
 * Status reads and health checks then spawn no process while nothing changed.
 */
function lsattr(exec: Exec, realPath: string): Promise<ExecResult> {
  let key: string | null = null;
  try {
    const st = lstatSync(realPath, { bigint: true });
    key = `${st.dev}:${st.ino}:${st.ctimeNs}`;
  } catch {
    key = null; // cannot tell the version: ask every time
  }
  const perExec = lsattrCache.get(exec) ?? new Map<string, { key: string; result: Promise<ExecResult> }>();
  lsattrCache.set(exec, perExec);
  const hit = key === null ? undefined : perExec.get(realPath);
  if (hit && hit.key === key) return hit.result;
  const result = exec.run('lsattr', ['-d', realPath], { timeoutMs: 5000 });
  if (key !== null) perExec.set(realPath, { key, result });
  // A failed run (lsattr missing, timeout) is not kept: the next read asks again.
  result.catch(() => {
    if (perExec.get(realPath)?.result === result) perExec.delete(realPath);
  });
  return result;
}

/** Reads the immutable flag via `lsattr -d`; `{immutable:false, note}` when lsattr cannot tell. */
export async function readImmutable(fs: HostFs, exec: Exec, hostPath: string): Promise<{ immutable: boolean; note: string | null }> {
  const realPath = fs.real(hostPath);
  let result;
  try {
    result = await lsattr(exec, realPath);
  } catch (err) {
    return { immutable: false, note: `lsattr could not run (${(err as Error).message}); assumed ${hostPath} is not immutable.` };
  }
  const parsed = result.code === 0 ? parseLsattrImmutable(result.stdout) : null;
  if (parsed === null) {
    // tmpfs and overlayfs (temp roots, containers) do not support attributes: lsattr fails.
    const why = result.stderr.trim() || `exit ${result.code}`;
    return { immutable: false, note: `lsattr -d ${hostPath} gave no flags (${why}); assumed not immutable.` };
  }
  return { immutable: parsed, note: null };
}

/**
 * What captureResolver throws when `hostPath` is a directory, FIFO, socket or device: no resolver
 * file and no symlink, so there is nothing to capture. `what`: its kind (shared/not-a-file.ts);
 * start refuses with NOT_RESOLVER_FILE on it (lifecycle/preflight.ts), nothing changed.
 */
export class NotResolverEntryError extends Error {
  constructor(
    readonly hostPath: string,
    readonly what: NotFileKind,
  ) {
    super(`${hostPath} is ${notFileWords(what)}, not a resolver file or a symlink to one; replace it with a regular resolv.conf and retry.`);
    this.name = 'NotResolverEntryError';
  }
}

/**
 * captureResolver plus notes, one sentence each (e.g. lsattr unavailable). Throws
 * NotResolverEntryError for a directory or special file. `maxBytes`: read at most that many bytes of the file; default RESOLVER_READ_BYTES
 * (64 KiB + 1), so a huge file is never read whole: a file cut so is larger than any resolver
 * file (isOversize) and is never saved or followed. `immutableFlag: false`: lsattr is not run and
 * a file's `immutable` is false whatever its flag — for an entry that is only compared
 * (sameResolver and describeResolverChanges leave the flag out) or judged by its bytes, mode and
 * owner, never saved: stop's restore, whose lsattr answers nothing read (two processes on its path).
 */
export async function captureResolverWithNotes(
  fs: HostFs,
  exec: Exec,
  hostPath: string = K2S_PATHS.resolvConf,
  opts: { maxBytes?: number; immutableFlag?: boolean } = {},
): Promise<{ entry: ResolverEntry; notes: string[] }> {
  const read = { maxBytes: Math.min(opts.maxBytes ?? RESOLVER_READ_BYTES, RESOLVER_READ_BYTES) };
  const st = await fs.lstat(hostPath);
  if (st === null) return { entry: { kind: 'absent' }, notes: [] };
  if (st.kind === 'symlink') {
    const target = await fs.readlink(hostPath);
    // HostFs follows links inside its root, so relative targets resolve against /etc there.
    const targetStat = await fs.stat(hostPath);
    let targetContentBase64: string | null = null;
    const notes: string[] = [];
    if (targetStat?.kind === 'file') {
      try {
        targetContentBase64 = (await fs.readFile(hostPath, read)).toString('base64');
      } catch (err) {
        notes.push(`could not read the target of ${hostPath} (${(err as Error).message}); saved the link only.`);
      }
    }
    return {
      entry: { kind: 'symlink', target, uid: st.uid, gid: st.gid, dangling: targetStat === null, targetContentBase64 },
      notes,
    };
  }
  if (st.kind !== 'file') {
    throw new NotResolverEntryError(hostPath, { kind: st.kind, ...(st.special ? { special: st.special } : {}) });
  }
  const bytes = await fs.readFile(hostPath, read);
  const { immutable, note } = opts.immutableFlag === false ? { immutable: false, note: null } : await readImmutable(fs, exec, hostPath);
  return {
    entry: { kind: 'file', contentBase64: bytes.toString('base64'), mode: st.mode, uid: st.uid, gid: st.gid, immutable },
    notes: note ? [note] : [],
  };
}

/** Captures /etc/resolv.conf exactly: a regular file, a symlink (exact target string) or absent (`maxBytes`, `immutableFlag`: as captureResolverWithNotes). */
export async function captureResolver(fs: HostFs, exec: Exec, opts: { maxBytes?: number; immutableFlag?: boolean } = {}): Promise<ResolverEntry> {
  return (await captureResolverWithNotes(fs, exec, K2S_PATHS.resolvConf, opts)).entry;
}

/**
 * Recreates `entry` at /etc/resolv.conf by rename inside /etc (file: bytes, mode, owner;
 * symlink: exact target string and owner; absent: removed). Does not set `chattr +i`: the
 * caller does that for `entry.immutable` after this returns. Throws with the fix when /etc
 * refuses the rename (immutable file, bind mount).
 */
export async function restoreResolver(fs: HostFs, entry: ResolverEntry, hostPath: string = K2S_PATHS.resolvConf): Promise<void> {
  // Already exactly the entry: nothing to write (needs no space, works on an immutable or
  // bind-mounted file, and a rollback of a change that never happened changes nothing).
  if (await alreadyIs(fs, entry, hostPath)) return;
  try {
    switch (entry.kind) {
      case 'file':
        await fs.writeFileAtomic(hostPath, Buffer.from(entry.contentBase64, 'base64'), {
          mode: entry.mode,
          uid: entry.uid,
          gid: entry.gid,
        });
        return;
      case 'symlink':
        await fs.symlinkAtomic(hostPath, entry.target, { uid: entry.uid, gid: entry.gid });
        return;
      case 'absent':
        await fs.remove(hostPath);
        return;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EBUSY') {
      throw new Error(`${hostPath} is a mount point (bind mount, e.g. a container) and cannot be replaced; restore it from the host that mounts it.`, { cause: err });
    }
    if (code === 'EPERM' || code === 'EACCES') {
      throw new Error(`${hostPath} cannot be replaced (${code}: immutable or append-only flag, or not root); run as root, check it with "lsattr -d ${hostPath}" and clear the flag with "chattr -i -a ${hostPath}", then retry.`, { cause: err });
    }
    throw err;
  }
}

/** True when `hostPath` already is `entry`: same kind, bytes / exact link target, mode, owner. */
async function alreadyIs(fs: HostFs, entry: ResolverEntry, hostPath: string): Promise<boolean> {
  const st = await fs.lstat(hostPath);
  if (entry.kind === 'absent') return st === null;
  if (st === null || st.uid !== entry.uid || st.gid !== entry.gid) return false;
  if (entry.kind === 'symlink') return st.kind === 'symlink' && (await fs.readlink(hostPath)) === entry.target;
  if (st.kind !== 'file' || st.mode !== entry.mode) return false;
  const want = Buffer.from(entry.contentBase64, 'base64');
  // One byte more than the entry: a longer file differs, and a huge one is never read whole.
  return (await fs.readFile(hostPath, { maxBytes: want.length + 1 })).equals(want);
}

/**
 * True when the captured file (a link's target) is larger than a resolver file
 * (MAX_RESOLVER_BYTES): its bytes were cut at RESOLVER_READ_BYTES, so the entry is no copy of it.
 */
export function isOversize(entry: ResolverEntry): boolean {
  const b64 = entry.kind === 'file' ? entry.contentBase64 : entry.kind === 'symlink' ? entry.targetContentBase64 : null;
  return b64 !== null && Buffer.from(b64, 'base64').length > MAX_RESOLVER_BYTES;
}

/** Reads /etc/resolv.conf's text (through a link) at most RESOLVER_READ_BYTES; null when unreadable or larger than a resolver file. */
export async function readResolverText(fs: HostFs, hostPath: string = K2S_PATHS.resolvConf): Promise<string | null> {
  const bytes = await fs.readFile(hostPath, { maxBytes: RESOLVER_READ_BYTES }).catch(() => null);
  return bytes === null || bytes.length > MAX_RESOLVER_BYTES ? null : bytes.toString('utf8');
}

/** Sets or clears the immutable flag with chattr(1); throws with the cause when chattr fails. */
export async function setImmutable(fs: HostFs, exec: Exec, hostPath: string, on: boolean): Promise<void> {
  const r = await exec.run('chattr', [on ? '+i' : '-i', fs.real(hostPath)], { timeoutMs: 5000 });
  if (r.code !== 0) {
    throw new Error(`chattr ${on ? '+i' : '-i'} ${hostPath} failed (${r.stderr.trim() || `exit ${r.code}`}); run it by hand as root.`);
  }
}

/** True when the first line is exactly MANAGED_HEADER (a trailing CR is tolerated). */
export function isManagedResolvConf(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  const nl = text.indexOf('\n');
  const first = (nl === -1 ? text : text.slice(0, nl)).replace(/\r$/, '');
  return first === MANAGED_HEADER;
}

/** The bytes of a file entry, or of a symlink's target as read; null for a dangling link or none. */
export function resolverBytes(entry: ResolverEntry): Buffer | null {
  if (entry.kind === 'file') return Buffer.from(entry.contentBase64, 'base64');
  if (entry.kind === 'symlink' && entry.targetContentBase64 !== null) return Buffer.from(entry.targetContentBase64, 'base64');
  return null;
}

/** Bytes the resolver points at: the file itself or the symlink's target, when readable. */
export function resolverText(entry: ResolverEntry): string | null {
  if (entry.kind === 'file') return Buffer.from(entry.contentBase64, 'base64').toString('utf8');
  if (entry.kind === 'symlink' && entry.targetContentBase64 !== null) {
    return Buffer.from(entry.targetContentBase64, 'base64').toString('utf8');
  }
  return null;
}
