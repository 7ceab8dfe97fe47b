/** Which kubeconfig the command lines a CLI run prints name (shared/fix.ts setCliKubeconfig, setKubectlKubeconfig). */
// Static: a builtin's import() stays one in the bundled CLI script and fails once that runs from
// its code cache (compile-cache/script-cache.ts: "A dynamic import callback was not specified").
import { access, constants, stat } from 'node:fs/promises';
import { KUBECONFIG_PLACEHOLDER, setCliKubeconfig, setCliSuKubeconfig, setKubectlKubeconfig } from '../../shared/fix';
import { kubeconfigForSu, kubeconfigForSudo, kubeconfigToName } from '../core/cluster/kubeconfig-default';

/**
 * True when the user who typed this command may read `path`: this process (access(2) R_OK), or
 * under sudo the caller (SUDO_UID, sudo(8)) as its owner with u+r, or anyone with o+r (groups
 * are not looked at: a false "no" only adds a `sudo `).
 */
export async function callerReads(path: string): Promise<boolean> {
  const sudoUid = process.getuid?.() === 0 ? Number(process.env['SUDO_UID'] ?? NaN) : NaN;
  if (Number.isInteger(sudoUid)) {
    const st = await stat(path).catch(() => null);
    return st !== null && ((st.uid === sudoUid && (st.mode & 0o400) !== 0) || (st.mode & 0o004) !== 0);
  }
  return access(path, constants.R_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The kubeconfig a run's printed lines are about: the one its lookup found (`found.path`), else the
 * `--kubeconfig` the user typed (`found.explicit`, findKubeconfig's one candidate): a user's lookup
 * counts a file it may not read as absent (locateKubeconfig), yet `sudo k2s-dns start --kubeconfig
 * FILE` reads a root-only FILE, so NOT_ROOT's line must name it (walk finding: it printed the
 * `PATH` placeholder, or a bare start that would read another file). Else the first file the
 * lookup skipped as not readable by this user (`found.unreadable`, in lookup order: a root-only
 * file $KUBECONFIG names, such as the sandbox wrapper's): root reads it, and sudo drops
 * $KUBECONFIG, so the line must name it (new user: NOT_ROOT named `--kubeconfig PATH` while
 * $KUBECONFIG was set); nameKubeconfig still leaves it out when `sudo k2s-dns start` finds that
 * file by itself (K2s's admin.conf). Null when none was typed or found.
 */
export function kubeconfigAsked(found: { path: string | null; explicit: boolean; tried: readonly string[]; unreadable?: readonly { path: string }[] }): string | null {
  return found.path ?? (found.explicit ? (found.tried[0] ?? null) : (found.unreadable?.[0]?.path ?? null));
}

/** The lookups nameKubeconfig asks; injected by tests. */
export interface NameLookups {
  /** kubeconfig-default.ts kubeconfigForSudo: what `sudo k2s-dns …` finds by itself. */
  forSudo: () => Promise<string | null>;
  /** kubeconfig-default.ts kubeconfigToName. */
  toName: (inUse: string | null) => Promise<string | null>;
  /** callerReads. */
  reads: (path: string) => Promise<boolean>;
  /** kubeconfig-default.ts kubeconfigForSu: what `su -c 'k2s-dns …'` finds by itself. */
  forSu: () => string | null;
}

const THIS_HOST: NameLookups = { forSudo: () => kubeconfigForSudo(), toName: (p) => kubeconfigToName(p), reads: callerReads, forSu: () => kubeconfigForSu() };

/**
 * Fix texts this run prints name `path` (this run's lookup's kubeconfig, null when it found none)
 * in their start/zones/doctor commands when `sudo k2s-dns …` would find another kubeconfig, and
 * `--kubeconfig PATH` when neither this lookup nor `sudo k2s-dns …` finds one. A user's lookup
 * skips files it cannot read (cluster/kubeconfig.ts locateKubeconfig), but `sudo k2s-dns start`
 * reads K2s's root-only admin.conf by itself: then a bare command works as printed, and none is
 * named. The `su -c '…'` lines name the one in use unless su's root finds it (setCliSuKubeconfig:
 * su sets no SUDO_USER, so a caller's ~/.kube/config is not found there). Printed kubectl
 * lines name the one in use, with sudo when only root reads it.
 * @returns the kubeconfig a printed `sudo k2s-dns start` uses (`path`, else sudo's), null when none
 */
export async function nameKubeconfig(path: string | null, lookups: NameLookups = THIS_HOST): Promise<string | null> {
  const used = path ?? (await lookups.forSudo());
  setCliKubeconfig(used === null ? KUBECONFIG_PLACEHOLDER : await lookups.toName(path));
  // `su -c '…'` (no SUDO_USER for root's lookup): the file in use unless that lookup finds it.
  setCliSuKubeconfig(used === null ? KUBECONFIG_PLACEHOLDER : lookups.forSu() === used ? null : used);
  // kubectl's own lookup is not K2s DNS's: its lines always name the file.
  setKubectlKubeconfig(used === null ? null : { path: used, root: !(await lookups.reads(used)) });
  return used;
}
