/**
 * A reader that goes away must not end an operation half-done. `k2s-dns stop --json | head -1`
 * closes the pipe after one line, a closed terminal or a dead `k2s-dns ui` parent does the same
 * to the helper: the next write fails with EPIPE (Node ignores SIGPIPE, so it arrives as an
 * 'error' event on the stream), and with no listener that event ended the process between
 * restore and stop-service. Here EPIPE on stdout or stderr only silences that stream (a
 * destroyed stream's later writes fail quietly, node:stream), and the operation runs to its
 * end and exits with its own status; any other stream error is still thrown.
 */

/** Installs the EPIPE handling on process.stdout and process.stderr (once per process). */
export function surviveClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}
