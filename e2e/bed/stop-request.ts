/**
 * How the inner side of `npm run sandbox` and `npm run try-package` learns it should stop. The
 * outer side (outside the sandbox) holds the write end of the inner's stdin, a pipe through
 * sandbox.sh and inner.sh, for as long as it runs; end of file there means "stop". The kernel
 * closes that end when the outer dies in any way, SIGKILL too (pipe(7): a read returns 0 once
 * every write end is closed), so the inside never outlives the outside.
 */

/** The signals that stop either side: Ctrl-C, kill's default, and a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Resolves when this process should stop: on a stop signal, or at end of file (or an error) on
 * stdin. The listeners stay (`on`, not `once`): a terminal's Ctrl-C signals the whole group and
 * npm then forwards the same SIGINT (@npmcli/run-script signal-manager.js); a second signal with
 * no listener left would kill the process mid-stop.
 */
export function stopRequested(): Promise<void> {
  return new Promise((resolve) => {
    for (const sig of STOP_SIGNALS) process.on(sig, () => resolve());
    process.stdin.on('end', () => resolve());
    process.stdin.on('error', () => resolve());
    process.stdin.resume();
  });
}
