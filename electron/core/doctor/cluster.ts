/** Doctor check `cluster`: the Kubernetes API answers and CoreDNS can serve (electron/core/cluster/status.ts). */
import type { DoctorFinding } from '../../../shared/doctor';
import type { ClusterStatus } from '../../../shared/types';
import { appKubeconfigCommand, asRootWays, cliCommand, clusterStartFix } from '../../../shared/fix';
import { DOCTOR_AS_ROOT_TITLE, doctorAsRootMeaning } from '../../../shared/root-kubeconfig';
import { kubeconfigForSudo } from '../cluster/kubeconfig-default';
import { clusterStatus } from '../cluster/status';
import type { DoctorContext } from './context';

/**
 * What to do for each failing cluster state, one sentence. Built at each check, not at load: the
 * unreachable one names this runtime's command (shared/fix.ts clusterStartFix: `k2s start` on a
 * host, the sandbox's `sandbox:ctl -- api up` there), which each entry sets once it starts.
 */
const FIXES = (kubeconfigPath?: string): Record<Exclude<ClusterStatus['state'], 'ok'>, string> => ({
  unreachable: clusterStartFix(kubeconfigPath),
  unauthorized: 'Use a kubeconfig with valid credentials, e.g. /etc/kubernetes/admin.conf (pass --kubeconfig PATH).',
  'no-kubeconfig': 'Pass --kubeconfig PATH or start K2s so /etc/kubernetes/admin.conf exists.',
  error: 'Check CoreDNS with `kubectl -n kube-system get pods -l k8s-app=kube-dns`.',
});

/**
 * The same fixes for the app (shared/fix.ts): the app takes a kubeconfig only when it starts (no
 * path field in the window). Built at each check: the line names this runtime's way to start the
 * app (shared/fix.ts appKubeconfigCommand), which each entry sets once it starts.
 */
const GUI_FIXES = (): Partial<Record<Exclude<ClusterStatus['state'], 'ok'>, string>> => ({
  unauthorized: `Use a kubeconfig with valid credentials, e.g. /etc/kubernetes/admin.conf: restart the app with it (${appKubeconfigCommand()}).`,
  'no-kubeconfig': `Restart the app with the kubeconfig (${appKubeconfigCommand()}), or start K2s so /etc/kubernetes/admin.conf exists.`,
});

/** `fix` plus, where the app words differ, the remedy for the app; `kubeconfigPath`: the one read (the sandbox's words only for its own: clusterStartFix). */
function fixes(state: Exclude<ClusterStatus['state'], 'ok'>, kubeconfigPath?: string): Pick<DoctorFinding, 'fix' | 'remedy'> {
  const gui = GUI_FIXES()[state];
  const fix = FIXES(kubeconfigPath)[state];
  return { fix, ...(gui ? { remedy: { action: null, gui, cli: fix } } : {}) };
}

/** The info finding when only root reads the kubeconfig a start finds (`path`): what start reads, and how to check the cluster. */
function asRootFinding(id: string, path: string): DoctorFinding {
  const cli = `To check the cluster, run doctor ${asRootWays('doctor')}.`;
  const gui = `Start works as it is; to see the cluster here, restart the app with a kubeconfig you can read (${appKubeconfigCommand()}).`;
  return { id, severity: 'info', title: DOCTOR_AS_ROOT_TITLE, meaning: doctorAsRootMeaning(path, cliCommand('start', true)), fix: cli, remedy: { action: null, gui, cli }, detail: { state: 'no-kubeconfig', startKubeconfig: path } };
}

/** `cluster`: info without a kubeconfig, ok when the API answers with Ready nodes and CoreDNS, else error. */
export async function checkCluster(ctx: DoctorContext, timeoutMs = 5000): Promise<DoctorFinding> {
  const base = { id: 'cluster', title: 'Cluster reachable' };
  // A failing state gets its own title: "Cluster reachable" above an error would contradict it.
  const failTitle: Record<Exclude<ClusterStatus['state'], 'ok'>, string> = {
    unreachable: 'Cluster not reachable',
    unauthorized: 'Cluster rejects the kubeconfig credentials',
    'no-kubeconfig': 'No kubeconfig: cluster not checked',
    error: 'Cluster reachable, but CoreDNS cannot serve',
  };
  if (ctx.opts.kubeconfigPath === null) {
    // None of this user's, yet a start finds K2s's root-only admin.conf as root: Start works, only this check cannot.
    const asRoot = await kubeconfigForSudo(ctx.opts.sudoLookup).catch(() => null);
    if (asRoot !== null) return asRootFinding(base.id, asRoot);
    return { ...base, severity: 'info', title: failTitle['no-kubeconfig'], meaning: 'No kubeconfig was found, so the cluster was not checked.', ...fixes('no-kubeconfig') };
  }
  const s = await clusterStatus({ kubeconfigPath: ctx.opts.kubeconfigPath, timeoutMs });
  const detail = { state: s.state, kubeconfigPath: s.kubeconfigPath, apiServer: s.apiServer, version: s.version, kubeDnsIp: s.kubeDnsIp };
  if (s.state === 'ok') return { ...base, severity: 'ok', meaning: s.message, fix: null, detail };
  return { ...base, severity: 'error', title: failTitle[s.state], meaning: s.message, ...fixes(s.state, ctx.opts.kubeconfigPath), detail };
}
