/**
 * Doctor check `container-runtime-dns`: Docker (libnetwork), and containerd/CRI-O for containers
 * outside kubelet's DNS policy, copy the host resolv.conf into containers and drop loopback
 * nameservers; when none are left they fall back to public DNS (8.8.8.8, 8.8.4.4). With K2s DNS the
 * host lists only 127.0.0.1, so containers silently bypass the proxy and lose cluster and LAN names.
 */
import type { DoctorFinding, DoctorSeverity } from '../../../shared/doctor';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import type { DoctorContext } from './context';

/** Docker's daemon config (dockerd(8) `--config-file` default). */
export const DOCKER_DAEMON_JSON = '/etc/docker/daemon.json';
/** Runtime configs whose presence means the runtime is installed here. */
export const RUNTIME_CONFIGS = {
  docker: ['/etc/docker/daemon.json', '/etc/docker', '/usr/bin/dockerd'],
  containerd: ['/etc/containerd/config.toml'],
  'cri-o': ['/etc/crio/crio.conf', '/etc/crio/crio.conf.d'],
} as const;

/** Runtime name → the first config path that exists. */
async function presentRuntimes(ctx: DoctorContext): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const [runtime, paths] of Object.entries(RUNTIME_CONFIGS)) {
    for (const p of paths) {
      if ((await ctx.deps.fs.stat(p)) !== null) {
        found[runtime] = p;
        break;
      }
    }
  }
  return found;
}

/** The `dns` list of daemon.json: null when the file or key is missing; throws on invalid JSON. */
export function dockerDns(daemonJson: string): string[] | null {
  const doc: unknown = JSON.parse(daemonJson);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('it is not a JSON object');
  const dns = (doc as Record<string, unknown>).dns;
  return Array.isArray(dns) && dns.length > 0 ? dns.map(String) : null;
}

/**
 * `container-runtime-dns`: while K2s owns /etc/resolv.conf, warn for Docker without a `dns` key in
 * daemon.json and for any containerd/CRI-O config; info (the explanation) while it does not.
 */
export async function checkContainerRuntimes(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'container-runtime-dns', title: 'Container runtimes keep using the proxy' };
  const runtimes = await presentRuntimes(ctx);
  const names = Object.keys(runtimes);
  if (names.length === 0) {
    return { ...base, severity: 'ok', title: 'No container runtime config found', meaning: 'No Docker, containerd or CRI-O config found on this host.', fix: null };
  }
  let dns: string[] | null = null;
  let daemonJsonProblem: string | null = null;
  const daemonJson = await ctx.deps.fs.readFile(DOCKER_DAEMON_JSON).catch(() => null);
  if (daemonJson !== null) {
    try {
      dns = dockerDns(daemonJson.toString('utf8'));
    } catch (err) {
      daemonJsonProblem = (err as Error).message;
    }
  }
  // Docker with a dns key is fine; containerd/CRI-O have no such global setting.
  const exposed = names.filter((n) => n !== 'docker' || dns === null);
  const detail = { runtimes, dockerDns: dns, ...(daemonJsonProblem ? { daemonJsonProblem } : {}), k2sOwnsResolver: ctx.k2sOwnsResolver };
  const target = ctx.kubeSwitch === 'none' ? K2S_DEFAULTS.kubeSwitchAddress : ctx.kubeSwitch;
  const fix = `Give containers a reachable nameserver: "dns": ["${target}"] (the KubeSwitch listener) in ${DOCKER_DAEMON_JSON}, or --dns ${target} per container, and restart the runtime.`;
  const one = exposed.length === 1;
  const why = `${exposed.join(' and ')} ${one ? 'copies' : 'copy'} the host resolv.conf into containers and ${one ? 'replaces' : 'replace'} a loopback-only list (nameserver 127.0.0.1) with public DNS 8.8.8.8/8.8.4.4`;
  if (exposed.length === 0) {
    return { ...base, severity: 'ok', meaning: `Docker's daemon.json sets dns ${dns!.join(', ')}, so containers do not inherit the loopback-only host resolver.`, fix: null, detail };
  }
  const severity: DoctorSeverity = ctx.k2sOwnsResolver ? 'warn' : 'info';
  return {
    ...base,
    severity,
    title: ctx.k2sOwnsResolver ? 'Container runtimes bypass the proxy' : 'Container runtimes would bypass the proxy while K2s DNS runs',
    meaning: ctx.k2sOwnsResolver
      ? `K2s DNS owns /etc/resolv.conf and ${why}, so containers bypass the proxy and cannot resolve cluster or LAN names.`
      : `When K2s DNS runs, ${why}, so containers would bypass the proxy.`,
    fix: daemonJsonProblem ? `${DOCKER_DAEMON_JSON} is not valid JSON (${daemonJsonProblem}); fix it, then: ${fix}` : fix,
    detail,
  };
}
