/**
 * Start and stop on a busy host: with every core saturated by bounded busy loops
 * (one per CPU, same priority as the CLI — K2s starts its DNS while the cluster boots), `start`
 * and `stop` succeed 20 times out of 20 on both common layouts (a regular file; the
 * systemd-resolved stub symlink into /run), alternating the engines (dnsmasq; the real AdGuard
 * dnsproxy v0.83.1 when built). Each cycle asserts the cluster name's address through getaddrinfo
 * while running and a byte-identical resolver after stop. Prints the start/stop medians under
 * load; speed goals are measured by `npm run bench`, not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { ResolvLayout } from './bed/resolv-layout';
import { startTestbed, type Testbed } from './bed/testbed';
import { engineArgs, engineMissing } from './bed/engines';
import { figure } from '../scripts/bench/stats';
import { getentHosts, k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: the busy-host test runs only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)');
const dnsproxyMissing = inSandbox ? await engineMissing('dnsproxy') : null;
const hasDnsproxy = dnsproxyMissing === null;
if (!hasDnsproxy) console.warn(`skipped: adguard cycles of the busy-host test (${dnsproxyMissing}); dnsmasq runs them all`);

const CYCLES = 20;
const LAYOUTS: ResolvLayout[] = ['file', 'relative-symlink-run'];
/** Upper bound of each busy loop's life (ms): they end by themselves even if this process dies. */
const BUSY_MAX_MS = 15 * 60_000;

/** One busy loop per CPU, each a separate process bounded to BUSY_MAX_MS; killed by pid afterwards. */
function saturateCores(): ChildProcess[] {
  return os.cpus().map(() =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${BUSY_MAX_MS}; while (Date.now() < end) {}`], { stdio: 'ignore' }),
  );
}

/** Median of a non-empty list (ms). */
const median = (xs: number[]) => figure(xs).median;

describe.skipIf(!inSandbox)(`start/stop with every core busy (${CYCLES}× per layout)`, () => {
  let tb: Testbed;
  let busy: ChildProcess[] = [];
  beforeAll(async () => {
    tb = await startTestbed();
    busy = saturateCores();
  }, 120_000);
  afterAll(async () => {
    for (const c of busy) c.kill('SIGKILL'); // our own children, by pid
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  });

  for (const layout of LAYOUTS) {
    it(`layout ${layout}: ${CYCLES} of ${CYCLES} starts and stops succeed, the original resolver back byte for byte each time`, async () => {
      await tb.setResolvLayout(layout);
      const before = await tb.snapshotResolver();
      const startMs: number[] = [];
      const stopMs: number[] = [];
      for (let i = 0; i < CYCLES; i++) {
        const engine = engineArgs(hasDnsproxy && i % 2 === 1 ? 'adguard' : 'dnsmasq');
        const t0 = Date.now();
        const start = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--verify-name', 'www.example.test', '--json', ...engine]);
        startMs.push(Date.now() - t0);
        expect(start.result, `cycle ${i + 1} (${engine[1]}): ${start.stdout}${start.stderr}`).toMatchObject({ ok: true, exitCode: 0 });
        expect(await getentHosts('kubernetes.default.svc.cluster.local')).toEqual(['172.21.0.1']);
        const t1 = Date.now();
        const stop = await k2sDns(['stop', '--json']);
        stopMs.push(Date.now() - t1);
        expect(stop.code, `cycle ${i + 1} stop: ${stop.stdout}${stop.stderr}`).toBe(0);
        expect(await tb.snapshotResolver()).toEqual(before);
      }
      // The cores really were busy the whole time: every loop still runs.
      expect(busy.filter((c) => c.exitCode === null && c.signalCode === null)).toHaveLength(busy.length);
      const load = (await readFile('/proc/loadavg', 'utf8')).split(' ')[0];
      console.log(`busy host (${busy.length} busy loops, load ${load}), layout ${layout}: start median ${median(startMs)} ms (max ${Math.max(...startMs)}), stop median ${median(stopMs)} ms (max ${Math.max(...stopMs)}), ${CYCLES}/${CYCLES} ok`);
    }, 20 * 60_000);
  }
});
