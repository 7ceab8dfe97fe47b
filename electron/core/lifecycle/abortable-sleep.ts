/**
 * A sleep that `signal`'s abort ends early. Its timer is cleared then, not only raced: a pending
 * timer keeps a Node process alive (Node's event loop runs while a timer is active), so the
 * network follower, told to stop (SIGTERM aborts its watch, follow-main.ts), exited only once its
 * proxy watch's poll (proxy-watch.ts: 1 s; 5 s after a crash) was over — and a `k2s-dns stop` on
 * systemd, whose one `systemctl stop` stops the follower before the proxy (its unit is After= the
 * proxy's), waited for that: stop-service 0.6–1.1 s on the booted Debian 13 host, ~0.1 s without.
 */

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves after `ms` ms, or at once when `signal` is aborted (already or meanwhile), its timer
 * then cleared: Node's timers/promises setTimeout with `{ signal }`, whose AbortError (its only
 * rejection) is taken as the end of the sleep. Never rejects.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, undefined, signal ? { signal } : undefined).then(
    () => undefined,
    () => undefined,
  );
}
