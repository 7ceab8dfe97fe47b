/**
 * A stalled K2s on a booted Debian host (debian-host.ts): K2s's CLI finds `systemctl` on PATH, and
 * this one waits for the test before it runs the real one — /run/k2s-test-bin/systemctl reads a
 * line from the fifo /run/k2s-test-late, then execs /usr/bin/systemctl. So a test holds K2s's
 * `systemctl stop k2s-dnsproxy` for as long as its case needs (past the follower's watches).
 */
import type { DebianHost, HostRun } from './debian-host';

const BIN = '/run/k2s-test-bin';
const FIFO = '/run/k2s-test-late';

/** The wrapper laid by stallSystemctl. */
export interface StalledSystemctl {
  /** Runs `argv` as root inside the host with the waiting systemctl first on PATH (env(1)); bound `timeoutMs`. */
  run(argv: readonly string[], timeoutMs: number): Promise<HostRun>;
  /** Lets a waiting systemctl go on: a line into the fifo, opened read-write so the write never blocks (fifo(7)). Throws when that write fails. */
  release(): Promise<void>;
  /** Releases any waiting systemctl and removes the wrapper and the fifo (a test's `finally`); never throws. */
  remove(): Promise<void>;
}

/** Lays the waiting systemctl and its fifo into the host (any left by an earlier case replaced). Throws when that fails. */
export async function stallSystemctl(h: DebianHost): Promise<StalledSystemctl> {
  const wrap = await h.run(['sh', '-c', `rm -rf ${BIN} ${FIFO} && mkdir ${BIN} && mkfifo ${FIFO} && cat > ${BIN}/systemctl && chmod 755 ${BIN}/systemctl`], {
    input: `#!/bin/sh\nread x < ${FIFO}\nexec /usr/bin/systemctl "$@"\n`,
  });
  if (wrap.code !== 0) throw new Error(`laying the waiting systemctl failed (exit ${wrap.code}): ${wrap.stderr}`);
  return {
    run: (argv, timeoutMs) => h.run(['env', `PATH=${BIN}:/usr/sbin:/usr/bin:/sbin:/bin`, ...argv], { timeoutMs }),
    async release() {
      const r = await h.sh(`echo go 1<>${FIFO}`);
      if (r.code !== 0) throw new Error(`releasing the waiting systemctl failed (exit ${r.code}): ${r.stderr}`);
    },
    async remove() {
      await h.sh(`echo go 1<>${FIFO}; rm -rf ${BIN} ${FIFO}; true`).catch(() => undefined);
    },
  };
}
