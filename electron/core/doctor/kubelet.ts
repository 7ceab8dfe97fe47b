/**
 * Doctor check `kubelet-resolvconf` (docs/host-facts.md "Host resolver traps"): CoreDNS pods get the file
 * kubelet's `resolvConf` names and `forward . /etc/resolv.conf`; if that is the K2s-owned file
 * (nameserver 127.0.0.1), CoreDNS forwards to itself and its `loop` plugin crashes it.
 */
import { RESOLVER_READ_BYTES } from '../../../shared/network-writer';
import YAML from 'yaml';
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { isManagedResolvConf } from '../host/resolver-state';
import type { DoctorContext } from './context';
import type { HostFs } from '../host/host-fs';
import { loopbackNameservers } from '../../../shared/resolved-link';
import { KUBELET_DROPIN_DIRS, KUBELET_ENV_FILES, kubeletArgs, lastFlag, parseDropInEnvironment, parseEnvFile } from './kubelet-flags';
import { cliCommand } from '../../../shared/fix';

/** kubelet's config file as kubeadm writes it. */
export const KUBELET_CONFIG = '/var/lib/kubelet/config.yaml';
/** KubeletConfiguration's default `resolvConf` (kubelet-config-file docs). */
export const KUBELET_DEFAULT_RESOLV_CONF = '/etc/resolv.conf';
/** systemd-resolved's uplink file (systemd-resolved.service(8)); kubeadm gives kubelet this one when resolved runs. */
export const RESOLVED_UPLINK_RESOLV_CONF = '/run/systemd/resolve/resolv.conf';

/**
 * The `resolvConf` of a KubeletConfiguration YAML: its value (`''` disables host DNS for pods),
 * the kubelet default when the key is missing. Throws when the text is not a YAML mapping.
 */
export function kubeletResolvConf(yamlText: string): string {
  const doc: unknown = YAML.parse(yamlText);
  if (doc === null || doc === undefined) return KUBELET_DEFAULT_RESOLV_CONF;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error('it is not a YAML mapping');
  const v = (doc as Record<string, unknown>).resolvConf;
  if (v === undefined || v === null) return KUBELET_DEFAULT_RESOLV_CONF;
  if (typeof v !== 'string') throw new Error('resolvConf is not a string');
  return v;
}

/** kubelet's flags from its systemd drop-ins and environment files, and which file set each variable. */
export async function readKubeletFlags(fs: HostFs): Promise<{ args: string[]; flagSource(name: string): string | null; found: boolean }> {
  const env = new Map<string, string>();
  const from = new Map<string, string>();
  const set = (vars: Map<string, string>, file: string) => {
    for (const [k, v] of vars) {
      env.set(k, v);
      from.set(k, file);
    }
  };
  // Drop-ins apply in file-name order across directories; a same-named file in /etc wins.
  const dropins = new Map<string, string>();
  for (const dir of KUBELET_DROPIN_DIRS) for (const f of await fs.readdir(dir)) if (f.endsWith('.conf')) dropins.set(f, `${dir}/${f}`);
  let found = false;
  for (const name of [...dropins.keys()].sort()) {
    const path = dropins.get(name) as string;
    const text = await fs.readFile(path).then((b) => b.toString('utf8'), () => null);
    if (text !== null) (found = true), set(parseDropInEnvironment(text), path);
  }
  // EnvironmentFile= settings override Environment= ones (systemd.exec(5)).
  for (const path of KUBELET_ENV_FILES) {
    const text = await fs.readFile(path).then((b) => b.toString('utf8'), () => null);
    if (text !== null) (found = true), set(parseEnvFile(text), path);
  }
  const args = kubeletArgs(env);
  return {
    args,
    found,
    flagSource(flag) {
      let src: string | null = null;
      for (const [k, v] of env) if (/^KUBELET_\w*ARGS$/.test(k) && lastFlag(kubeletArgs(new Map([[k, v]])), flag) !== undefined) src = from.get(k) ?? null;
      return src;
    },
  };
}

/**
 * `kubelet-resolvconf`: error when kubelet's effective resolvConf is the K2s-owned file or names
 * any loopback nameserver (127.0.0.0/8, ::1 — in a pod that is the pod itself), warn when it will
 * become the K2s-owned file on start.
 */
export async function checkKubeletResolvConf(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'kubelet-resolvconf', title: "kubelet's resolvConf is not the K2s-owned file" };
  const fs = ctx.deps.fs;
  // Effective value: a --resolv-conf flag (drop-ins, kubeadm-flags.env) overrides config.yaml,
  // and --config may name another config file than kubeadm's default.
  const flags = await readKubeletFlags(fs);
  const configPath = lastFlag(flags.args, 'config') ?? KUBELET_CONFIG;
  const flagValue = lastFlag(flags.args, 'resolv-conf');
  const text = await fs.readFile(configPath).then((b) => b.toString('utf8'), () => null);
  if (text === null && flagValue === undefined) {
    return { ...base, severity: 'ok', title: 'No kubelet config on this host', meaning: `No kubelet config at ${configPath} and no --resolv-conf flag: no kubelet on this host passes the host resolver to CoreDNS.`, fix: null };
  }
  let resolvConf: string;
  try {
    resolvConf = flagValue ?? kubeletResolvConf(text ?? '');
  } catch (err) {
    return {
      ...base,
      severity: 'warn',
      title: 'kubelet config unreadable',
      meaning: `${KUBELET_CONFIG} could not be read as a KubeletConfiguration (${(err as Error).message}), so the resolvConf CoreDNS inherits is unknown.`,
      fix: `Check ${KUBELET_CONFIG} with \`kubeadm\` or an editor; its resolvConf must not name the K2s-owned /etc/resolv.conf.`,
    };
  }
  const flagFile = flagValue !== undefined ? flags.flagSource('resolv-conf') : null;
  const detail = { kubeletConfig: configPath, resolvConf, ...(flagFile ? { flag: `--resolv-conf=${flagValue}`, flagFile } : {}) };
  const where = flagFile ? `the --resolv-conf flag in ${flagFile} (it overrides resolvConf in ${configPath})` : `resolvConf in ${configPath}`;
  if (resolvConf === '') {
    return { ...base, severity: 'ok', title: 'kubelet gives pods no host resolver', meaning: 'kubelet gives pods no host resolver (resolvConf: ""), so CoreDNS cannot loop through K2s DNS.', fix: null, detail };
  }
  const named = await fs.readFile(resolvConf, { maxBytes: RESOLVER_READ_BYTES }).catch(() => null);
  const fix = `Set ${where} to a file with the real upstreams (e.g. /run/systemd/resolve/resolv.conf), then restart kubelet and the CoreDNS pods.`;
  if (named !== null && isManagedResolvConf(named)) {
    return {
      ...base,
      severity: 'error',
      title: "kubelet's resolvConf is the K2s-owned file (CoreDNS loop)",
      meaning: `kubelet's resolvConf ${resolvConf} (from ${where}) is the K2s-owned resolver (nameserver 127.0.0.1), so new CoreDNS pods forward to themselves and crash with "Loop … detected".`,
      fix,
      detail: { ...detail, managed: true },
    };
  }
  if (named === null) {
    return {
      ...base,
      severity: 'warn',
      title: "kubelet's resolvConf does not exist",
      meaning: `kubelet's resolvConf ${resolvConf} does not exist, so kubelet cannot create pods with the Default or ClusterFirst DNS policy.`,
      fix: `Point ${where} at an existing resolv.conf with the real upstreams and restart kubelet.`,
      detail: { ...detail, managed: false },
    };
  }
  const loopback = loopbackNameservers(named.toString('utf8'));
  if (loopback.length > 0) {
    // In a pod, loopback is the pod itself: CoreDNS (forward . /etc/resolv.conf) asks itself.
    const resolvedFile = resolvConf === RESOLVED_UPLINK_RESOLV_CONF;
    return {
      ...base,
      severity: 'error',
      title: "kubelet's resolvConf names a loopback nameserver (CoreDNS loop)",
      meaning: `kubelet's resolvConf ${resolvConf} (from ${where}) names ${loopback.join(', ')}; kubelet copies it into pods with dnsPolicy Default, so CoreDNS forwards to itself ("Loop … detected") and other such pods ask a nameserver that is not there.`,
      fix: resolvedFile
        ? `Remove the global DNS= entry with ${loopback.join(', ')} from systemd-resolved (a drop-in in /etc/systemd/resolved.conf.d/ or DNS= in /etc/systemd/resolved.conf; K2s DNS's older 20-k2s-dns.conf goes with \`${cliCommand('stop', true)}\`), run \`systemctl restart systemd-resolved\`, then restart kubelet and the CoreDNS pods.`
        : `Set ${where} to a file that names only the real upstreams (on systemd-resolved hosts ${RESOLVED_UPLINK_RESOLV_CONF}, which kubeadm picks), then restart kubelet and the CoreDNS pods.`,
      detail: { ...detail, managed: false, loopback },
    };
  }
  if (resolvConf === K2S_PATHS.resolvConf) {
    return {
      ...base,
      severity: 'warn',
      title: "kubelet's resolvConf becomes the K2s-owned file on start",
      meaning: `kubelet's resolvConf is ${resolvConf} (from ${where}): once K2s DNS starts it becomes nameserver 127.0.0.1, and CoreDNS pods created then crash with "Loop … detected".`,
      fix,
      detail: { ...detail, managed: false },
    };
  }
  return { ...base, severity: 'ok', meaning: `kubelet's resolvConf ${resolvConf} is not the file K2s DNS replaces.`, fix: null, detail: { ...detail, managed: false } };
}
