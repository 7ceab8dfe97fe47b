/**
 * Diagnostic: stop's wall time and steps for two builds of the CLI (A, B: their bin/k2s-dns.mjs)
 * and both engines, interleaved on one test bed: each round runs a start/stop pair for every
 * (engine, build), the builds' order swapped every round, so load changes hit both alike.
 * Each CLI runs as lifecycle.ts's timedCli runs it (USER_ENV; BENCH_CPU_PROF=DIR for CPU profiles).
 * Run: bash e2e/bed/sandbox.sh node --import tsx scripts/bench/stop-ab.ts ROUNDS A_BIN B_BIN
 * Prints one JSON line per stop ({ round, engine, build, wall, cpu, steps }) and, at the end, the
 * medians per engine and build, with the 1-minute load average before and after.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestbed } from '../../e2e/bed/testbed';
import { withCache } from './build-cache';
import { stepsOf, timedCli } from './lifecycle';
import { figure } from './stats';

const [roundsArg = '10', aBin, bBin] = process.argv.slice(2);
if (!aBin || !bBin) throw new Error('usage: stop-ab.ts ROUNDS A_BIN B_BIN');
const bins: Record<string, string> = { A: aBin, B: bBin };
const dnsproxy = fileURLToPath(new URL('../../.tools/bin/dnsproxy', import.meta.url));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const loadBefore = load();
const tb = await startTestbed();
const rows: { engine: string; build: string; wall: number; steps: Record<string, number> }[] = [];
try {
  for (let i = 0; i < Number(roundsArg); i++) {
    for (const engine of ['dnsmasq', 'adguard']) {
      for (const build of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        const extra = engine === 'adguard' ? ['--dnsproxy', dnsproxy] : [];
        const { start, stop } = await withCache(build, async () => {
          const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', engine, '--verify-name', 'www.example.test', '--json', ...extra], bins[build]);
          if (start.code !== 0) throw new Error(`start ${build} ${engine}: ${start.stderr} ${JSON.stringify(start.events.at(-1))}`);
          return { start, stop: await timedCli(['stop', '--json'], bins[build]) };
        });
        if (stop.code !== 0) throw new Error(`stop ${build} ${engine}: ${stop.stderr} ${JSON.stringify(stop.events.at(-1))}`);
        const steps = stepsOf(stop);
        rows.push({ engine, build, wall: stop.ms, steps });
        process.stdout.write(`${JSON.stringify({ round: i, engine, build, wall: Math.round(stop.ms), cpu: Math.round(stop.cpuMs), steps })}\n`);
      }
    }
  }
} finally {
  await timedCli(['stop', '--on-drift', 'restore'], bins.B);
  await tb.stop();
}
for (const engine of ['dnsmasq', 'adguard']) {
  for (const build of ['A', 'B']) {
    const rr = rows.filter((r) => r.engine === engine && r.build === build);
    const keys = ['before steps', 'restore', 'stop-service', 'after result'];
    const f = (v: number[]) => {
      const x = figure(v);
      return `${Math.round(x.median)} (${Math.round(x.min)}–${Math.round(x.max)})`;
    };
    process.stdout.write(`${engine} ${build} (n=${rr.length}), ms median (min–max): wall ${f(rr.map((r) => r.wall))}; ${keys.map((k) => `${k} ${f(rr.map((r) => r.steps[k] ?? Number.NaN))}`).join(', ')}\n`);
  }
}
process.stdout.write(`load (1 min) before ${loadBefore}, after ${load()}\n`);
