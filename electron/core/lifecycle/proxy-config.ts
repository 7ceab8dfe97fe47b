import type { HostFs } from '../host/host-fs';
import type { EngineName, Listener, ProxyPlan } from '../../../shared/types';
import type { ServiceSpec } from '../../../shared/systemd-unit';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { renderDnsproxyConfig, renderDnsproxyArgs } from '../../../shared/dnsproxy-config';
import { renderDnsmasqConfig, renderDnsmasqArgs } from '../../../shared/dnsmasq-config';

/** Host path of the engine's config file. */
export function configPathFor(engine: EngineName): string {
  return engine === 'adguard' ? K2S_PATHS.proxyConfig : K2S_PATHS.dnsmasqConfig;
}

/**
 * Renders and writes the engine's config (0644, /etc/k2s) and prepares the log directory.
 * @returns the host path written and an undo that puts back the previous bytes (or removes it)
 */
export async function writeProxyConfig(fs: HostFs, plan: ProxyPlan): Promise<{ path: string; undo: () => Promise<void> }> {
  const path = configPathFor(plan.engine);
  const text = plan.engine === 'adguard' ? renderDnsproxyConfig(plan) : renderDnsmasqConfig(plan);
  const before = (await fs.lstat(path)) ? await fs.readFile(path) : null;
  await fs.mkdirp('/etc/k2s', 0o755);
  await fs.mkdirp(K2S_PATHS.logDir, 0o755);
  await fs.writeFileAtomic(path, text, { mode: 0o644, uid: 0, gid: 0 });
  return {
    path,
    undo: async () => {
      if (before) await fs.writeFileAtomic(path, before, { mode: 0o644, uid: 0, gid: 0 });
      else await fs.remove(path);
    },
  };
}

/** argv of the proxy process (binary and config as real paths on this machine). */
export function proxyArgv(fs: HostFs, binary: string, engine: EngineName, configPath: string, verbose: boolean): string[] {
  const config = fs.real(configPath);
  return engine === 'adguard'
    ? [fs.real(binary), ...renderDnsproxyArgs(config, verbose)]
    : [fs.real(binary), ...renderDnsmasqArgs(config)];
}

/** Loopback listeners (127.0.0.0/8, ::1): always assigned, from boot on. */
function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1';
}

/**
 * ServiceSpec.lateListeners for `argv` (proxyArgv's): AdGuard dnsproxy v0.83.1 exits when one
 * of its listen addresses is not assigned (`bind: cannot assign requested address`) and has no
 * freebind, so after a reboot — K2s adds the KubeSwitch address later — it would not serve
 * 127.0.0.1 either. Its command line overrides the config's `listen-addrs` (dnsproxy v0.83.1
 * internal/cmd/config.go parseConfig: flags are parsed again after the YAML; `-l` replaces the
 * list), so the same /etc/k2s/dnsproxy.yaml (all listeners, as K2s's own CLI reads it) serves
 * the loopback listeners from the main unit (`-l 127.0.0.1`) and the others from a second unit
 * that waits for their addresses. undefined for dnsmasq (its `bind-dynamic` binds addresses as
 * they appear) and when every listener is loopback.
 */
export function lateListenersFor(engine: EngineName, argv: readonly string[], listeners: readonly Listener[]): ServiceSpec['lateListeners'] {
  if (engine !== 'adguard') return undefined;
  const loopback = [...new Set(listeners.filter((l) => isLoopback(l.address)).map((l) => l.address))];
  const late = [...new Set(listeners.filter((l) => !isLoopback(l.address)).map((l) => l.address))];
  if (late.length === 0 || loopback.length === 0) return undefined;
  const only = (addrs: string[]) => [...argv, ...addrs.flatMap((a) => ['-l', a])];
  return { mainArgv: only(loopback), addresses: late, argv: only(late) };
}
