/**
 * Ad-hoc probe (not part of the report): two settings of the capture tree (MODES, default
 * `all,pinned`), A/B inside one start of the exact query log, so the machine's drifting load hits both alike (idle-ab.ts compares
 * fresh starts minutes apart, whose spread on a shared 2-core machine is larger than the effect).
 * Per engine (AB_ENGINES, default both): one start with the log; the tree's threads switched to a
 * mode's setting before each dnsperf run, in ABBA order. Modes: `all` (every CPU, `taskset -a -cp
 * 0-N`, idle priority as shipped), `pinned` (one CPU, PIN, default 1), `batch` (SCHED_BATCH at nice
 * 19 instead of SCHED_IDLE) and `slice` (the same with a 0.1 ms slice, sched_setattr(2)
 * `sched_runtime`: needs util-linux ≥ 2.41's chrt, CHRT, e.g. a Debian 13 host's), `stopped` (the
 * tree SIGSTOPped: its ring fills and the kernel drops, so the proxy meets only the kernel's taps;
 * every other mode SIGCONTs it first);
 * PAIRS max-rate runs of SECONDS (default 2), then PAIRS runs at 2,000 qps (no max-rate run between,
 * one unmeasured warm-up run first). Per run: qps, p99, the tree's cores (schedstat), the proxy's µs
 * of CPU per query, and the packets the kernel dropped (tcpdump's count, /run/k2s/capture.missed,
 * refreshed every 5 s by the companion: read after each pair's runs it is late by up to 5 s, so the
 * drops are summed per mode over the whole phase from a final read). Prints JSON lines; run as
 * `bash e2e/bed/sandbox.sh node --import tsx scripts/bench/pin-toggle.ts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { cpus, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli } from './lifecycle';
import { dnsperf } from './dnsperf';
import { abEngines, abQueryFile, captureTree } from './ab-setup';
import { cpuTimesNow, stealShare } from './steal';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DNSPROXY = join(REPO, '.tools/bin/dnsproxy');
const PAIRS = Number(process.env.PAIRS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const PIN = process.env.PIN ?? '1';
const ALL = `0-${cpus().length - 1}`;
const MODES = (process.env.MODES ?? 'all,pinned').split(',') as [Mode, Mode];
type Mode = 'all' | 'pinned' | 'batch' | 'slice' | 'stopped';
/** CHRT: a chrt command line (words split at spaces), util-linux ≥ 2.41 for `slice`. */
const CHRT = (process.env.CHRT ?? 'chrt').split(' ');
const chrt = (args: string[]) => execFileSync(CHRT[0]!, [...CHRT.slice(1), ...args], { stdio: 'ignore' });
/** Puts the tree's threads in a mode's setting (every thread: schedstat and taskset -a count them all). */
const apply = (mode: Mode, pids: number[]) => {
  for (const pid of pids) process.kill(pid, mode === 'stopped' ? 'SIGSTOP' : 'SIGCONT');
  if (mode === 'stopped') return;
  for (const pid of pids) {
    execFileSync('taskset', ['-a', '-cp', mode === 'pinned' ? PIN : ALL, String(pid)], { stdio: 'ignore' });
    if (mode === 'all' || mode === 'pinned') {
      // Back to the base slice first (a policy without sched_runtime resets it), then idle as shipped.
      if (process.env.CHRT) chrt(['--batch', '-a', '-p', '0', String(pid)]);
      chrt(['--idle', '-a', '-p', '0', String(pid)]);
    } else {
      chrt(['--batch', ...(mode === 'slice' ? ['--sched-runtime', '100000'] : []), '-a', '-p', '0', String(pid)]);
      for (const tid of readdirSync(`/proc/${pid}/task`)) setPriority(Number(tid), 19);
    }
  }
};
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'pin-toggle-'));
const file = await abQueryFile(tmp);
const engines = abEngines(DNSPROXY);
const tree = captureTree;
/** CPU ms of a process so far, all its threads (/proc/PID/task/TID/schedstat; 0 once gone). */
const cpuMs = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((a, tid) => a + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]), 0) / 1e6;
  } catch {
    return 0;
  }
};
const dropped = () => Number(/dropped=(\d+)/.exec(existsSync('/run/k2s/capture.missed') ? readFileSync('/run/k2s/capture.missed', 'utf8') : '')?.[1] ?? 0);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  for (const e of engines) {
    const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', e.name, '--verify-name', 'www.example.test', '--json', ...e.extra]);
    if (start.code !== 0) throw new Error(`start failed: ${JSON.stringify(start.events.at(-1))}`);
    try {
      const companion = tree()[0]!;
      for (let i = 0; i < 200 && !readFileSync('/run/k2s/capture.log', 'utf8').includes(`capture-watch: (PID ${companion}, `); i++) await wait(50);
      const proxy = Number(readFileSync('/run/k2s/dnsproxy.pid', 'utf8').trim());
      const pids = tree();
      for (const phase of ['max', '2000'] as const) {
        const rate = phase === 'max' ? undefined : 2000;
        if (rate) await dnsperf('127.0.0.1', file, SECONDS, rate);
        const drops: Record<string, number> = { [MODES[0]]: 0, [MODES[1]]: 0 };
        for (let i = 0; i < PAIRS * 2; i++) {
          // ABBA: A, B, B, A, ...
          const mode = MODES[[0, 3].includes(i % 4) ? 0 : 1];
          apply(mode, pids);
          const t0 = cpuTimesNow();
          const c0 = pids.map(cpuMs);
          const p0 = cpuMs(proxy);
          const d0 = dropped();
          const r = await dnsperf('127.0.0.1', file, SECONDS, rate);
          const treeCores = pids.map(cpuMs).reduce((a, c, k) => a + c - c0[k]!, 0) / (SECONDS * 1000);
          const proxyUsPerQ = ((cpuMs(proxy) - p0) * 1000) / (r.qps * SECONDS);
          const steal = stealShare(t0, cpuTimesNow());
          // The companion refreshes the count every 5 s: wait for it so this run's drops land on this run.
          if (phase === 'max') await wait(5200);
          drops[mode]! += dropped() - d0;
          const slice = readFileSync(`/proc/${pids[2]}/sched`, 'utf8').match(/se\.slice\s+:\s+(\d+)/)?.[1] ?? null;
          console.log(JSON.stringify({ engine: e.name, phase, i, mode, parserSlice: slice, load: Number(loadavg()[0]!.toFixed(2)), steal: steal === null ? null : Number(steal.toFixed(3)), qps: Math.round(r.qps), p99: Number(r.p99Ms.toFixed(3)), lost: r.lost, treeCores: Number(treeCores.toFixed(3)), proxyUsPerQ: Number(proxyUsPerQ.toFixed(2)), dropped: dropped() - d0 }));
        }
        console.log(JSON.stringify({ engine: e.name, phase, drops }));
      }
    } finally {
      for (const pid of tree()) process.kill(pid, 'SIGCONT');
      await timedCli(['stop', '--on-drift', 'restore']);
    }
  }
} finally {
  await tb.stop();
}
