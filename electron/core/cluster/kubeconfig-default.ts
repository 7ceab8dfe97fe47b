import { locateKubeconfig, type FindKubeconfigResult } from './kubeconfig';
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
