import type { LifecycleDeps } from './deps';

/**
 * Whether systemd-resolved manages DNS here: systemd is the service manager and resolved's
 * runtime dir exists. On such hosts glibc often asks resolved (nss-resolve), not the file.
 */
export async function resolvedActive(deps: LifecycleDeps): Promise<boolean> {
  if (deps.services.kind !== 'systemd') return false;
  return (await deps.fs.lstat('/run/systemd/resolve')) !== null;
}

/** Restarts systemd-resolved so it reads (or forgets) the K2s drop-in. Throws on failure. */
export async function restartResolved(deps: LifecycleDeps): Promise<void> {
  const r = await deps.exec.run('systemctl', ['try-restart', 'systemd-resolved.service'], { timeoutMs: 15_000 });
  if (r.code !== 0) throw new Error(`systemctl try-restart systemd-resolved failed: ${r.stderr.trim()}`);
}
