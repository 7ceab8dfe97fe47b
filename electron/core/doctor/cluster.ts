/** Doctor check `cluster`: the Kubernetes API answers and CoreDNS can serve (electron/core/cluster/status.ts). */
import type { DoctorFinding } from '../../../shared/doctor';
import type { ClusterStatus } from '../../../shared/types';
import { appKubeconfigCommand, asRootWays, cliCommand, clusterStartFix } from '../../../shared/fix';
import { DOCTOR_AS_ROOT_TITLE, doctorAsRootMeaning } from '../../../shared/root-kubeconfig';
import { NoKubeconfigError } from '../cluster/errors';
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

/** The title when the kubeconfig named or found cannot be used: the file is there (or was asked for), it is not "no kubeconfig". */
export const UNUSABLE_KUBECONFIG_TITLE = 'Kubeconfig cannot be used: cluster not checked';

/**
 * A NoKubeconfigError's message about the file `path` (cluster/errors.ts: `The kubeconfig PATH
 * <what is wrong>; <what to do>.`) as a finding's meaning and fix, split at the first `; ` after
 * the path; a message without one keeps it whole, with `fallback` as the fix.
 */
export function splitKubeconfigMessage(message: string, path: string, fallback: string): { meaning: string; fix: string } {
  const at = message.indexOf(path);
  const cut = message.indexOf('; ', at < 0 ? 0 : at + path.length);
  if (cut < 0) return { meaning: message, fix: fallback };
  const rest = message.slice(cut + 2);
  // `k2s-dns …` keeps its lower case: it is the command's name.
  const fix = rest.startsWith('k2s-dns') ? rest : rest.charAt(0).toUpperCase() + rest.slice(1);
  return { meaning: `${message.slice(0, cut)}, so the cluster was not checked.`, fix };
}

/**
 * The error finding for a kubeconfig that cannot be used: `path` given with --kubeconfig but
 * missing or unreadable for this user, or one that exists but does not load (not a file, not
 * valid YAML, too large…); `message` is the NoKubeconfigError's.
 */
function unusableFinding(id: string, path: string, message: string, detail: Record<string, unknown>): DoctorFinding {
  const { meaning, fix } = splitKubeconfigMessage(message, path, 'Pass a usable kubeconfig with --kubeconfig PATH.');
  const gui = `Restart the app with a kubeconfig it can use (${appKubeconfigCommand()}).`;
  return { id, severity: 'error', title: UNUSABLE_KUBECONFIG_TITLE, meaning, fix, remedy: { action: null, gui, cli: fix }, detail: { ...detail, state: 'no-kubeconfig', kubeconfigPath: path } };
}

/** `cluster`: info without a kubeconfig, ok when the API answers with Ready nodes and CoreDNS, else error (also for a --kubeconfig that cannot be used). */
export async function checkCluster(ctx: DoctorContext, timeoutMs = 5000): Promise<DoctorFinding> {
  const base = { id: 'cluster', title: 'Cluster reachable' };
  // A failing state gets its own title: "Cluster reachable" above an error would contradict it.
  const failTitle: Record<Exclude<ClusterStatus['state'], 'ok'>, string> = {
    unreachable: 'Cluster not reachable',
    unauthorized: 'Cluster rejects the kubeconfig credentials',
    'no-kubeconfig': 'No kubeconfig: cluster not checked',
    error: 'Cluster reachable, but CoreDNS cannot serve',
  };
  const lookup = ctx.opts.kubeconfigLookup;
  if (ctx.opts.kubeconfigPath === null && lookup?.explicit && lookup.tried[0] !== undefined) {
    // Asked for with --kubeconfig: its own problem and fix, never the generic "none found" (it is not skipped silently).
    const path = lookup.unreadable?.[0]?.path ?? lookup.tried[0];
    return unusableFinding(base.id, path, NoKubeconfigError.fromLookup(lookup, 'doctor').message, {});
  }
  if (ctx.opts.kubeconfigPath === null) {
    // None of this user's, yet a start finds K2s's root-only admin.conf as root: Start works, only this check cannot.
    const asRoot = await kubeconfigForSudo(ctx.opts.sudoLookup).catch(() => null);
    if (asRoot !== null) return asRootFinding(base.id, asRoot);
    return { ...base, severity: 'info', title: failTitle['no-kubeconfig'], meaning: 'No kubeconfig was found, so the cluster was not checked.', ...fixes('no-kubeconfig') };
  }
  const s = await clusterStatus({ kubeconfigPath: ctx.opts.kubeconfigPath, timeoutMs });
  const detail = { state: s.state, kubeconfigPath: s.kubeconfigPath, apiServer: s.apiServer, version: s.version, kubeDnsIp: s.kubeDnsIp };
  if (s.state === 'ok') return { ...base, severity: 'ok', meaning: s.message, fix: null, detail };
  if (s.state === 'no-kubeconfig') return unusableFinding(base.id, ctx.opts.kubeconfigPath, s.message, detail);
  return { ...base, severity: 'error', title: failTitle[s.state], meaning: s.message, ...fixes(s.state, ctx.opts.kubeconfigPath), detail };
}
