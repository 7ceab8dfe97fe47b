/**
 * start/stop on a booted Debian 13 host (e2e/bed/debian-host.ts: its own systemd as PID 1, the
 * product's k2s-dnsproxy units, systemd-resolved not running), the kind of host K2s runs on, where
 * the service step drives systemctl instead of the sandbox's supervised watchdog. The command is
 * the installed package's: `npm run package`'s .deb of this build, installed with apt-get (its
 * postinst builds the CLI's startup snapshot, resources/packaging/k2s-dns-snapshot), run as
 * `k2s-dns` from PATH. Per engine: ROUNDS start/stop pairs of it inside the host, ms per step, the
 * process's wall ms inside the host (what a user's command takes there) and wall ms as seen from
 * outside (the nsenter into the host included; no CPU figure: the process runs in the host's PID
 * namespace). Each command begins on an idle manager (managerIdle). Run inside e2e/bed/sandbox.sh, as root, with no other test bed
 * running in that sandbox: the host's own test bed takes the same fixed addresses (e2e/bed/testbed.ts),
 * and its stop takes them down.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootPlainHost, hostStartArgs, parseEvents, type HostCliRun } from '../../e2e/bed/debian-host-cli';
import { debianHostMissing, HOST_SRC, REPO_ROOT, type DebianHost } from '../../e2e/bed/debian-host';
import { buildPackages } from '../package/main';
import { stepsAndWaits } from './lifecycle';
import { WITHOUT_SNAPSHOT } from './report';

/** The installed command: /usr/bin/k2s-dns, from its startup snapshot (resources/packaging/k2s-dns). */
export const INSTALLED_CLI = ['/usr/bin/k2s-dns'] as const;
/** The same bundle run as a script, without the startup snapshot (for the side by side). */
export const INSTALLED_SCRIPT = ['node', '/usr/lib/k2s-dns/dist/k2s-dns.mjs'] as const;

/** One engine's rounds: wall ms per command (from outside the host, and of the process inside it) and ms per step (stepDurations), each as arrays. */
export interface HostLifecycleRounds {
  start: { wall: number[]; process: number[]; steps: Record<string, number>[] };
  stop: { wall: number[]; process: number[]; steps: Record<string, number>[] };
}

/**
 * ms between one command (its launched reload done) and the next: a user's next command comes
 * seconds later. A stop right after a start otherwise meets the network follower's first look,
 * which holds the lifecycle lock for a moment (electron/core/lifecycle/companions.ts
 * lockPastFollower): 340–410 ms measured for that stop, 210–275 ms for one 1.5 s later.
 */
export const USER_PAUSE_MS = 1000;

/**
 * Waits until no `systemctl daemon-reload` runs in the host — the reload a start or stop launches
 * after its result (electron/core/host/systemd-reload.ts settle) is done — then USER_PAUSE_MS, so
 * the next command starts on an idle host as a user's would, rather than queueing behind them.
 * Reads /proc/PID/cmdline only (no signal). Bounded (10 s).
 */
export async function managerIdle(h: DebianHost): Promise<void> {
  const script = 'for i in $(seq 1 500); do busy=; for c in /proc/[0-9]*/cmdline; do case "$(tr "\\000" " " 2>/dev/null < "$c")" in "systemctl daemon-reload "*) busy=1;; esac; done; [ -z "$busy" ] && exit 0; sleep 0.02; done; exit 1';
  await h.sh(script, 20_000);
  await new Promise((resolve) => setTimeout(resolve, USER_PAUSE_MS));
}

/**
 * Runs `cli` with ARGS in the host, timing the process there too (date +%s%N around it): `process`
 * ms; `outside` the process's ms before its first event (`before steps`: Node's start-up, the
 * snapshot's deserialisation, module loading, the lock, the held companions) and after its result
 * event (`after result`: the exit path), on the host's clock as the events' `at` (both
 * CLOCK_REALTIME, one kernel). Empty without events.
 */
export async function timedCli(h: DebianHost, cli: readonly string[], args: readonly string[]): Promise<HostCliRun & { processMs: number; outside: Record<string, number> }> {
  const r = await h.run(['sh', '-c', 'a=$(date +%s%N); "$@"; r=$?; b=$(date +%s%N); echo "k2s-bench-wall-ns $a $b" >&2; exit $r', 'sh', ...cli, ...args], { timeoutMs: 90_000 });
  const m = /k2s-bench-wall-ns (\d+) (\d+)/.exec(r.stderr);
  const [a, b] = m ? [Number(BigInt(m[1]!) / 1000n) / 1000, Number(BigInt(m[2]!) / 1000n) / 1000] : [Number.NaN, Number.NaN];
  const run = parseEvents(r.stdout);
  const first = run.events[0]?.at;
  const result = run.events.findLast((e) => e.type === 'result')?.at;
  const outside: Record<string, number> = first === undefined || result === undefined ? {} : { 'before steps': first - a, 'after result': b - result };
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ...run, processMs: b - a, outside };
}

/** `n` runs of `command` in the host, one after another: each run's ms (the process's wall there). */
async function floorMs(h: DebianHost, command: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await h.sh(`a=$(date +%s%N); ${command} >/dev/null; b=$(date +%s%N); echo $(( (b - a) / 1000 ))`);
    out.push(Number(r.stdout.trim()) / 1000);
  }
  return out;
}

/** A command's table rows: before its steps, its steps and the waits between them (stepsAndWaits), after its result; they add up to `process`. */
function hostRows(run: { events: HostCliRun['events']; outside: Record<string, number> }): Record<string, number> {
  const { 'before steps': before = Number.NaN, 'after result': after = Number.NaN } = run.outside;
  return { 'before steps': before, ...stepsAndWaits(run.events), 'after result': after };
}

/** One engine's start/stop rounds with `cli`. Throws when a start or stop fails (with its last event). */
async function rounds(h: DebianHost, cli: readonly string[], engine: 'dnsmasq' | 'adguard', n: number): Promise<HostLifecycleRounds> {
  const r: HostLifecycleRounds = { start: { wall: [], process: [], steps: [] }, stop: { wall: [], process: [], steps: [] } };
  for (let i = 0; i < n; i++) {
    await managerIdle(h);
    let t0 = performance.now();
    const start = await timedCli(h, cli, hostStartArgs(engine));
    r.start.wall.push(performance.now() - t0);
    r.start.process.push(start.processMs);
    if (!start.result?.ok) throw new Error(`start (${engine}, ${cli.join(' ')}) on the Debian host failed: ${JSON.stringify(start.events.at(-1) ?? start.stderr.slice(-300))}`);
    r.start.steps.push(hostRows(start));
    await managerIdle(h);
    t0 = performance.now();
    const stop = await timedCli(h, cli, ['stop', '--json']);
    r.stop.wall.push(performance.now() - t0);
    r.stop.process.push(stop.processMs);
    if (!stop.result?.ok) throw new Error(`stop (${engine}, ${cli.join(' ')}) on the Debian host failed: ${JSON.stringify(stop.events.at(-1) ?? stop.stderr.slice(-300))}`);
    r.stop.steps.push(hostRows(stop));
  }
  return r;
}

/** What the Debian section reports besides the rounds: host versions, floors (ms), the snapshot's build line. */
export interface HostLifecycleResult {
  versions: string;
  /** `node -e 0` in the host. */
  nodeFloor: number[];
  /** `k2s-dns --version`: the installed command from its startup snapshot. */
  snapshotVersion: number[];
  /** `node /usr/lib/k2s-dns/dist/k2s-dns.mjs --version`: the same bundle without it. */
  scriptVersion: number[];
  /** postinst's line about the startup snapshot (built, or why not). */
  snapshot: string;
  byEngine: Record<string, HostLifecycleRounds>;
}

/**
 * Builds this build's .deb (buildPackages, ~5 s), boots a Debian 13 host, installs it, runs
 * `rounds` start/stop pairs per engine with the installed `k2s-dns`, and for `scriptEngine` also
 * with the bundle as a script (no startup snapshot: the key `ENGINE${WITHOUT_SNAPSHOT}`), then
 * destroys the host. Resolves to the reason it could not run instead (no root file system, not
 * root). Throws when the install, a start or a stop fails.
 */
export async function debianLifecycle(n: number, engines: readonly ('dnsmasq' | 'adguard')[], scriptEngine: 'dnsmasq' | 'adguard' | null = 'adguard'): Promise<HostLifecycleResult | { missing: string }> {
  const missing = await debianHostMissing();
  if (missing) return { missing };
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const { deb } = await buildPackages({ version, out: join(REPO_ROOT, '.tmp', 'bench-packages'), skipBuild: true });
  const { tb, h } = await bootPlainHost();
  try {
    const inHost = `${HOST_SRC}/${join(REPO_ROOT, '.tmp', 'bench-packages', deb.split('/').at(-1)!).slice(REPO_ROOT.length + 1)}`;
    const install = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', 'install', inHost], { timeoutMs: 180_000 });
    if (install.code !== 0) throw new Error(`apt-get install of ${inHost} in the Debian host failed: ${(install.stdout + install.stderr).slice(-400)}`);
    const snapshot = /k2s-dns(-snapshot)?: .*startup snapshot[^\n]*/.exec(install.stdout + install.stderr)?.[0] ?? 'postinst said nothing about the startup snapshot';
    const v = await h.versions();
    const nodeFloor = await floorMs(h, 'node -e 0', n);
    const snapshotVersion = await floorMs(h, 'k2s-dns --version', n);
    const scriptVersion = await floorMs(h, `${INSTALLED_SCRIPT.join(' ')} --version`, n);
    const byEngine: Record<string, HostLifecycleRounds> = {};
    for (const engine of engines) byEngine[engine] = await rounds(h, INSTALLED_CLI, engine, n);
    if (scriptEngine) byEngine[`${scriptEngine}${WITHOUT_SNAPSHOT}`] = await rounds(h, INSTALLED_SCRIPT, scriptEngine, n);
    return { versions: `Debian ${v.debian}, ${v.systemd}, node ${v.node}`, nodeFloor, snapshotVersion, scriptVersion, snapshot, byEngine };
  } finally {
    await h.destroy();
    await tb.stop();
  }
}
