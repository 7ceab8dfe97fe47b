import { locateKubeconfig, type FindKubeconfigResult } from './kubeconfig';
import { readState } from '../host/resolver-state';
import type { HostFs } from '../host/host-fs';

/**
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
