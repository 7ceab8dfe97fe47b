/**
 * The exact query log's companion (dist/k2s-dns-capture-watch.cjs, run as root as start runs it)
 * stopped while its tcpdump has not opened the capture (hung: it ignores SIGTERM and never prints
 * "listening on"): the SIGTERM ends tcpdump and the parser at once (SIGKILL after the 2 s grace,
 * electron/core/capture/pipeline.ts) and the companion exits 0, not after the pipeline's 10 s open
 * limit with status 1. No K2s DNS start: the companion alone, inside e2e/bed/sandbox.sh.
 */
import { spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findTcpdump } from '../electron/core/capture/tcpdump-path';
import { runCmd } from './bed/run-cmd';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: capture-stop-before-open e2e runs only inside e2e/bed/sandbox.sh (as root)');
const COMPANION = fileURLToPath(new URL('../dist/k2s-dns-capture-watch.cjs', import.meta.url));
const built = await stat(COMPANION).then(() => true, () => false);
if (inSandbox && !built) console.warn('skipped: dist/k2s-dns-capture-watch.cjs is missing (npm run build)');
/** The tcpdump the companion would run (the first of its fixed paths): the fake is bound over it. */
const tcpdump = inSandbox ? await findTcpdump() : null;
if (inSandbox && tcpdump === null) console.warn('skipped: tcpdump is not installed (the fake is bound over its path)');

const FAKE = '/run/fake-tcpdump';
const FAKE_PID = '/run/fake-tcpdump.pid';
/** A hung tcpdump: says its pid, ignores SIGTERM (inherited through exec) and never opens. */
const HUNG_TCPDUMP = `#!/bin/sh\necho $$ > ${FAKE_PID}\ntrap '' TERM\nexec sleep 600\n`;

/** Whether /proc/PID exists (the sandbox has its own PID namespace and /proc). */
const alive = (pid: number) => stat(`/proc/${pid}`).then(() => true, () => false);

describe.skipIf(!inSandbox || !built || tcpdump === null)('capture companion stopped before its capture opened', () => {
  it('a hung tcpdump that never opens: SIGTERM ends the companion (exit 0) within 5 s, tcpdump and the parser gone, no failed or ready file', async () => {
    await writeFile(FAKE, HUNG_TCPDUMP, { mode: 0o755 });
    await runCmd('rm', ['-f', FAKE_PID, '/run/k2s/capture.failed', '/run/k2s/capture.ready']);
    await runCmd('mount', ['--bind', FAKE, tcpdump!]);
    let companion: ReturnType<typeof spawn> | undefined;
    try {
      companion = spawn(process.execPath, [COMPANION, 'capture-watch', '--listen', '127.0.0.1:53', '--port', '53'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      companion.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      companion.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<[number | null, string | null]>((r) => companion!.on('exit', (code, sig) => r([code, sig])));
      // Its pipeline is starting (its signal handlers are installed before): the fake runs.
      const deadline = Date.now() + 20_000;
      let fakePid = NaN;
      while (Number.isNaN(fakePid) && Date.now() < deadline) {
        fakePid = Number((await readFile(FAKE_PID, 'utf8').catch(() => '')).trim() || NaN);
        if (Number.isNaN(fakePid)) await new Promise((r) => setTimeout(r, 20));
      }
      expect(fakePid, out).toBeGreaterThan(1);
      // tcpdump (the fake) and the parser: the companion's children.
      const children = (await readFile(`/proc/${companion.pid}/task/${companion.pid}/children`, 'utf8')).trim().split(/\s+/).map(Number);
      expect(children).toHaveLength(2);
      expect(children).toContain(fakePid);
      const t0 = Date.now();
      companion.kill('SIGTERM');
      const status = await exited;
      const ms = Date.now() - t0;
      console.log(`companion stopped before open: ${ms} ms, ${JSON.stringify(status)}; output: ${out.trim()}`);
      expect(status, out).toEqual([0, null]);
      // The fake ignores SIGTERM: SIGKILL after the 2 s grace. Before the fix: the 10 s open limit, then exit 1.
      expect(ms).toBeLessThan(5_000);
      expect(out).toContain('k2s-dns capture-watch: the capture was stopped before tcpdump opened it; exiting 0.');
      for (const pid of children) expect(await alive(pid), `child ${pid} left`).toBe(false);
      await expect(stat('/run/k2s/capture.failed')).rejects.toThrow(/ENOENT/);
      await expect(stat('/run/k2s/capture.ready')).rejects.toThrow(/ENOENT/);
    } finally {
      // A companion this test started that is still there (the test failed before its stop).
      if (companion && companion.exitCode === null && companion.signalCode === null) companion.kill('SIGKILL');
      await runCmd('umount', [tcpdump!]);
    }
  }, 60_000);
});
