/**
 * Where the test-only entry (pause-entry.ts) can stop an operation for a power-loss test, in
 * the order they happen. start: after the state file is first written (save); after the proxy
 * config is written; after the unit file is written (before its links); after the proxy's links
 * is made (host/unit-links.ts; its restart runs alongside); after the service answered on every listener; after the K2s-owned
 * /etc/resolv.conf is written but before the state records it (inside activate); after
 * activate; at verify's first getaddrinfo. stop: after the original is restored, before the
 * proxy is stopped; after the proxy is stopped, before the state file goes.
 */
export const PAUSE_POINTS = [
  'after-save',
  'after-config',
  'after-unit-written',
  'after-enable',
  'after-proxy-start',
  'during-activate',
  'after-activate',
  'during-verify',
  'stop-after-restore',
  'stop-after-service',
] as const;
/** One of PAUSE_POINTS. */
export type PausePoint = (typeof PAUSE_POINTS)[number];
