/**
 * Power loss inside every step of start and stop on a booted Debian 13 host (issue 17): the
 * test-only entry (e2e/bed/pause-entry.ts) stops the operation at a named point through the
 * lifecycle's deps, the host's PID 1 is SIGKILLed there, the host boots again on the same disk,
 * and then: no k2s unit is active without a saved state, and the next `k2s-dns stop` restores
 * /etc/resolv.conf byte for byte and leaves nothing running. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { debianHostMissing, type DebianHost } from './bed/debian-host';
import { bootPlainHost, HOST_KUBECONFIG, hostCli, hostGetent, hostResolver, hostStartArgs, isActive } from './bed/debian-host-cli';
import { engineMissing, PROXY_ENGINES, type ProxyEngine } from './bed/engines';
import { bundlePauseEntry } from './bed/pause-bundle';
import { PAUSE_POINTS, type PausePoint } from './bed/pause-points';
import type { Testbed } from './bed/testbed';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
const why = inSandbox ? await debianHostMissing() : 'the Debian host boots only inside e2e/bed/sandbox.sh (npm run test:e2e, as root)';
if (why) console.warn(`skipped: power loss on a booted Debian 13 host (${why})`);
const dnsproxyMissing = why ? null : await engineMissing('dnsproxy');
if (dnsproxyMissing) console.warn(`skipped: Debian 13 host power loss with --engine adguard (${dnsproxyMissing})`);

const UNITS = ['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'];
const STATE = '/var/lib/k2s/dns-resolver-state.json';

/** Runs the paused operation inside the host; resolves once it printed `PAUSED point` (60 s bound). */
async function runUntilPaused(h: DebianHost, argv: string[], point: PausePoint): Promise<void> {
  const child = h.spawnIn(argv);
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never reached ${point}:\n${out.slice(-3000)}`)), 60_000);
      const onData = (d: Buffer): void => {
        out += d.toString();
        if (out.includes(`PAUSED ${point}\n`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the operation ended (exit ${code}) before ${point}:\n${out.slice(-3000)}`));
      });
    });
  } finally {
    // Killed with the host's PID namespace on power loss; by PID here if the wait failed.
    child.removeAllListeners('exit');
    if (child.exitCode === null) child.once('exit', () => undefined);
  }
}

describe.each(PROXY_ENGINES.map((e) => [e]))('power loss inside start and stop on a booted Debian 13 host (%s engine)', (engine: ProxyEngine) => {
  const skip = why !== null || (engine === 'adguard' && dnsproxyMissing !== null);
  let tb: Testbed;
  let h: DebianHost;
  let original: string;
  let entry: string;

  beforeAll(async () => {
    if (skip) return;
    entry = await bundlePauseEntry();
    ({ tb, h, original } = await bootPlainHost());
  }, 180_000);
  afterEach(async () => {
    // A failed case must not leave K2s running for the next one (its start would say "already running").
    if (skip || h.pid1() === null) return;
    if ((await h.run(['test', '-e', STATE])).code === 0) await hostCli(h, ['stop', '--on-drift', 'restore', '--json']);
  }, 120_000);
  afterAll(async () => {
    await h?.destroy();
    await tb?.stop();
  }, 120_000);

  for (const point of PAUSE_POINTS) {
    it.skipIf(skip)(`power loss at ${point}: after boot no unit runs without a saved state; the next stop restores byte for byte`, async () => {
      if (point.startsWith('stop-')) {
        const start = await hostCli(h, hostStartArgs(engine));
        expect(start.result, start.stdout + start.stderr).toMatchObject({ ok: true });
        await runUntilPaused(h, ['node', entry, '--pause-at', point, 'stop'], point);
      } else {
        await runUntilPaused(h, ['node', entry, '--pause-at', point, 'start', HOST_KUBECONFIG, engine, 'www.example.test'], point);
      }
      await h.powerLoss();
      await h.boot();
      await h.waitRunning();
      const saved = (await h.run(['test', '-e', STATE])).code === 0;
      for (const unit of UNITS) {
        const state = await isActive(h, unit);
        if (!saved) expect(state, `${unit} is ${state} after boot with no saved state`).not.toBe('active');
      }
      const stop = await hostCli(h, ['stop', '--json']);
      expect(stop.result, stop.stdout + stop.stderr).toMatchObject({ ok: true, exitCode: 0 });
      expect(await hostResolver(h)).toBe(original);
      for (const unit of UNITS) expect(await isActive(h, unit)).not.toBe('active');
      expect((await h.run(['test', '-e', STATE])).code).not.toBe(0);
      // The original nameserver answers host lookups again (no K2s left in the path).
      expect(await hostGetent(h, 'www.example.test')).toEqual(['198.51.100.7']);
      expect(await hostGetent(h, 'kubernetes.default.svc.cluster.local')).toEqual([]);
    }, 180_000);
  }
});
