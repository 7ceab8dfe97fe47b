import type { HostFs } from '../host/host-fs';
import type { EngineName, Listener, ProxyPlan } from '../../../shared/types';
import type { ServiceSpec } from '../../../shared/systemd-unit';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { engineRuntime } from '../engines/table';
import type { SelfDrop } from '../engines/runtime';
import { ensureRootDir } from '../host/root-dirs';

/** Host path of the engine's config file. */
export function configPathFor(engine: EngineName): string {
  return engineRuntime(engine).configPath;
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
  const text = await engineRuntime(plan.engine).renderConfig(plan);
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

/**
 * True when plans `a` and `b` render to the same config bytes for their engine (renderConfig):
 * an engine started with `a`'s config runs with `b`'s already (a follow that changed only the
 * resolver file's search list, or a resolv.conf(5) option the engine's config does not carry).
 */
export async function sameProxyConfig(a: ProxyPlan, b: ProxyPlan): Promise<boolean> {
  return (await engineRuntime(a.engine).renderConfig(a)) === (await engineRuntime(b.engine).renderConfig(b));
}

/**
 * True when the engine's config file holds exactly the bytes `plan` renders to (renderConfig):
 * what a running engine read at its last start, unless someone wrote the file since. A follow
 * that failed after writing another network's config leaves the state's plan behind the file,
 * and a hand edit too: then a plan that renders as the state's is no reason to keep the engine.
 * A symlink, a missing or non-regular file, or a longer one (read up to one byte more than the
 * render) is false.
 */
export async function configHolds(fs: HostFs, plan: ProxyPlan): Promise<boolean> {
  const text = Buffer.from(await engineRuntime(plan.engine).renderConfig(plan));
  const onDisk = await fs.readFileNoFollow(configPathFor(plan.engine), { maxBytes: text.length + 1 }).catch(() => null);
  return onDisk !== null && onDisk.equals(text);
}

/** Longest /etc/passwd read for selfDropFor, bytes (a host with thousands of accounts is far below). */
const PASSWD_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The account `engine` drops root to by itself on this host (EngineRuntime.selfDrop), from the
 * host's /etc/passwd — the file the engine itself reads to find that account. null for an
 * engine that does not drop itself. An unreadable file reads as empty (the fallback account).
 */
export async function selfDropFor(fs: HostFs, engine: EngineName): Promise<SelfDrop | null> {
  const choose = engineRuntime(engine).selfDrop;
  if (choose === null) return null;
  const text = await fs.readFile('/etc/passwd', { maxBytes: PASSWD_MAX_BYTES }).then((b) => b.toString('utf8'), () => '');
  return choose(text);
}

/**
 * argv of the one proxy process serving every listener (binary and config as real paths on this
 * machine): AdGuard dnsproxy reads its listeners from the YAML, dnsmasq gets them as
 * `--listen-address=` flags (its config has none, renderDnsmasqConfig) and `drop`'s account as
 * `--user=` (selfDropFor).
 */
export function proxyArgv(fs: HostFs, binary: string, engine: EngineName, configPath: string, verbose: boolean, listeners: readonly Listener[], drop: SelfDrop | null): string[] {
  return [fs.real(binary), ...engineRuntime(engine).args(fs.real(configPath), verbose, listeners.map((l) => l.address), drop)];
}

/** Loopback listeners (127.0.0.0/8, ::1): always assigned, from boot on. */
function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1';
}

/**
 * ServiceSpec.lateListeners for `argv` (proxyArgv's): on systemd the loopback listeners run in
 * the main unit, served from boot on, and the others (the KubeSwitch address K2s adds after
 * boot) in a second unit that waits for their addresses. Both engines exit when one of their
 * addresses is not assigned, so one process would not serve 127.0.0.1 either after a reboot:
 * AdGuard dnsproxy v0.83.1 (`bind: cannot assign requested address`, no freebind) and dnsmasq
 * with `bind-interfaces` ("failed to create listening socket for 172.19.1.1"; its
 * `bind-dynamic` binds addresses as they appear, but measured on dnsmasq 2.90 it then drops TCP
 * queries that arrive on another interface than the one holding the address — the bed's
 * KubeSwitch worker — so it keeps `bind-interfaces`).
 * - adguard: the command line overrides the config's `listen-addrs` (dnsproxy v0.83.1
 *   internal/cmd/config.go parseConfig: flags are parsed again after the YAML; `-l` replaces
 *   the list), so the same /etc/k2s/dnsproxy.yaml (all listeners, as K2s's own CLI reads it)
 *   serves `-l 127.0.0.1` in one unit and `-l 172.19.1.1` in the other.
 * - dnsmasq: `--listen-address` flags add to the config's (dnsmasq(8)), so the config has none
 *   and each process gets only its own addresses' flags (argv's are replaced); no pid file
 *   (`--pid-file=`), so the two processes share nothing but the config and the log.
 * undefined when every listener is loopback or none is.
 */
export function lateListenersFor(engine: EngineName, argv: readonly string[], listeners: readonly Listener[]): ServiceSpec['lateListeners'] {
  const loopback = [...new Set(listeners.filter((l) => isLoopback(l.address)).map((l) => l.address))];
  const late = [...new Set(listeners.filter((l) => !isLoopback(l.address)).map((l) => l.address))];
  if (late.length === 0 || loopback.length === 0) return undefined;
  const only = (addrs: string[]) => engineRuntime(engine).onlyListeners(argv, addrs);
  return { mainArgv: only(loopback), addresses: late, argv: only(late) };
}
