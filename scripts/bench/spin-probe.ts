/**
 * Ad-hoc probe (not part of the report): dnsproxy's p50/p99 at 2,000 qps with the query log off,
 * alone and beside SCHED_IDLE work, to tell the capture tree's own cost from what any
 * idle-priority CPU use costs on this host. MODES (comma list, interleaved per round): `none`;
 * `userN`: N busy loops in user mode; `kernelN`: N loops of dd copying /dev/zero (kernel mode);
 * `dutyN`: N loops busy ON_MS (default 0.5) of every PERIOD_MS (default 10), i.e. 5 % of a core
 * each, like the tree at 2,000 qps. ROUNDS, BENCH_SECONDS. Run as
 * `bash e2e/bed/sandbox.sh node --import tsx scripts/bench/spin-probe.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli } from './lifecycle';
import { dnsperf, queryFile } from './dnsperf';

/** A busy loop of ON ms in every PERIOD ms (argv 1 and 2). */
const DUTY = 'import sys,time\non=float(sys.argv[1])/1000;per=float(sys.argv[2])/1000\nwhile True:\n t=time.monotonic()\n while time.monotonic()-t<on: pass\n time.sleep(max(0,per-(time.monotonic()-t)))';
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'probe-'));
const file = await queryFile(tmp, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
const spinners = (n: number, kind: string): ChildProcess[] => Array.from({ length: n }, () => spawn('chrt', ['--idle', '0', ...(kind === 'user' ? ['sh', '-c', 'while :; do :; done'] : kind === 'duty' ? ['python3', '-c', DUTY, process.env.ON_MS ?? '0.5', process.env.PERIOD_MS ?? '10'] : ['sh', '-c', 'while :; do dd if=/dev/zero of=/dev/null bs=1M count=200 status=none; done'])], { stdio: 'ignore' }));
try {
  const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'adguard', '--verify-name', 'www.example.test', '--json', '--no-log-queries', '--dnsproxy', join(process.cwd(), '.tools/bin/dnsproxy')]);
  if (start.code !== 0) throw new Error('start failed');
  try {
    for (let r = 0; r < Number(process.env.ROUNDS ?? 2); r++) {
      for (const mode of (process.env.MODES ?? 'none,user2,kernel2').split(',')) {
        const n = Number(mode.replace(/\D/g, '') || 0);
        const s = spinners(n, mode.replace(/\d/g, ''));
        try {
          const m = await dnsperf('127.0.0.1', file, Number(process.env.BENCH_SECONDS ?? 5), 2000);
          console.log(JSON.stringify({ mode, load: loadavg()[0]!.toFixed(2), p50: m.p50Ms ?? null, p99: m.p99Ms }));
        } finally {
          for (const c of s) { const gone = new Promise((r) => c.once('exit', r)); c.kill('SIGKILL'); await gone; }
        }
      }
    }
  } finally {
    await timedCli(['stop', '--on-drift', 'restore']);
  }
} finally {
  await tb.stop();
}
