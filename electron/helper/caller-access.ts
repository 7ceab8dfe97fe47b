/**
 * What the unprivileged caller of the root helper may learn about a path it names:
 * nothing about a file it could not read itself. pkexec sets PKEXEC_UID and sudo SUDO_UID to the
 * caller's uid (pkexec(1), sudo(8)); the helper opens a kubeconfig the caller names with the
 * caller's uid, gid and groups (asCaller), so the kernel decides, path components included, in
 * the one open the content then comes from. When it fails, one message covers "missing" and
 * "unreadable" alike: no size, existence or YAML-line oracle on root-only files.
 */
import { spawnSync } from 'node:child_process';
import { NoKubeconfigError } from '../core/cluster/errors';
import { KubeconfigOpenError, readKubeconfigFile, type KubeconfigFile } from '../core/cluster/kubeconfig-file';

/** The caller's environment cannot be trusted to name who asked (refused, exit 3). */
export class CallerEnvError extends Error {
  readonly code = 'CALLER_ENV';
}

/** A uid as pkexec(1) and sudo(8) write it: decimal digits, no sign, no padding tricks. */
const UID_TEXT = /^(0|[1-9]\d{0,9})$/;

/**
 * The caller's uid from the one variable its elevation tool sets: pkexec(1) sets PKEXEC_UID and
 * resets the rest of the environment (so SUDO_UID cannot survive a pkexec); sudo(8) sets
 * SUDO_UID and, by default (env_reset), drops PKEXEC_UID. Both present can only be a crafted
 * environment (e.g. `sudo --preserve-env` with PKEXEC_UID=0 to pass as root): refused, as is
 * a value that is not a uid — never read as "no caller" (that skipped the check).
 * @returns the caller's uid; null when root ran the helper itself (no variable, or uid 0)
 * @throws CallerEnvError for both variables set, or a value that is not a decimal uid
 */
export function callerUid(env: NodeJS.ProcessEnv): number | null {
  const pkexec = env.PKEXEC_UID;
  const sudo = env.SUDO_UID;
  if (pkexec !== undefined && sudo !== undefined) {
    throw new CallerEnvError(`Both PKEXEC_UID (${JSON.stringify(pkexec.slice(0, 16))}) and SUDO_UID (${JSON.stringify(sudo.slice(0, 16))}) are set, which neither pkexec nor sudo does; run the helper through one of them with a clean environment (pkexec, or sudo without --preserve-env).`);
  }
  const [key, v] = pkexec !== undefined ? ['PKEXEC_UID', pkexec] : ['SUDO_UID', sudo];
  if (v === undefined) return null;
  if (!UID_TEXT.test(v) || Number(v) > 0xfffffffe) {
    throw new CallerEnvError(`${key} is ${JSON.stringify(v.slice(0, 16))}, not a uid; run the helper through pkexec or sudo with a clean environment.`);
  }
  return Number(v) === 0 ? null : Number(v);
}

/** The caller's primary gid and supplementary groups, from `id` (covers NSS users); uid-only when unknown. */
export function callerIds(uid: number): { gid: number; groups: number[] } {
  const id = (flag: string) => spawnSync('id', [flag, String(uid)], { encoding: 'utf8', timeout: 10_000 });
  const g = id('-g');
  const gs = id('-G');
  if (g.status !== 0 || gs.status !== 0) return { gid: uid, groups: [] };
  return { gid: Number(g.stdout.trim()), groups: gs.stdout.trim().split(/\s+/).filter((x) => x !== '').map(Number) };
}

/**
 * Runs `fn` with the effective uid, gid and groups of the caller, then back to root, so the
 * kernel checks every open in `fn` (path components and symlinks included) with the caller's
 * rights: there is no "check as the caller, then open as root" window to swap a symlink in
 * (an earlier helper checked with `test -r`, then root opened the path again). seteuid(2) keeps the
 * saved set-user-ID 0, so the way back always exists; glibc applies set*id to every thread
 * (nptl(7)), and `fn` must be synchronous so no other JavaScript runs meanwhile.
 * @throws whatever `fn` throws, after root's ids are restored
 */
export function asCaller<T>(uid: number, fn: () => T, ids = callerIds(uid)): T {
  const saved = { egid: process.getegid!(), groups: process.getgroups!() };
  // Order matters: groups and gid while still root, the uid last; back in the reverse order.
  process.setgroups!(ids.groups);
  process.setegid!(ids.gid);
  process.seteuid!(uid);
  try {
    return fn();
  } finally {
    process.seteuid!(0);
    process.setegid!(saved.egid);
    process.setgroups!(saved.groups);
  }
}

/**
 * Reads the kubeconfig at `path` for the helper with the caller's rights (one open as the
 * caller, fstat on that fd: kubeconfig-file.ts). Every failure to open is the one
 * unreadableKubeconfigMessage (no existence oracle); other refusals (not a regular file, too
 * big) describe a file the caller can open itself.
 */
export function readKubeconfigAsCaller(path: string, uid: number): KubeconfigFile {
  try {
    return asCaller(uid, () => readKubeconfigFile(path));
  } catch (err) {
    if (err instanceof KubeconfigOpenError) throw new NoKubeconfigError([path], unreadableKubeconfigMessage(path));
    throw err;
  }
}

/** The one message for a kubeconfig the caller cannot read (or that does not exist). */
export function unreadableKubeconfigMessage(path: string): string {
  return `The kubeconfig ${path} does not exist or you cannot read it; pass a kubeconfig your own user can read with --kubeconfig.`;
}
