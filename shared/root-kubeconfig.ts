/**
 * What the window and doctor say when this user's own kubeconfig lookup finds none, yet a start
 * finds one as root by itself: K2s's root-only /etc/kubernetes/admin.conf, which the privileged
 * helper's lookup (and `sudo k2s-dns start`'s) reads first (electron/core/cluster/kubeconfig-default.ts
 * kubeconfigForSudo). Start then works; only the views that read the cluster as this user cannot.
 * The path is a code span (code-span.ts codeSpan), as commands are: the window reads these texts'
 * spans back (RichText), and a path holding backticks in prose was read as spans of its own.
 * Pure module: no Node or DOM imports.
 */
import { appKubeconfigCommand } from './fix';
import { codeSpan } from './code-span';

/** The line under the window's Start (ClusterStatus.startKubeconfig; shown through RichText): which file the start reads as root, and that the Cluster card cannot. */
export function startAsRootLine(path: string): string {
  return `Start reads the kubeconfig ${codeSpan(path)} as root; this user cannot read it, so the Cluster card cannot show the cluster.`;
}

/** The Cluster card's message then: the same fact, and how to see the cluster here too. */
export function clusterAsRootMessage(path: string): string {
  return `Only root reads the kubeconfig ${codeSpan(path)}: Start reads it as root, but this window cannot show the cluster as this user; to see it here, restart the app with a kubeconfig you can read (${appKubeconfigCommand()}).`;
}

/** Doctor's cluster finding's title then. */
export const DOCTOR_AS_ROOT_TITLE = 'Cluster not checked: only root reads the kubeconfig';

/** Doctor's cluster finding's meaning then: `sudoStart` is the start line as printed (shared/fix.ts cliCommand). */
export function doctorAsRootMeaning(path: string, sudoStart: string): string {
  return `${codeSpan(sudoStart)} (and the app's Start) reads the kubeconfig ${codeSpan(path)} as root; this user cannot read it, so the cluster was not checked.`;
}
