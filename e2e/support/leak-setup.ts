/**
 * Setup file of the sandbox e2e run (vitest.e2e.config.ts setupFiles): each file's processes are
 * tagged with its path (bed-procs.ts E2E_FILE_VAR), and after the file's own afterAll hooks
 * (vitest runs a setup file's afterAll last: sequence.hooks `stack`) any keeper, capture
 * companion, tcpdump, parser, follower, watchdog or engine the file started that still runs once
 * LEAK_SETTLE_MS have passed is killed (SIGKILL, by PID, its start time checked) and the file
 * fails with the list — a leak names its file instead of failing a later one. A process tagged for
 * another file (started late: a keeper's restart after its file ended) is killed and named too.
 * Only inside the sandbox (K2S_DNS_SANDBOX, e2e/bed/sandbox.sh); elsewhere it does nothing.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { processStartTime } from '../../electron/core/capture/hold-wait';
import { bedProcs, E2E_FILE_VAR, isThisFiles, recordBaseline, type BedProc } from './bed-procs';

/** How long the file's processes get to end after its last hook (a held companion sees its start's end within HOLD_POLL_MS, then exits), ms. */
export const LEAK_SETTLE_MS = 15_000;

if (process.env.K2S_DNS_SANDBOX === '1') {
  const testPath = expect.getState().testPath;
  const file = testPath ? path.relative(process.cwd(), testPath) : `vitest worker ${process.env.VITEST_WORKER_ID ?? '?'}`;
  process.env[E2E_FILE_VAR] = file;

  beforeAll(async () => {
    await recordBaseline();
  });

  afterAll(async () => {
    /** What counts: this file's, and what a file tagged for another started after it ended. */
    const left = async (): Promise<BedProc[]> => (await bedProcs()).filter((p) => isThisFiles(p, file) || (p.file !== null && p.file !== file));
    const deadline = Date.now() + LEAK_SETTLE_MS;
    let procs = await left();
    while (procs.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      procs = await left();
    }
    if (procs.length === 0) return;
    for (const p of procs) if ((await processStartTime(p.pid)) === String(p.startTime)) process.kill(p.pid, 'SIGKILL');
    const line = (p: BedProc) => `  PID ${p.pid} (parent ${p.ppid}, session ${p.sid}) ${p.role}: ${JSON.stringify(p.argv.map((a) => (a.length > 80 ? `${a.slice(0, 40)}…` : a)))}`;
    const own = procs.filter((p) => isThisFiles(p, file));
    const others = procs.filter((p) => !isThisFiles(p, file));
    throw new Error(
      [
        ...(own.length > 0 ? [`${file} left ${own.length} process(es) running ${LEAK_SETTLE_MS / 1000} s after its last hook (now killed):`, ...own.map(line)] : []),
        ...(others.length > 0 ? [`Running at the end of ${file}, started for another file (now killed):`, ...others.map((p) => `${line(p)} — for ${p.file}`)] : []),
      ].join('\n'),
    );
  }, LEAK_SETTLE_MS + 10_000);
}
