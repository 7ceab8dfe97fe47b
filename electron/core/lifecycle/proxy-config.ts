import type { HostFs } from '../host/host-fs';
import type { EngineName, ProxyPlan } from '../../../shared/types';
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
