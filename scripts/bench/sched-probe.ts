/**
 * Ad-hoc probe (not part of the report): how long dnsproxy's threads wait for a CPU, and which
 * task held it, while the exact query log runs. `perf sched record -a` during dnsperf at 2,000 qps
 * (AdGuard, query log on) with the capture tree running, SIGSTOPped, and running again; for each
 * sched_switch that puts a dnsproxy thread on a CPU, the ms since its sched_waking and the task it
 * replaced, summed per kind: a task of the tree, dnsproxy itself, the idle task, anything else.
 * perf's tracepoint fields carry the host's pids while /proc here is the sandbox's, so the tree's
 * tasks are told apart by the sandbox's thread ids in perf's sample headers (hostTids). Run as
 * `bash e2e/bed/sandbox.sh node --import tsx scripts/bench/sched-probe.ts` (needs perf; OUT: a
 * directory for the perf.data files, default a temp dir). MODES (comma list, knobs), ROUNDS:
 * each mode on a start of its own, interleaved; the tree's state is recorded running only, after
 * one unrecorded 2,000 qps run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli, USER_ENV } from './lifecycle';
import { dnsperf, queryFile } from './dnsperf';

const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'probe-'));
const OUT = process.env.OUT ?? tmp;
const file = await queryFile(tmp, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
const tree = () => {
  const c = Number(readFileSync('/run/k2s/capture.ready', 'utf8').trim());
  return [c, ...readFileSync(`/proc/${c}/task/${c}/children`, 'utf8').trim().split(/\s+/).map(Number)];
};
const comm = (p: number) => readFileSync(`/proc/${p}/comm`, 'utf8').trim();

/** The host pids of the tree's threads: the sample header of `perf script` shows the sandbox's tid next to the tracepoint's host pid of the task it switched out (prev_pid), when a tree thread switches itself out. */
function hostTids(data: string, inner: Set<number>): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of execFileSync('perf', ['script', '-i', data, '-F', 'tid,event,trace'], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')) {
    const m = /^\s*(\d+)\s+sched:sched_switch:\s+prev_comm=(.*?) prev_pid=(\d+)/.exec(line);
    if (m && inner.has(Number(m[1]))) out.set(Number(m[3]), `${m[2]}`);
  }
  return out;
}

/** Wait (ms) of each dnsproxy thread from its sched_waking to the sched_switch that runs it, by what that switch replaced. */
function waits(data: string, treeHost: Map<number, string>): Record<string, string> {
  const woke = new Map<number, number>();
  const by = new Map<string, number[]>();
  for (const line of execFileSync('perf', ['script', '-i', data, '-F', 'time,event,trace'], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')) {
    const m = /([\d.]+):\s+sched:(sched_waking|sched_switch):\s+(.*)/.exec(line);
    if (!m) continue;
    const t = Number(m[1]) * 1000;
    if (m[2] === 'sched_waking') {
      const w = /comm=(\S+) pid=(\d+)/.exec(m[3]!);
      if (w && w[1]!.startsWith('dnsproxy')) woke.set(Number(w[2]), t);
      continue;
    }
    const s = /prev_comm=(.*?) prev_pid=(\d+) .*==> next_comm=\S+ next_pid=(\d+)/.exec(m[3]!);
    if (!s) continue;
    const t0 = woke.get(Number(s[3]));
    if (t0 === undefined) continue;
    woke.delete(Number(s[3]));
    const prev = Number(s[2]);
    const kind = treeHost.has(prev) ? `tree:${treeHost.get(prev)}` : prev === 0 ? 'idle' : s[1]!.startsWith('dnsproxy') ? 'dnsproxy' : 'other';
    by.set(kind, [...(by.get(kind) ?? []), t - t0]);
  }
  const q = (a: number[], p: number) => a[Math.min(a.length - 1, Math.floor(a.length * p))]!.toFixed(3);
  return Object.fromEntries([...by].map(([k, a]) => (a.sort((x, y) => x - y), [k, `n ${a.length} p50 ${q(a, 0.5)} p99 ${q(a, 0.99)} max ${a.at(-1)!.toFixed(3)} ms, over 0.1 ms: ${a.filter((x) => x > 0.1).length}`])));
}

const record = async (label: string) => {
  const data = join(OUT, `${label}.data`);
  const perf = spawn('perf', ['sched', 'record', '-a', '-o', data, '--', 'sleep', '6'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  const m = await dnsperf('127.0.0.1', file, 5, 2000);
  await new Promise((r) => perf.once('exit', r));
  return { data, line: { label, load: loadavg()[0]!.toFixed(2), p99: m.p99Ms } };
};
/**
 * Sets the knobs of a mode name (`idle+share0.03+pin1`) in USER_ENV: `shareX` the parser's CPU
 * budget (K2S_CAPTURE_CPU_SHARE), `pinN` the tree's threads pinned to CPU N after the start
 * (taskset -a -cp), `batch` the tree at SCHED_BATCH and nice 19 instead of SCHED_IDLE, `slice` the
 * same with a 0.1 ms slice (sched_setattr(2) `sched_runtime`; CHRT: a util-linux ≥ 2.41 chrt command
 * line, words split at spaces); returns that CPU list, if any, and the policy knob.
 */
function knobs(named: string): { pin: string | null; policy: 'batch' | 'slice' | null } {
  delete USER_ENV.K2S_CAPTURE_CPU_SHARE;
  let pin: string | null = null;
  let policy: 'batch' | 'slice' | null = null;
  for (const k of named.split('+').slice(1)) {
    if (k.startsWith('share')) USER_ENV.K2S_CAPTURE_CPU_SHARE = k.slice(5);
    else if (k.startsWith('pin')) pin = k.slice(3);
    else if (k === 'batch' || k === 'slice') policy = k;
    else throw new Error(`unknown knob ${k}`);
  }
  return { pin, policy };
}
const CHRT = (process.env.CHRT ?? 'chrt').split(' ');
try {
  for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++)
  for (const mode of (process.env.MODES ?? 'idle').split(',')) {
  const { pin, policy } = knobs(mode);
  const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'adguard', '--verify-name', 'www.example.test', '--json', '--dnsproxy', join(process.cwd(), '.tools/bin/dnsproxy')]);
  if (start.code !== 0) throw new Error('start failed');
  try {
    await new Promise((r) => setTimeout(r, 1500));
    const t = tree();
    if (pin !== null) for (const p of t) execFileSync('taskset', ['-a', '-cp', pin, String(p)], { stdio: 'ignore' });
    if (policy !== null) {
      for (const p of t) {
        execFileSync(CHRT[0]!, [...CHRT.slice(1), '--batch', ...(policy === 'slice' ? ['--sched-runtime', '100000'] : []), '-a', '-p', '0', String(p)], { stdio: 'ignore' });
        for (const tid of readdirSync(`/proc/${p}/task`)) setPriority(Number(tid), 19);
      }
    }
    const inner = new Set(t.flatMap((p) => readdirSync(`/proc/${p}/task`).map(Number)));
    // One unrecorded run first: the parser's first seconds are its JIT warm-up (docs/query-log.md).
    await dnsperf('127.0.0.1', file, 4, 2000);
    const runs = [await record(`${mode}-${round}`)];
    const host = hostTids(runs[0]!.data, inner);
    for (const r of runs) console.log(JSON.stringify({ ...r.line, mode, round }), JSON.stringify(waits(r.data, host)));
  } finally {
    await timedCli(['stop', '--on-drift', 'restore']);
  }
  }
} finally {
  await tb.stop();
}
