import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { findKubeconfig, locateKubeconfig, type FindKubeconfigResult } from './kubeconfig';
import type { Exec } from '../host/exec';
import { readState } from '../host/resolver-state';
import type { HostFs } from '../host/host-fs';

/**
 * THE kubeconfig order (shared/kubeconfig-order.ts states it for the CLI help, the app and the
 * README): `--kubeconfig`; /etc/kubernetes/admin.conf; the pkexec or sudo caller's ~/.kube/config (PKEXEC_UID / SUDO_USER);
 * $KUBECONFIG; ~/.kube/config; the kubeconfig the running K2s DNS was started with.
 *
 * Why not kubectl's order (`--kubeconfig`, $KUBECONFIG, ~/.kube/config): start runs as root
 * through pkexec or sudo, which drop $KUBECONFIG and set HOME to /root, so kubectl's order would
 * make the privileged start and the unprivileged app look at different clusters (or none). The
 * cluster whose DNS this host needs is the K2s one, whose kubeadm admin.conf K2s writes; the
 * invoking user's own config comes next, kubectl's candidates after. The last fallback keeps
 * zones, doctor and the app on the cluster that start used.
 *
 * locateKubeconfig, then — only when nothing was given or found — the kubeconfig the running
 * K2s DNS was started with (from the state file, when readable), so zones, doctor and the app
 * look at the same cluster as start did. Never throws.
 */
export async function kubeconfigOrStarted(fs: HostFs, explicit: string | undefined): Promise<FindKubeconfigResult> {
  const found = await locateKubeconfig(explicit ? { explicit } : {});
  if (found.path || explicit) return found;
  const started = (await readState(fs).catch(() => null))?.kubeconfigPath;
  return started ? { path: started, tried: [...found.tried, `${started} (used by start)`], explicit: false } : found;
}

/**
 * This process's user name and passwd home (getpwuid_r(3) in-process: the entry `getent passwd`
 * prints), or nulls for a uid with no passwd entry (os.userInfo throws ENOENT there, e.g.
 * `setpriv --reuid 12345`).
 */
function passwdSelf(): { user: string | null; home: string | null } {
  try {
    const u = userInfo();
    return { user: u.username, home: u.homedir };
  } catch {
    return { user: null, home: null };
  }
}

/** What kubeconfigForSudo and kubeconfigToName look at; injected by tests. */
export interface SudoLookupHost {
  uid: number;
  user: string | null;
  env: Record<string, string | undefined>;
  exists: (p: string) => boolean;
  exec?: Exec;
  /**
   * `user`'s home from its passwd entry, when known: a lookup as that user's sudo caller then needs
   * no `getent passwd` process (the window's backend asks it again while none is found).
   */
  home?: string | null;
}

const THIS_HOST = (): SudoLookupHost => {
  const self = passwdSelf();
  return { uid: process.getuid?.() ?? 0, user: self.user, home: self.home, env: process.env, exists: existsSync };
};

/**
 * The kubeconfig `sudo k2s-dns …` typed by this user finds by itself, or null when it finds none:
 * the order above as root (root reads every file, so existence alone counts: stat(2) needs no
 * read right on a file, only search right on its directory, so a user sees that a root-only
 * admin.conf exists; $KUBECONFIG dropped by sudo): this user as the sudo caller, or for root the
 * caller that elevated it.
 */
export async function kubeconfigForSudo(host: SudoLookupHost = THIS_HOST()): Promise<string | null> {
  // A uid with no passwd entry has no home for sudo to look in: the lookup then sees no caller.
  const env = host.uid === 0 ? { PKEXEC_UID: host.env['PKEXEC_UID'], SUDO_USER: host.env['SUDO_USER'] } : host.user !== null ? { SUDO_USER: host.user } : {};
  // This user as the caller: its home is known here (host.home), no `getent passwd` needed.
  const callerHome = host.uid !== 0 && host.user !== null && host.home !== undefined ? { callerHome: host.home } : {};
  return (await locateKubeconfig({ env, exists: host.exists, ...(host.exec ? { exec: host.exec } : {}), ...callerHome })).path;
}

/**
 * Whether a start would find a kubeconfig, for the kube-dns hop's `no kubeconfig`
 * (health/check-health.ts HealthOptions.kubeconfigFound): `inUse` (this process's lookup found
 * one), else whether `sudo k2s-dns start` typed by this user finds one by itself
 * (kubeconfigForSudo: K2s's root-only admin.conf, which a user's own lookup skips) — as the CLI's
 * status judges it (electron/cli/name-kubeconfig.ts). Looks up nothing when `inUse` is set.
 */
export async function startFindsKubeconfig(inUse: string | null, host?: SudoLookupHost): Promise<boolean> {
  return inUse !== null || (await kubeconfigForSudo(host)) !== null;
}

/**
 * The kubeconfig a suggested command must name with `--kubeconfig` (shared/fix.ts
 * setCliKubeconfig): `inUse`, unless `sudo k2s-dns …` typed by this user finds that very file by
 * itself (kubeconfigForSudo). Null when none is in use or the lookup finds it.
 */
export async function kubeconfigToName(inUse: string | null, host: SudoLookupHost = THIS_HOST()): Promise<string | null> {
  if (inUse === null) return null;
  return (await kubeconfigForSudo(host)) === inUse ? null : inUse;
}

/**
 * The kubeconfig `su -c 'k2s-dns …'` finds by itself: root's lookup with no caller (su(1) sets
 * neither SUDO_USER nor PKEXEC_UID, and HOME to root's) and this environment's $KUBECONFIG (su
 * without --login keeps the environment). Null when it finds none. `home` is root's (/root).
 */
export function kubeconfigForSu(host: Pick<SudoLookupHost, 'env' | 'exists'> = THIS_HOST(), home = '/root'): string | null {
  return findKubeconfig({ env: { KUBECONFIG: host.env['KUBECONFIG'] }, exists: host.exists, homeOf: () => null, home }).path;
}
