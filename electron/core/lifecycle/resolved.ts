/**
 * systemd-resolved on the host (shared/resolved-link.ts has the why): is it running, which link
 * holds the KubeSwitch address, and the routing-only link for the cluster zones on it — runtime
 * state set with resolvectl(1), dropped again with `resolvectl revert`. resolved keeps runtime
 * link settings across its own restart (/run/systemd/resolve/netif/), not across the link being
 * deleted and created again.
 */
import type { LifecycleDeps } from './deps';
import type { Exec } from '../host/exec';
import { applyRouteArgs, revertRouteArgs, parseResolvectlQuery, type ResolvedRoute } from '../../../shared/resolved-link';
import { parseResolvectlDns } from '../host/upstreams';

/** Deadline of one resolvectl/systemctl call, ms (resolved answers D-Bus calls in ms; a busy host needs more). */
const CALL_MS = 15_000;

/** Whether systemd-resolved runs here: systemd is the service manager and `systemctl is-active systemd-resolved` says active. */
export async function resolvedActive(deps: LifecycleDeps): Promise<boolean> {
  if (deps.services.kind !== 'systemd') return false;
  // The manager's own read when it has one (askUnits' one show, before start's preflight).
  if (deps.services.resolvedActive) return deps.services.resolvedActive().catch(() => false);
  const r = await deps.exec.run('systemctl', ['is-active', 'systemd-resolved.service'], { timeoutMs: CALL_MS }).catch(() => null);
  return r !== null && r.code === 0 && r.stdout.trim() === 'active';
}

/** Restarts systemd-resolved (it forgets servers it read from a foreign /etc/resolv.conf). Throws on failure. */
export async function restartResolved(deps: LifecycleDeps): Promise<void> {
  const r = await deps.exec.run('systemctl', ['try-restart', 'systemd-resolved.service'], { timeoutMs: CALL_MS });
  if (r.code !== 0) throw new Error(`systemctl try-restart systemd-resolved failed: ${r.stderr.trim()}`);
}

/**
 * The interface that holds `address` (`ip -o addr show`, ip-address(8)), or null. A veth's
 * `name@peer` is returned as `name`.
 */
export async function interfaceOfAddress(exec: Exec, address: string): Promise<string | null> {
  const r = await exec.run('ip', ['-o', 'addr', 'show'], { timeoutMs: CALL_MS }).catch(() => null);
  if (!r || r.code !== 0) return null;
  for (const line of r.stdout.split('\n')) {
    const m = /^\d+:\s+([^\s@]+)(?:@\S+)?\s+inet6?\s+([^/\s]+)/.exec(line);
    if (m && m[2] === address) return m[1] as string;
  }
  return null;
}

/** The DNS servers resolved has for `link` now (`resolvectl dns LINK`); [] when it has none or the link is unknown. */
export async function linkServers(exec: Exec, link: string): Promise<string[]> {
  const r = await exec.run('resolvectl', ['dns', link], { timeoutMs: CALL_MS }).catch(() => null);
  if (!r || r.code !== 0) return [];
  return parseResolvectlDns(r.stdout).flatMap((l) => l.servers);
}

async function resolvectl(exec: Exec, args: string[]): Promise<void> {
  const r = await exec.run('resolvectl', args, { timeoutMs: CALL_MS });
  if (r.code !== 0) throw new Error(`resolvectl ${args.join(' ')} failed (${r.stderr.trim() || `exit ${r.code}`}); check \`systemctl status systemd-resolved\`.`);
}

/** Makes `route` a routing-only link (applyRouteArgs). Throws with resolvectl's message on failure. */
export async function applyRoute(exec: Exec, route: ResolvedRoute): Promise<void> {
  for (const args of applyRouteArgs(route)) await resolvectl(exec, args);
}

/** Drops the runtime DNS settings of `link`; a link that is gone has none left, so that is no error. */
export async function revertRoute(exec: Exec, link: string): Promise<void> {
  const r = await exec.run('resolvectl', revertRouteArgs(link), { timeoutMs: CALL_MS });
  if (r.code === 0 || /not found|No such device|Unknown interface|Failed to resolve interface/i.test(r.stderr)) return;
  throw new Error(`resolvectl revert ${link} failed (${r.stderr.trim() || `exit ${r.code}`}).`);
}

/**
 * Asks resolved for `name`'s IPv4 addresses the way nss-resolve does (`resolvectl query -4`,
 * D-Bus ResolveHostname); the answers with the link that gave each, or the error text.
 */
export async function resolvectlQuery(exec: Exec, name: string, timeoutMs: number): Promise<{ answers: { address: string; link: string | null }[]; error: string | null }> {
  const r = await exec.run('resolvectl', ['query', '-4', '--legend=no', name], { timeoutMs }).catch((err: unknown) => ({ code: null, stdout: '', stderr: String(err) }));
  const answers = r.code === 0 ? parseResolvectlQuery(r.stdout) : [];
  return { answers, error: r.code === 0 ? null : (r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`) };
}
