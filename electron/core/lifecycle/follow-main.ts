/**
 * `follow-watch`: the network follower's process (started by host/follower.ts as root, from the
 * CLI or the helper entry). Watches until SIGTERM/SIGINT, one timestamped line per change on stdout.
 */
import type { LifecycleDeps } from './deps';
import { watchNetwork } from './follow-watch';

/** Runs the follower until SIGTERM or SIGINT; resolves the exit status (3 when not root). */
export async function runFollower(deps: LifecycleDeps): Promise<number> {
  if (deps.uid() !== 0) {
    process.stderr.write('k2s-dns follow-watch rewrites /etc/resolv.conf and restarts the proxy: it runs as root, started by k2s-dns start.\n');
    return 3;
  }
  const stop = new AbortController();
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => stop.abort());
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  // Said once the watches are set and the first look is done: from then on a change is seen at once.
  await watchNetwork(deps, { signal: stop.signal, log, onReady: () => log(`k2s-dns follow-watch (PID ${process.pid}) watches the network's resolver files.`) });
  return 0;
}
