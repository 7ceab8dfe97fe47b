/**
 * start/stop on a booted Debian 13 host (e2e/bed/debian-host.ts: its own systemd as PID 1, the
 * product's k2s-dnsproxy units, systemd-resolved not running), the kind of host K2s runs on, where
 * the service step drives systemctl instead of the sandbox's supervised watchdog. Per engine:
 * ROUNDS start/stop pairs of the CLI inside the host (`node bin/k2s-dns.mjs`), ms per step and
 * wall ms as seen from outside (the nsenter into the host included; no CPU figure: the process
 * runs in the host's PID namespace). Run inside e2e/bed/sandbox.sh, as root, with no other test bed
 * running in that sandbox: the host's own test bed takes the same fixed addresses (e2e/bed/testbed.ts),
 * and its stop takes them down.
 */
import { bootPlainHost, hostCli, hostStartArgs } from '../../e2e/bed/debian-host-cli';
import { debianHostMissing } from '../../e2e/bed/debian-host';
import { stepDurations } from './lifecycle';

/** One engine's rounds: wall ms per command and ms per step (stepDurations), each as arrays. */
export interface HostLifecycleRounds {
  start: { wall: number[]; steps: Record<string, number>[] };
  stop: { wall: number[]; steps: Record<string, number>[] };
}

/**
 * Boots a Debian 13 host, runs `rounds` start/stop pairs per engine, destroys it. Resolves to
 * the rounds per engine, or to the reason it could not run (no root file system, not root).
 * Throws when a start or stop fails (with its last event).
 */
export async function debianLifecycle(rounds: number, engines: readonly ('dnsmasq' | 'adguard')[]): Promise<{ versions: string; byEngine: Record<string, HostLifecycleRounds> } | { missing: string }> {
  const missing = await debianHostMissing();
  if (missing) return { missing };
  const { tb, h } = await bootPlainHost();
  try {
    const v = await h.versions();
    const byEngine: Record<string, HostLifecycleRounds> = {};
    for (const engine of engines) {
      const r: HostLifecycleRounds = { start: { wall: [], steps: [] }, stop: { wall: [], steps: [] } };
      for (let i = 0; i < rounds; i++) {
        let t0 = performance.now();
        const start = await hostCli(h, hostStartArgs(engine));
        r.start.wall.push(performance.now() - t0);
        if (!start.result?.ok) throw new Error(`start (${engine}) on the Debian host failed: ${JSON.stringify(start.events.at(-1) ?? start.stderr.slice(-300))}`);
        r.start.steps.push(stepDurations(start.events));
        t0 = performance.now();
        const stop = await hostCli(h, ['stop', '--json']);
        r.stop.wall.push(performance.now() - t0);
        if (!stop.result?.ok) throw new Error(`stop (${engine}) on the Debian host failed: ${JSON.stringify(stop.events.at(-1) ?? stop.stderr.slice(-300))}`);
        r.stop.steps.push(stepDurations(stop.events));
      }
      byEngine[engine] = r;
    }
    return { versions: `Debian ${v.debian}, ${v.systemd}, node ${v.node}`, byEngine };
  } finally {
    await h.destroy();
    await tb.stop();
  }
}
