/**
 * Ad-hoc A/B (not part of the report): the product as `k2s-dns start` runs it, per engine, three
 * modes interleaved in every round so load changes hit them alike: the exact query log with its
 * companion tree at idle priority (as shipped), the same tree switched to normal priority
 * (chrt --other -a -p 0 on companion, tcpdump, parser), and the query log off (--no-log-queries).
 * Max qps (dnsperf -l SECONDS) and p99 at 2,000 qps, cluster names; AB_MODES (e.g. `idle,idle@0.02,off`)
 * picks modes (`nice`: the tree at normal policy, nice 19), `@SHARE` the parser's CPU budget
 * (K2S_CAPTURE_CPU_SHARE), `ag0` the tree's autogroup at nice 0 (as before the companion set it to 19), `+pinN` the tree's
 * threads pinned to CPU N (taskset). AB_ENGINES (e.g. `adguard`) picks engines.
 * Per mode: max qps, p99 at 2,000 qps right after it and settled (one unmeasured run between),
 * and at the settled run the tree's CPU (cores, from /proc/PID/task/TID/schedstat), its µs per
 * time slice and wake-ups per second per process, and the kernel's drops. AB_NO_MAX=1 leaves the
 * max-rate run out. AB_NAMES=external asks the upstream's names instead of the cluster's. Each line
 * also has the hypervisor's steal share over that start's runs (steal.ts). Prints JSON lines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli, USER_ENV } from './lifecycle';
import { dnsperf } from './dnsperf';
import { abEngines, abQueryFile, captureTree } from './ab-setup';
import { cpuTimesNow, stealShare } from './steal';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DNSPROXY = join(REPO, '.tools/bin/dnsproxy');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'idle-ab-'));
const file = await abQueryFile(tmp);
const engines = abEngines(DNSPROXY);
const tree = captureTree;
/** CPU ms of a process so far, all its threads (/proc/PID/task/TID/schedstat: ns on a CPU; 0 once gone). */
const cpuMs = (pid: number) => slices(pid).run / 1e6;
/** ns on a CPU and time slices run, summed over a process's threads (/proc/PID/task/TID/schedstat). */
const slices = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((a, tid) => {
      const [run, , n] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
      return { run: a.run + run!, n: a.n + n! };
    }, { run: 0, n: 0 });
  } catch {
    return { run: 0, n: 0 };
  }
};
/** Wake-ups of a process so far: voluntary context switches of all its threads (/proc/PID/task/TID/status; 0 once gone). */
const wakes = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((n, tid) => n + Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1] ?? 0), 0);
  } catch {
    return 0;
  }
};
const policy = (pid: number) => execFileSync('chrt', ['-p', String(pid)], { encoding: 'utf8' }).split('\n')[0]!.split(': ')[1];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const e of engines) {
      for (const named of process.env.AB_MODES?.split(',') ?? ['idle', 'normal', 'off']) {
        // `idle@0.02`: the parser's CPU budget for that start (K2S_CAPTURE_CPU_SHARE, reaching it through the companion).
        // `+pinN`: the tree's threads pinned to CPU N once it is idle (taskset -a -cp N).
        const [base, pin] = named.split('+pin') as [string, string | undefined];
        const [mode, share] = base.split('@') as ['idle' | 'normal' | 'nice' | 'off' | 'ag0', string | undefined];
        if (share === undefined) delete USER_ENV.K2S_CAPTURE_CPU_SHARE;
        else USER_ENV.K2S_CAPTURE_CPU_SHARE = share;
        const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', e.name, '--verify-name', 'www.example.test', '--json', ...e.extra, ...(mode === 'off' ? ['--no-log-queries'] : [])]);
        if (start.code !== 0) throw new Error(`start failed: ${JSON.stringify(start.events.at(-1))}`);
        try {
          let policies = '';
          if (mode !== 'off') {
            // The companion switches itself to idle once open, then writes its start line (capture/go-idle.ts): switched back after it.
            const pid = tree()[0]!;
            for (let i = 0; i < 200 && !readFileSync('/run/k2s/capture.log', 'utf8').includes(`capture-watch: (PID ${pid}, `); i++) await new Promise((r) => setTimeout(r, 50));
            if (mode === 'normal' || mode === 'nice') for (const pid of tree()) execFileSync('chrt', ['--other', '-a', '-p', '0', String(pid)]);
            // nice: normal policy at nice 19 (every thread), the other way to yield the CPU.
            if (mode === 'nice') for (const pid of tree()) for (const tid of readdirSync(`/proc/${pid}/task`)) setPriority(Number(tid), 19);
            // ag0: the tree's autogroup back at nice 0 (sched(7), /proc/PID/autogroup), as before the companion set 19.
            if (pin !== undefined) for (const pid of tree()) execFileSync('taskset', ['-a', '-cp', pin, String(pid)], { stdio: 'ignore' });
            if (mode === 'ag0') writeFileSync(`/proc/${tree()[0]!}/autogroup`, '0');
            policies = `${tree().map(policy).join(',')} ${readFileSync(`/proc/${tree()[0]!}/autogroup`, 'utf8').trim()}`;
          }
          const load = loadavg()[0]!.toFixed(2);
          const pids = mode === 'off' ? [] : tree();
          const c0 = pids.map(cpuMs);
          // The proxy's own CPU (all threads; the kernel's work for its sockets and the capture's taps counts in it) per query answered.
          const proxy = Number(readFileSync('/run/k2s/dnsproxy.pid', 'utf8').trim());
          const p0 = cpuMs(proxy);
          const t0 = cpuTimesNow();
          // AB_NO_MAX=1: no max-rate run (the 2,000 qps runs then meet no backlog of it).
          const m = process.env.AB_NO_MAX ? { qps: Number.NaN } : await dnsperf('127.0.0.1', file, SECONDS);
          const treeMax = pids.map(cpuMs).reduce((a, c, i) => a + c - c0[i]!, 0) / (SECONDS * 1000);
          const proxyUsPerQMax = ((cpuMs(proxy) - p0) * 1000) / (m.qps * SECONDS);
          const f = await dnsperf('127.0.0.1', file, SECONDS, 2000);
          await dnsperf('127.0.0.1', file, SECONDS, 2000);
          const c1 = pids.map(cpuMs);
          const w1 = pids.map(wakes);
          const s1 = pids.map(slices);
          const dropped = () => Number(/dropped=(\d+)/.exec(existsSync('/run/k2s/capture.missed') ? readFileSync('/run/k2s/capture.missed', 'utf8') : '')?.[1] ?? 0);
          const d1 = dropped();
          const p1 = cpuMs(proxy);
          const settled = await dnsperf('127.0.0.1', file, SECONDS, 2000);
          const usPerSlice2000 = pids.map((p, i) => { const x = slices(p); return Math.round((x.run - s1[i]!.run) / 1e3 / Math.max(1, x.n - s1[i]!.n)); });
          const wakes2000 = pids.map((p, i) => wakes(p) - w1[i]!);
          const tree2000 = pids.map(cpuMs).reduce((a, c, i) => a + c - c1[i]!, 0) / (SECONDS * 1000);
          const proxyUsPerQ2000 = ((cpuMs(proxy) - p1) * 1000) / (settled.qps * SECONDS);
          const missed = existsSync('/run/k2s/capture.missed') ? readFileSync('/run/k2s/capture.missed', 'utf8').replace(/\n/g, ' ') : '';
          const steal = stealShare(t0, cpuTimesNow());
          console.log(JSON.stringify({ round, engine: e.name, mode: named, load, steal: steal === null ? null : Number(steal.toFixed(3)), qps: Math.round(m.qps), p99: Number(f.p99Ms.toFixed(3)), p99Settled: Number(settled.p99Ms.toFixed(3)), treeCoresMax: Number(treeMax.toFixed(3)), proxyUsPerQMax: Number(proxyUsPerQMax.toFixed(2)), treeUsPerQMax: Number(((treeMax * 1e6) / m.qps).toFixed(2)), proxyUsPerQ2000: Number(proxyUsPerQ2000.toFixed(2)), treeCores2000: Number(tree2000.toFixed(3)), cores2000: pids.map((p, i) => Number(((cpuMs(p) - c1[i]!) / (SECONDS * 1000)).toFixed(3))), usPerSlice2000, droppedSettled: dropped() - d1, wakesPerS2000: wakes2000.map((w) => Math.round(w / SECONDS)), lost: f.lost + settled.lost, policies, missed }));
        } finally {
          await timedCli(['stop', '--on-drift', 'restore']);
        }
      }
    }
  }
} finally {
  await tb.stop();
}
