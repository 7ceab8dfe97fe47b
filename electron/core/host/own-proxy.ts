/**
 * Recognises K2s DNS's own proxy processes by their exact command line (/proc/PID/cmdline), so
 * that a proxy whose pidfile was never written or was lost (kill -9 of the CLI, /run emptied)
 * is still found and stopped: an orphan must never hold port 53 while we say "stopped".
 *
 * A process is ours when its argv carries the exact config argument K2s renders for an engine
 * (`--config-path=<config>` for AdGuard dnsproxy, `--conf-file=<config>` for dnsmasq; see
 * shared/dnsproxy-config.ts and shared/dnsmasq-config.ts) AND it runs in our mount namespace:
 * the same path string in another mount namespace (a container, a test sandbox) names another
 * file, so that process belongs to someone else.
 */
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { HostFs } from './host-fs';
import type { EngineName } from '../../../shared/engines/table';

/** Each engine's exact argv entry that marks our proxy (its config path as a real path on this machine). */
function markerByEngine(fs: HostFs): Record<EngineName, string> {
  return { adguard: `--config-path=${fs.real(K2S_PATHS.proxyConfig)}`, dnsmasq: `--conf-file=${fs.real(K2S_PATHS.dnsmasqConfig)}` };
}

/** The exact argv entries that mark our proxy (config paths as real paths on this machine). */
export function ownProxyMarkers(fs: HostFs): string[] {
  return Object.values(markerByEngine(fs));
}

/**
 * The engine process `pid` runs, told by the config argument K2s renders for it in its argv
 * (ownProxyMarkers), or null: gone, /proc/PID/cmdline hidden (proc(5) `hidepid`), or no marker.
 * Only /proc/PID/cmdline is read, which any user may read (proc(5)), so a user who cannot read
 * root's 0700 state directory still learns which engine the running proxy is; `pid` must be the
 * proxy's as the service manager names it (no mount-namespace check: a user cannot read another
 * user's /proc/PID/ns/mnt).
 */
export async function ownProxyEngine(fs: HostFs, pid: number, procDir = '/proc'): Promise<EngineName | null> {
  const argv = await fsp.readFile(path.join(procDir, String(pid), 'cmdline')).then(parseCmdline, () => [] as string[]);
  const markers = markerByEngine(fs);
  return (Object.keys(markers) as EngineName[]).find((e) => isOwnProxyArgv(argv, [markers[e]])) ?? null;
}

/** Splits /proc/PID/cmdline bytes into argv (NUL-separated, trailing NUL). */
export function parseCmdline(bytes: Buffer | string): string[] {
  const parts = bytes.toString().split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** True when `argv` carries one of `markers` as a whole argument (never a substring match). */
export function isOwnProxyArgv(argv: readonly string[], markers: readonly string[]): boolean {
  return argv.slice(1).some((a) => markers.includes(a));
}

/** Whether process `pid` runs our proxy: exact marker in its argv and our mount namespace. */
export async function isOwnProxyPid(fs: HostFs, pid: number, procDir = '/proc'): Promise<boolean> {
  try {
    const [argvBytes, ns, self] = await Promise.all([
      fsp.readFile(path.join(procDir, String(pid), 'cmdline')),
      fsp.readlink(path.join(procDir, String(pid), 'ns', 'mnt')),
      fsp.readlink(path.join(procDir, 'self', 'ns', 'mnt')),
    ]);
    return ns === self && isOwnProxyArgv(parseCmdline(argvBytes), ownProxyMarkers(fs));
  } catch {
    return false; // gone, a zombie, or not readable (not root): not provably ours
  }
}

/** Every live process that is our proxy (see the file comment), lowest pid first. */
export async function findOwnProxies(fs: HostFs, procDir = '/proc'): Promise<number[]> {
  const pids = (await fsp.readdir(procDir).catch(() => [] as string[]))
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => pid !== process.pid)
    .sort((a, b) => a - b);
  // A cheap synchronous pass over every cmdline first (a /proc read is a few µs; one awaited
  // read per process cost `stop` ~0.7 s on a host with ~1,000 processes), then the full check
  // (mount namespace too) only for the few whose argv carries a marker.
  const markers = ownProxyMarkers(fs);
  const candidates = pids.filter((pid) => {
    try {
      return isOwnProxyArgv(parseCmdline(readFileSync(path.join(procDir, String(pid), 'cmdline'))), markers);
    } catch {
      return false; // gone or not readable
    }
  });
  const found: number[] = [];
  for (const pid of candidates) if (await isOwnProxyPid(fs, pid, procDir)) found.push(pid);
  return found;
}

/**
 * True only when process `pid` provably runs in another mount namespace than this process (both
 * /proc/PID/ns/mnt links readable and different, proc(5)); false when they are the same or either
 * cannot be read (gone, not root). There the same config path names another file: a K2s DNS proxy,
 * but not this host's.
 */
export async function inOtherMountNamespace(pid: number, procDir = '/proc'): Promise<boolean> {
  const [ns, self] = await Promise.all(
    [path.join(procDir, String(pid), 'ns', 'mnt'), path.join(procDir, 'self', 'ns', 'mnt')].map((p) => fsp.readlink(p).catch(() => null)),
  );
  return ns !== null && self !== null && ns !== self;
}
