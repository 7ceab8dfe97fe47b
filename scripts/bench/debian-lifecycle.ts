/**
 * start/stop on a booted Debian 13 host (e2e/bed/debian-host.ts: its own systemd as PID 1, the
 * product's k2s-dnsproxy units, systemd-resolved not running), the kind of host K2s runs on, where
 * the service step drives systemctl instead of the sandbox's supervised watchdog. Per engine:
 * ROUNDS start/stop pairs of the CLI inside the host (`node bin/k2s-dns.mjs`), ms per step, the
 * process's wall ms inside the host (what a user's command takes there) and wall ms as seen from
 * outside (the nsenter into the host included; no CPU figure: the process runs in the host's PID
 * namespace). Each command begins on an idle manager (managerIdle). Run inside e2e/bed/sandbox.sh, as root, with no other test bed
 * running in that sandbox: the host's own test bed takes the same fixed addresses (e2e/bed/testbed.ts),
 * and its stop takes them down.
 */
import { bootPlainHost, hostStartArgs, parseEvents, type HostCliRun } from '../../e2e/bed/debian-host-cli';
import { debianHostMissing, HOST_CLI, type DebianHost } from '../../e2e/bed/debian-host';
import { stepDurations } from './lifecycle';

/** One engine's rounds: wall ms per command (from outside the host, and of the process inside it) and ms per step (stepDurations), each as arrays. */
export interface HostLifecycleRounds {
  start: { wall: number[]; process: number[]; steps: Record<string, number>[] };
  stop: { wall: number[]; process: number[]; steps: Record<string, number>[] };
}

/**
 * Waits until no `systemctl daemon-reload` runs in the host: the reload a start or stop launches
 * after its result (electron/core/host/systemd-reload.ts settle) is done, so the next command
 * starts on an idle manager as a user's would, seconds later, rather than queueing behind it.
 * Reads /proc/PID/cmdline only (no signal). Bounded (10 s).
 */
async function managerIdle(h: DebianHost): Promise<void> {
  const script = 'for i in $(seq 1 500); do busy=; for c in /proc/[0-9]*/cmdline; do case "$(tr "\\000" " " 2>/dev/null < "$c")" in "systemctl daemon-reload "*) busy=1;; esac; done; [ -z "$busy" ] && exit 0; sleep 0.02; done; exit 1';
  await h.sh(script, 20_000);
}

/** Runs the CLI with ARGS in the host, timing the process there too (date +%s%N around it): `process` ms. */
async function timedCli(h: DebianHost, args: readonly string[]): Promise<HostCliRun & { processMs: number }> {
  const r = await h.run(['sh', '-c', 'a=$(date +%s%N); "$@"; r=$?; b=$(date +%s%N); echo "k2s-bench-wall-us $(( (b - a) / 1000 ))" >&2; exit $r', 'sh', ...HOST_CLI, ...args], { timeoutMs: 90_000 });
  const us = Number(/k2s-bench-wall-us (\d+)/.exec(r.stderr)?.[1] ?? Number.NaN);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ...parseEvents(r.stdout), processMs: us / 1000 };
}

/**
 * Boots a Debian 13 host, runs `rounds` start/stop pairs per engine, destroys it. Resolves to
 * the rounds per engine, and `node -e 0` in the host (ms, `nodeFloor`), or to the reason it
 * could not run (no root file system, not root). Throws when a start or stop fails (with its last event).
 */
export async function debianLifecycle(rounds: number, engines: readonly ('dnsmasq' | 'adguard')[]): Promise<{ versions: string; nodeFloor: number[]; byEngine: Record<string, HostLifecycleRounds> } | { missing: string }> {
  const missing = await debianHostMissing();
  if (missing) return { missing };
  const { tb, h } = await bootPlainHost();
  try {
    const v = await h.versions();
    const nodeFloor: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const r = await h.sh('a=$(date +%s%N); node -e 0; b=$(date +%s%N); echo $(( (b - a) / 1000 ))');
      nodeFloor.push(Number(r.stdout.trim()) / 1000);
    }
    const byEngine: Record<string, HostLifecycleRounds> = {};
    for (const engine of engines) {
      const r: HostLifecycleRounds = { start: { wall: [], process: [], steps: [] }, stop: { wall: [], process: [], steps: [] } };
      for (let i = 0; i < rounds; i++) {
        await managerIdle(h);
        let t0 = performance.now();
        const start = await timedCli(h, hostStartArgs(engine));
        r.start.wall.push(performance.now() - t0);
        r.start.process.push(start.processMs);
        if (!start.result?.ok) throw new Error(`start (${engine}) on the Debian host failed: ${JSON.stringify(start.events.at(-1) ?? start.stderr.slice(-300))}`);
        r.start.steps.push(stepDurations(start.events));
        await managerIdle(h);
        t0 = performance.now();
        const stop = await timedCli(h, ['stop', '--json']);
        r.stop.wall.push(performance.now() - t0);
        r.stop.process.push(stop.processMs);
        if (!stop.result?.ok) throw new Error(`stop (${engine}) on the Debian host failed: ${JSON.stringify(stop.events.at(-1) ?? stop.stderr.slice(-300))}`);
        r.stop.steps.push(stepDurations(stop.events));
      }
      byEngine[engine] = r;
    }
    return { versions: `Debian ${v.debian}, ${v.systemd}, node ${v.node}`, nodeFloor, byEngine };
  } finally {
    await h.destroy();
    await tb.stop();
  }
}
