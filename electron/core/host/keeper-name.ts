/**
 * How a capture keeper shell (capture-keeper.ts) is recognised by its command line: alone, so the
 * companion (capture/go-idle.ts) can tell its parent is its keeper without loading the keeper's script.
 */

/** argv[0] the keeper shell runs under (shows in ps; recognised by stop). */
export const KEEPER_NAME = 'k2s-dns-capture-keeper';

/** True when `argv` (from /proc/PID/cmdline) is a keeper shell (`/bin/sh -c SCRIPT KEEPER_NAME …`). */
export function isKeeperArgv(argv: readonly string[]): boolean {
  return argv[1] === '-c' && argv[3] === KEEPER_NAME;
}
