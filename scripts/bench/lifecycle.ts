/**
 * Lifecycle timings on the e2e test bed (run inside e2e/bed/sandbox.sh, as root):
 * `k2s-dns start --json` then `stop --json`, N rounds, through the built CLI (bin/k2s-dns.mjs).
 * Per step: ms from its `running` event to its `done` event, plus `before steps` (spawn → first
 * event) and `after result` (result → exit), so a command's rows add up to its wall time; per
 * command: wall ms from spawn to exit (Node start-up and module loading included) and the
 * process's CPU ms. The CLI runs with USER_ENV (NODE_EXTRA_CA_CERTS unset).
 * Usage: bash e2e/bed/sandbox.sh node --import tsx scripts/bench/lifecycle.ts [ROUNDS] [ENGINE]
 * Prints one JSON object: { rounds, engine, start: {wall, cpu, steps}, stop: {wall, cpu, steps} } (arrays of ms), env (USER_ENV_NOTE).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import { startTestbed, type Testbed } from '../../e2e/bed/testbed';
import { EXTRA_CA_CERTS_VAR, tlsFreeNodeEnv } from '../../electron/core/host/child-env';

/**
 * The environment of every measured CLI (and of the `node -e 0` floors, run.ts): this process's
 * without NODE_EXTRA_CA_CERTS, as on a user's machine, which normally names no extra CA file. A
 * developer machine that does set it makes each Node process build its root store and load the
 * file at start-up (about 50 ms of CPU with Debian's bundle; host/child-env.ts), a cost no user pays.
 */
export const USER_ENV = tlsFreeNodeEnv(process.env);
/** The line the report prints under the lifecycle and CLI figures. */
export const USER_ENV_NOTE = `The CLI and lifecycle figures run with ${EXTRA_CA_CERTS_VAR} unset (as on a user's machine)${process.env[EXTRA_CA_CERTS_VAR] ? `; this machine sets it, which would add Node's CA-file load to every process` : ''}.`;

/** The CLI measured: this repository's bin/k2s-dns.mjs, or BENCH_BIN (another build's, for a before/after pair). */
const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL('../../bin/k2s-dns.mjs', import.meta.url));
/** BENCH_CPU_PROF=DIR: every CLI run writes a V8 CPU profile there (node --cpu-prof), to see where its time goes. */
const PROF = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];

/**
 * Preloaded into each measured CLI process (node --import): at exit it prints the process's
 * own CPU time (process.cpuUsage(): user + system µs since the process began, Node's start-up
 * included, children not) to stderr. On a shared machine, CPU time grows far less with the
 * load than wall time does, so it compares builds measured at different loads.
 */
const CPU_PRELOAD = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\nbench-cpu-us '+(u.user+u.system)+'\\n')})`;

/**
 * One CLI run of `bin` (default: BIN): wall ms, CPU ms of the process, exit code, events; `outside` the wall time the
 * events do not cover, ms (Date.now() clock, as the events' `at`): `before steps` from spawn to
 * the first event (Node start-up, module loading, lock, recovery, stop's follower) and `after
 * result` from the result event to the exit (open handles, exit path). Absent without events.
 */
export function timedCli(args: string[], bin = BIN): Promise<{ ms: number; cpuMs: number; code: number; events: LifecycleEvent[]; stderr: string; outside: Record<string, number> }> {
  const t0 = performance.now();
  const spawnedAt = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', CPU_PRELOAD, ...PROF, bin, ...args], { timeout: 120_000, env: USER_ENV }, (err, stdout, stderr) => {
      const exitedAt = Date.now();
      const events = stdout.split('\n').filter((l) => l.startsWith('{"type":')).map((l) => JSON.parse(l) as LifecycleEvent);
      const cpuUs = /\nbench-cpu-us (\d+)\n/.exec(stderr)?.[1];
      const first = events[0]?.at;
      const result = events.findLast((e) => e.type === 'result')?.at;
      const outside: Record<string, number> = first === undefined || result === undefined ? {} : { 'before steps': first - spawnedAt, 'after result': exitedAt - result };
      resolve({ ms: performance.now() - t0, cpuMs: cpuUs === undefined ? Number.NaN : Number(cpuUs) / 1000, code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, events, stderr: stderr.replace(/\nbench-cpu-us \d+\n/, ''), outside });
    });
  });
}

/** A run's step table row set: the time before the first step, the steps and their total, the time after the result (so they add up to the wall time). */
export function stepsOf(run: { events: LifecycleEvent[]; outside: Record<string, number> }): Record<string, number> {
  const { 'before steps': before, 'after result': after } = run.outside;
  return { ...(before === undefined ? {} : { 'before steps': before }), ...stepDurations(run.events), ...(after === undefined ? {} : { 'after result': after }) };
}

/** ms between each step's first event and its done/skipped/failed event, plus `total` (first event → result). */
export function stepDurations(events: LifecycleEvent[]): Record<string, number> {
  const startAt = new Map<string, number>();
  const out: Record<string, number> = {};
  for (const e of events) {
    if (e.type !== 'step') continue;
    if (!startAt.has(e.step)) startAt.set(e.step, e.at);
    if (e.status !== 'running') out[e.step] = e.at - startAt.get(e.step)!;
  }
  const first = events[0]?.at;
  const result = events.findLast((e) => e.type === 'result');
  if (first !== undefined && result) out.total = result.at - first;
  return out;
}

/**
 * stepDurations with the time between the steps, so a command's rows add up to its `total`:
 * `wait → STEP` is ms from the event before STEP's first event to it (start's journal write
 * before the step, teardown.ts journaledReporter, and the work start.ts does between steps),
 * `wait → result` ms from the last step event to the result (clearing the journal), and
 * `waits` their sum. Keys in event order.
 */
export function stepsAndWaits(events: LifecycleEvent[]): Record<string, number> {
  const durations = stepDurations(events);
  const out: Record<string, number> = {};
  let prev: number | undefined;
  let waits = 0;
  for (const e of events) {
    const key = e.type === 'step' ? (e.step in out ? null : e.step) : e.type === 'result' ? 'result' : null;
    if (key !== null && prev !== undefined) {
      out[`wait → ${key}`] = e.at - prev;
      waits += e.at - prev;
    }
    if (key !== null && key !== 'result') out[key] = durations[key] ?? 0;
    prev = e.at;
  }
  return { ...out, waits, total: durations.total ?? Number.NaN };
}

/** Runs `rounds` start/stop pairs on test bed `tb` (`extra`: more start flags); throws on the first failed command. */
export async function lifecycleRounds(tb: Testbed, rounds: number, engine: string, extra: string[] = []) {
  const res = { rounds, engine, start: { wall: [] as number[], cpu: [] as number[], steps: [] as Record<string, number>[] }, stop: { wall: [] as number[], cpu: [] as number[], steps: [] as Record<string, number>[] } };
  try {
    for (let i = 0; i < rounds; i++) {
      const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', engine, '--verify-name', 'www.example.test', '--json', ...extra]);
      if (start.code !== 0) throw new Error(`start failed (exit ${start.code}): ${JSON.stringify(start.events.at(-1))} ${start.stderr}`);
      res.start.wall.push(start.ms);
      res.start.cpu.push(start.cpuMs);
      res.start.steps.push(stepsOf(start));
      const stop = await timedCli(['stop', '--json']);
      if (stop.code !== 0) throw new Error(`stop failed (exit ${stop.code}): ${JSON.stringify(stop.events.at(-1))} ${stop.stderr}`);
      res.stop.wall.push(stop.ms);
      res.stop.cpu.push(stop.cpuMs);
      res.stop.steps.push(stepsOf(stop));
    }
  } finally {
    await timedCli(['stop', '--on-drift', 'restore']);
  }
  return res;
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[2] ?? 5);
  const engine = process.argv[3] ?? 'dnsmasq';
  // AdGuard: the repository's own build of dnsproxy (scripts/build-engines.sh), as run.ts passes it.
  const extra = engine === 'adguard' ? ['--dnsproxy', fileURLToPath(new URL('../../.tools/bin/dnsproxy', import.meta.url))] : [];
  const tb = await startTestbed();
  try {
    process.stdout.write(`${JSON.stringify({ ...(await lifecycleRounds(tb, rounds, engine, extra)), env: USER_ENV_NOTE })}\n`);
  } finally {
    await tb.stop();
  }
}
