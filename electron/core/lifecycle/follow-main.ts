/**
 * `follow-watch`: the network follower's process (started by host/follower.ts as root, from the
 * CLI or the helper entry). Watches until SIGTERM/SIGINT, one timestamped line per change on stdout.
 */
import type { LifecycleDeps } from './deps';
import type { HostFs } from '../host/host-fs';
import { watchNetwork } from './follow-watch';
import { kubeconfigToName } from '../cluster/kubeconfig-default';
import { readState } from '../host/resolver-state';
import { setCliKubeconfig } from '../../../shared/fix';
import type { ResolverStateFile } from '../../../shared/state-file';

/**
 * The follower's fix texts — the watchdog's give-up line of the proxy it starts again after a
 * follow (follow.ts) — name the kubeconfig the running start used when `sudo k2s-dns start` would
 * not find it (kubeconfigToName), as that start's own line did: this process has neither the
 * start's `--kubeconfig` nor its caller's environment (sixth walk M1). `host` is injected by tests.
 */
export async function nameStartedKubeconfig(fs: HostFs, host?: Parameters<typeof kubeconfigToName>[1]): Promise<void> {
  const started = (await readState(fs).catch(() => null))?.kubeconfigPath ?? null;
  setCliKubeconfig(await kubeconfigToName(started, host));
}

/** Runs the follower until SIGTERM or SIGINT; resolves the exit status (3 when not root). */
export async function runFollower(deps: LifecycleDeps): Promise<number> {
  if (deps.uid() !== 0) {
    process.stderr.write('k2s-dns follow-watch rewrites /etc/resolv.conf and restarts the proxy: it runs as root, started by k2s-dns start.\n');
    return 3;
  }
  await nameStartedKubeconfig(deps.fs).catch(() => undefined);
  const stop = new AbortController();
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  // Said in the journal: a stop that finds a follow in progress signals this process and waits
  // for that follow to let go of the lock (companions.ts lockPastFollower).
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => {
    log(`${sig}: the watch ends (a look in progress is finished first).`);
    stop.abort();
  });
  // Said once the watches are set and the first look is done: from then on a change is seen at once.
  // K2s's own `k2s stop` put the saved original back and stopped the proxy: the rest of a stop
  // (the capture, the route, the units' links, the saved state) is done here, as `k2s-dns stop`
  // would, except for this unit's own stop (it ends by returning).
  const onStoppedOutside = async (_why: string, heldState: ResolverStateFile) => {
    const { stopDns } = await import('./stop');
    const result = await stopDns(deps, { byFollower: true, heldState }, (e) => {
      if (e.type === 'step' && e.status !== 'running' && e.message) log(`stop ${e.step}: ${e.message}`);
    });
    log(`${result.ok ? 'OK' : `FAILED [${result.code ?? 'INTERNAL'}]`}: ${result.message}${(result.warnings ?? []).map((w) => ` [${w.code}] ${w.message}`).join('')}`);
    stop.abort();
  };
  await watchNetwork(deps, { signal: stop.signal, log, onStoppedOutside, onReady: () => log(`k2s-dns follow-watch (PID ${process.pid}) watches the network's resolver files.`) });
  return 0;
}
