/**
 * Diagnostic: start's steps for two builds of the CLI (A, B: their bin/k2s-dns.mjs) and both
 * engines, interleaved on one test bed as stop-ab.ts does (builds' order swapped every round, each
 * build with its own code cache). START_PROF=DIR: each start also writes a V8 CPU profile there
 * (DIR/ENGINE-BUILD-ROUND.cpuprofile) and its window (the preflight step's `running` to the result,
 * CLOCK_MONOTONIC µs as the profile's timestamps) to a .win file beside it, for prof-window.ts.
 * Run: bash e2e/bed/sandbox.sh node --import tsx scripts/bench/start-ab.ts ROUNDS A_BIN B_BIN
 * `steps CPU`: the start process's CPU ms (process.cpuUsage, all its threads) from its first step event to its result,
 * which a busy machine bends far less than wall time. Prints one JSON line per start and, at the end, medians per engine and build with the load average.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestbed } from '../../e2e/bed/testbed';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import { withCache } from './build-cache';
import { stepDurations, timedCli, USER_ENV } from './lifecycle';
import { figure } from './stats';

const [roundsArg = '10', aBin, bBin] = process.argv.slice(2);
if (!aBin || !bBin) throw new Error('usage: start-ab.ts ROUNDS A_BIN B_BIN');
const bins: Record<string, string> = { A: aBin, B: bBin };
const PROF = process.env.START_PROF;
const dnsproxy = fileURLToPath(new URL('../../.tools/bin/dnsproxy', import.meta.url));
/** Preload: stderr gets the monotonic µs of the first step event and of the result event, written as stdout writes them. */
const WINDOW_PRELOAD = `data:text/javascript,const w=process.stdout.write.bind(process.stdout);let a=null;let c=null;const ev=[];process.stdout.write=(x,...r)=>{const s=String(x);const t=Number(process.hrtime.bigint()/1000n);const m=/"step":"(\\w+)","status":"(\\w+)"/.exec(s);if(m)ev.push(m[1]+':'+m[2]+'@'+t);if(a===null&&s.includes('"type":"step"')){a=t;c=process.cpuUsage()}if(s.includes('"type":"result"')){const u=process.cpuUsage(c);process.stderr.write('\\nbench-win '+a+' '+t+' '+ev.join(',')+' '+(u.user+u.system)+'\\n')}return w(x,...r)}`;
function profiledStart(bin: string, args: string[], name: string): Promise<{ cpuMs: number; code: number; events: LifecycleEvent[]; stderr: string }> {
  const prof = PROF ? ['--cpu-prof', '--cpu-prof-dir', PROF, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', WINDOW_PRELOAD, ...prof, bin, ...args], { timeout: 120_000, env: USER_ENV }, (err, stdout, stderr) => {
      const events = stdout.split('\n').filter((l) => l.startsWith('{"type":')).map((l) => JSON.parse(l) as LifecycleEvent);
      const win = /\nbench-win (\d+) (\d+) (\S*) (\d+)\n/.exec(stderr);
      if (PROF && win) writeFileSync(`${PROF}/${name}.win`, `${win[1]} ${win[2]} ${win[3]}\n`);
      resolve({ cpuMs: win ? Number(win[4]) / 1000 : Number.NaN, code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, events, stderr: stderr.replace(/\nbench-win \d+ \d+ \S* \d+\n/, '') });
    });
  });
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const loadBefore = load();
if (PROF) mkdirSync(PROF, { recursive: true });
const tb = await startTestbed();
const rows: { engine: string; build: string; steps: Record<string, number> }[] = [];
const engines = (process.env.AB_ENGINES ?? 'dnsmasq,adguard').split(',');
try {
  for (let i = 0; i < Number(roundsArg); i++) {
    for (const engine of engines) {
      for (const build of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        const extra = engine === 'adguard' ? ['--dnsproxy', dnsproxy] : [];
        const start = await withCache(build, async () => {
          const s = await profiledStart(bins[build]!, ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', engine, '--verify-name', 'www.example.test', '--json', ...extra], `${engine}-${build}-${i}`);
          const stop = await timedCli(['stop', '--json'], bins[build]);
          if (stop.code !== 0) throw new Error(`stop ${build} ${engine}: ${stop.stderr}`);
          return s;
        });
        if (start.code !== 0) throw new Error(`start ${build} ${engine}: ${start.stderr} ${JSON.stringify(start.events.at(-1))}`);
        const steps = { ...stepDurations(start.events), 'steps CPU': start.cpuMs };
        rows.push({ engine, build, steps });
        process.stdout.write(`${JSON.stringify({ round: i, engine, build, steps })}\n`);
      }
    }
  }
} finally {
  await timedCli(['stop', '--on-drift', 'restore'], bins.B);
  await tb.stop();
}
for (const engine of engines) {
  for (const build of ['A', 'B']) {
    const rr = rows.filter((r) => r.engine === engine && r.build === build);
    const keys = ['steps CPU', 'total', 'preflight', 'save', 'discover', 'config', 'service', 'activate', 'verify'];
    const f = (v: number[]) => {
      const x = figure(v);
      return `${Math.round(x.median)} (${Math.round(x.min)}–${Math.round(x.max)})`;
    };
    process.stdout.write(`${engine} ${build} (n=${rr.length}), ms median (min–max): ${keys.map((k) => `${k} ${f(rr.map((r) => r.steps[k] ?? Number.NaN))}`).join(', ')}\n`);
  }
}
process.stdout.write(`load (1 min) before ${loadBefore}, after ${load()}\n`);
