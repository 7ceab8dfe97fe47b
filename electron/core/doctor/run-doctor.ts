/**
 * `k2s-dns doctor`: runs every read-only check against the host and returns
 * one finding per check. Never changes the host; a check that throws becomes a `warn` finding.
 */
import { cliCommand } from '../../../shared/fix';
import type { LifecycleDeps } from '../lifecycle/deps';
import type { DoctorFinding } from '../../../shared/doctor';
import { readDoctorContext, type DoctorContext, type DoctorOptions } from './context';
import { checkBindMounted, checkImmutable } from './resolver-refusals';
import { checkResolverWritable } from './resolver-writable';
import { checkWsl } from './wsl';
import { checkPort53 } from './port53';
import { checkNameserverCount, checkNameserverLoop, checkUpstreamsAnswer } from './nameservers';
import { checkLiveLoop } from './live-loop';
import { checkKubeletResolvConf } from './kubelet';
import { checkContainerRuntimes } from './container-runtimes';
import { checkKubeSwitch } from './kubeswitch';
import { checkResolvedRoute } from './resolved-route';
import { checkNetworkManagerKubeSwitch } from './networkmanager';
import { checkDnsproxyVersion } from './dnsproxy-version';
import { checkLifecycleState } from './lifecycle-state';
import { checkCluster } from './cluster';
import { HEALTH_FINDING_TOPIC, checkHealthPath } from './health';
import { codeSpan } from '../../../shared/code-span';

export type { DoctorOptions } from './context';

/** The checks in report order: the id each reports under and its topic (the title only when the check throws). */
export const DOCTOR_CHECKS: readonly { id: string; title: string; run: (ctx: DoctorContext) => DoctorFinding | Promise<DoctorFinding> }[] = [
  { id: 'health', title: HEALTH_FINDING_TOPIC, run: checkHealthPath },
  { id: 'lifecycle-state', title: 'K2s DNS state', run: checkLifecycleState },
  { id: 'resolv-immutable', title: 'Immutable flag of /etc/resolv.conf', run: checkImmutable },
  { id: 'resolv-bind-mount', title: 'Bind mount of /etc/resolv.conf', run: checkBindMounted },
  { id: 'resolv-writable', title: 'Who may write /etc/resolv.conf', run: checkResolverWritable },
  { id: 'wsl', title: 'WSL-generated /etc/resolv.conf', run: checkWsl },
  { id: 'port-53', title: 'Holder of 127.0.0.1:53', run: checkPort53 },
  { id: 'nameserver-loop', title: 'Forwarding loop in the original nameservers', run: checkNameserverLoop },
  { id: 'nameserver-count', title: 'Number of original nameservers', run: checkNameserverCount },
  { id: 'upstream-answers', title: 'Original upstreams answer', run: checkUpstreamsAnswer },
  { id: 'kubelet-resolvconf', title: "kubelet's resolvConf", run: checkKubeletResolvConf },
  { id: 'coredns-loop', title: 'CoreDNS ↔ proxy loop in the query log', run: checkLiveLoop },
  { id: 'container-runtime-dns', title: 'Container runtime DNS', run: checkContainerRuntimes },
  { id: 'kubeswitch', title: 'KubeSwitch address', run: checkKubeSwitch },
  { id: 'resolved-route', title: 'systemd-resolved route for the cluster zones', run: checkResolvedRoute },
  { id: 'networkmanager-kubeswitch', title: 'NetworkManager on the KubeSwitch link', run: checkNetworkManagerKubeSwitch },
  { id: 'dnsproxy-version', title: 'AdGuard dnsproxy version', run: checkDnsproxyVersion },
  { id: 'cluster', title: 'Cluster', run: checkCluster },
];

/** Runs every check in DOCTOR_CHECKS order; read-only, never throws. */
export async function runDoctor(deps: LifecycleDeps, opts: DoctorOptions): Promise<DoctorFinding[]> {
  const ctx = await readDoctorContext(deps, opts);
  const findings: DoctorFinding[] = [];
  for (const check of DOCTOR_CHECKS) {
    try {
      findings.push(await check.run(ctx));
    } catch (err) {
      findings.push({
        id: check.id,
        severity: 'warn',
        // The topic plus the case: a title like "KubeSwitch address assigned" would claim a result.
        title: `${check.title}: could not check`,
        meaning: `This check could not run (${(err as Error).message}), so the condition is unknown.`,
        fix: `Run ${codeSpan(cliCommand('doctor', true))} (some host files are readable only by root) and report the message if it persists.`,
      });
    }
  }
  return findings;
}
