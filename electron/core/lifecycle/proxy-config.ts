import type { HostFs } from '../host/host-fs';
import type { EngineName, Listener, ProxyPlan } from '../../../shared/types';
import type { ServiceSpec } from '../../../shared/systemd-unit';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { renderDnsproxyConfig, renderDnsproxyArgs } from '../../../shared/dnsproxy-config';
import { renderDnsmasqConfig, renderDnsmasqArgs } from '../../../shared/dnsmasq-config';
import { ensureRootDir } from '../host/root-dirs';

/** Host path of the engine's config file. */
export function configPathFor(engine: EngineName): string {
  return engine === 'adguard' ? K2S_PATHS.proxyConfig : K2S_PATHS.dnsmasqConfig;
}

/** What was at the config path before a write, to put back exactly on rollback. */
type Previous = { kind: 'file'; bytes: Buffer; mode: number; uid: number; gid: number } | { kind: 'symlink'; target: string; uid: number; gid: number } | null;

/**
 * The entry at `path` as it is, never read through a link: a file's bytes through an O_NOFOLLOW
 * fd with its own mode and owner, a symlink's target string. Anything else is refused (the
 * directory was checked root-only, so only root could have put it there).
 */
async function capture(fs: HostFs, path: string): Promise<Previous> {
  const st = await fs.lstat(path);
  if (st === null) return null;
  if (st.kind === 'symlink') return { kind: 'symlink', target: await fs.readlink(path), uid: st.uid, gid: st.gid };
  if (st.kind !== 'file') throw new Error(`${path} is not a regular file; remove it (k2s-dns writes its engine config there) and start again.`);
  return { kind: 'file', bytes: await fs.readFileNoFollow(path), mode: st.mode, uid: st.uid, gid: st.gid };
}

/**
 * Renders and writes the engine's config (0644, /etc/k2s) and prepares the log directory; both
 * directories must be root's alone (root-dirs.ts: NotRootOwnedError otherwise).
 * @returns the host path written and an undo that puts back exactly what was there: a file
 *   with its own bytes, mode and owner (never a wider mode), a symlink as a symlink (never
 *   written through), nothing as nothing
 */
export async function writeProxyConfig(fs: HostFs, plan: ProxyPlan): Promise<{ path: string; undo: () => Promise<void> }> {
  const path = configPathFor(plan.engine);
  const text = plan.engine === 'adguard' ? renderDnsproxyConfig(plan) : renderDnsmasqConfig(plan);
  await ensureRootDir(fs, '/etc/k2s', 0o755);
  await ensureRootDir(fs, K2S_PATHS.logDir, 0o755);
  const before = await capture(fs, path);
  await fs.writeFileAtomic(path, text, { mode: 0o644, uid: 0, gid: 0 });
  return {
    path,
    undo: async () => {
      if (before === null) await fs.remove(path);
      else if (before.kind === 'symlink') await fs.symlinkAtomic(path, before.target, { uid: before.uid, gid: before.gid });
      else await fs.writeFileAtomic(path, before.bytes, { mode: before.mode, uid: before.uid, gid: before.gid });
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
 * that waits for their addresses. undefined when every listener is loopback, and for dnsmasq:
 * its `bind-dynamic` would bind addresses as they appear, but measured on dnsmasq 2.90 it then
 * drops TCP queries that arrive on another interface than the one holding the address (the
 * bed's KubeSwitch worker), so dnsmasq keeps `bind-interfaces` and the reboot gap (issue 17).
 */
export function lateListenersFor(engine: EngineName, argv: readonly string[], listeners: readonly Listener[]): ServiceSpec['lateListeners'] {
  if (engine !== 'adguard') return undefined;
  const loopback = [...new Set(listeners.filter((l) => isLoopback(l.address)).map((l) => l.address))];
  const late = [...new Set(listeners.filter((l) => !isLoopback(l.address)).map((l) => l.address))];
  if (late.length === 0 || loopback.length === 0) return undefined;
  const only = (addrs: string[]) => [...argv, ...addrs.flatMap((a) => ['-l', a])];
  return { mainArgv: only(loopback), addresses: late, argv: only(late) };
}
