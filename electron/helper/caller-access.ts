/**
 * What the unprivileged caller of the root helper may learn about a path it names:
 * nothing about a file it could not read itself. pkexec sets PKEXEC_UID and sudo SUDO_UID to the
 * caller's uid (pkexec(1), sudo(8)); the check runs `test -r PATH` as that user through
 * util-linux setpriv(1) (real uid/gid and the user's groups), so the kernel decides, path
 * components included. When it fails, one message covers "missing" and "unreadable" alike: no
 * size, existence or YAML-line oracle on root-only files.
 */
import { spawnSync } from 'node:child_process';

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

/** True when user `uid` (with its primary group and supplementary groups) can read `path`. */
export function userCanRead(path: string, uid: number): boolean {
  const gid = spawnSync('id', ['-g', String(uid)], { encoding: 'utf8', timeout: 10_000 });
  const g = gid.status === 0 ? gid.stdout.trim() : String(uid);
  // --init-groups needs a passwd entry; a uid without one gets no supplementary groups.
  const groups = gid.status === 0 ? ['--init-groups'] : ['--clear-groups'];
  const r = spawnSync('setpriv', ['--reuid', String(uid), '--regid', g, ...groups, '--', 'test', '-r', path], { timeout: 10_000 });
  return r.status === 0;
}

/** The one message for a kubeconfig the caller cannot read (or that does not exist). */
export function unreadableKubeconfigMessage(path: string): string {
  return `The kubeconfig ${path} does not exist or you cannot read it; pass a kubeconfig your own user can read with --kubeconfig.`;
}
