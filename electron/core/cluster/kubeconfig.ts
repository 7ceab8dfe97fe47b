/**
 * Which kubeconfig to use. The helper runs as root via sudo/pkexec, so root's own
 * ~/.kube/config is rarely the right one: the order prefers K2s's admin.conf and the invoking
 * user's config before $KUBECONFIG and root's home.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { nodeExec, type Exec } from '../host/exec';

/** kubeadm's admin kubeconfig, which K2s on Linux writes. */
export const ADMIN_KUBECONFIG = '/etc/kubernetes/admin.conf';

/** Inputs of findKubeconfig; all host access is injected. */
export interface FindKubeconfigInput {
  /** `--kubeconfig` value; when given, it is the only candidate. */
  explicit?: string;
  env: Record<string, string | undefined>;
  exists: (p: string) => boolean;
  /** Home directory of a user name or decimal uid (getent passwd), null when unknown. */
  homeOf: (user: string) => string | null;
  /** Home of the current process user. */
  home: string;
}

/** The chosen kubeconfig (or null) and every path looked at, in order. */
export type FindKubeconfigResult = ({ path: string } | { path: null }) & {
  tried: string[];
  /** The path came from --kubeconfig (then it is the only one tried). */
  explicit: boolean;
  /**
   * Set by locateKubeconfig for a user that is not root when it found none: the tried paths that
   * exist but this user may not read (`rootOwned`: owner uid 0, e.g. K2s's 0600 admin.conf), in
   * `tried` order; absent when there is none.
   */
  unreadable?: UnreadableKubeconfig[];
};

/** A kubeconfig that exists but this user may not read (FindKubeconfigResult.unreadable). */
export interface UnreadableKubeconfig {
  path: string;
  rootOwned: boolean;
}

/**
 * Who elevated this process, as getent passwd takes it: $PKEXEC_UID (pkexec(1) sets the
 * caller's uid and resets everything else, SUDO_USER included) or $SUDO_USER (sudo(8)); null
 * for root itself or neither. pkexec first: sudo never sets PKEXEC_UID, and the helper refuses
 * an environment with both (electron/helper/caller-access.ts).
 */
export function callerKey(env: Record<string, string | undefined>): string | null {
  const pk = env['PKEXEC_UID'];
  if (pk !== undefined && /^[1-9]\d{0,9}$/.test(pk)) return pk;
  const sudoUser = env['SUDO_USER'];
  return sudoUser && sudoUser !== 'root' ? sudoUser : null;
}

/**
 * Picks the kubeconfig: `--kubeconfig` (only that, even if missing: a typo must not silently
 * select another cluster), then /etc/kubernetes/admin.conf, then the pkexec or sudo caller's
 * ~/.kube/config, then the first existing entry of $KUBECONFIG (colon list, kubectl's rule), then
 * ~/.kube/config.
 */
export function findKubeconfig(input: FindKubeconfigInput): FindKubeconfigResult {
  if (input.explicit !== undefined && input.explicit !== '') {
    return { path: input.exists(input.explicit) ? input.explicit : null, tried: [input.explicit], explicit: true };
  }
  const candidates: string[] = [ADMIN_KUBECONFIG];
  const caller = callerKey(input.env);
  if (caller) {
    const home = input.homeOf(caller);
    if (home) candidates.push(path.posix.join(home, '.kube', 'config'));
  }
  for (const entry of (input.env['KUBECONFIG'] ?? '').split(':')) {
    if (entry !== '') candidates.push(entry);
  }
  candidates.push(path.posix.join(input.home, '.kube', 'config'));

  const tried: string[] = [];
  for (const candidate of candidates) {
    if (tried.includes(candidate)) continue;
    tried.push(candidate);
    if (input.exists(candidate)) return { path: candidate, tried, explicit: false };
  }
  return { path: null, tried, explicit: false };
}

/** Home directory field (6th) of one `getent passwd USER` line; null when malformed. */
export function homeFromPasswdLine(line: string): string | null {
  const fields = line.trim().split(':');
  return fields.length >= 7 && fields[5] ? fields[5] : null;
}

/**
 * findKubeconfig on this host: real existsSync, the caller's home (PKEXEC_UID or SUDO_USER) via
 * `getent passwd` (covers LDAP/NSS users, unlike reading /etc/passwd) unless `callerHome` gives
 * it (a caller that is this process's own user: its passwd entry read in-process), process env and home.
 * Not root (the app, a user's CLI): a candidate this user cannot read counts as absent, so K2s's
 * root-only admin.conf makes way for the user's own ~/.kube/config — the file the window shows
 * is then the one Start passes to the helper. The root helper passes `opts.exists`, which checks
 * caller-side candidates with the caller's rights (electron/helper/caller-access.ts
 * callerSideExists), so a path the caller cannot see is treated exactly like a missing one.
 * When none is found, a user's result lists the tried files that exist but it may not read
 * (`unreadable`), so the error can say so instead of "not found" (NoKubeconfigError.fromLookup).
 * Never throws (unless `opts.exists` does).
 */
export async function locateKubeconfig(
  opts: { explicit?: string; env?: Record<string, string | undefined>; exec?: Exec; exists?: (p: string) => boolean; callerHome?: string | null } = {},
): Promise<FindKubeconfigResult> {
  const env = opts.env ?? process.env;
  const exec = opts.exec ?? nodeExec;
  const caller = callerKey(env);
  let callerHome: string | null = opts.callerHome ?? null;
  if (caller && !opts.explicit && opts.callerHome === undefined) {
    const res = await exec.run('getent', ['passwd', caller], { timeoutMs: 2000 }).catch(() => null);
    if (res?.code === 0) callerHome = homeFromPasswdLine(res.stdout.split('\n')[0] ?? '');
  }
  const asUser = opts.exists === undefined && (process.geteuid?.() ?? 0) !== 0;
  const found = findKubeconfig({
    ...(opts.explicit !== undefined ? { explicit: opts.explicit } : {}),
    env,
    exists: opts.exists ?? (asUser ? readable : existsSync),
    homeOf: (user) => (user === caller ? callerHome : null),
    home: homedir(),
  });
  if (!asUser || found.path !== null) return found;
  const unreadable = unreadableOf(found.tried);
  return unreadable.length ? { ...found, unreadable } : found;
}

/**
 * The `paths` that exist (stat(2): it needs only search rights on the directories, so a user sees
 * that a root-only file exists) yet this user may not read, with whether root owns each.
 */
export function unreadableOf(paths: readonly string[]): UnreadableKubeconfig[] {
  const out: UnreadableKubeconfig[] = [];
  for (const p of paths) {
    let uid: number;
    try {
      uid = statSync(p).uid;
    } catch {
      continue;
    }
    if (!readable(p)) out.push({ path: p, rootOwned: uid === 0 });
  }
  return out;
}

/** access(2) R_OK for this process's real uid: exists and this user may read it. */
function readable(p: string): boolean {
  try {
    accessSync(p, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
