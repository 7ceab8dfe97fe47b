/**
 * Ad-hoc probe (not part of the report): dnsproxy's p99 at 2,000 qps in consecutive runs of one
 * start, to tell the recovery from a max-rate run (and from the start itself) from the steady
 * state. `k2s-dns start` (AdGuard; the exact query log on, or off with LOG=off), optionally one
 * max-rate dnsperf run first (OVERLOAD=1), then N runs at 2,000 qps of SEC seconds each, one JSON
 * line per run. Run as `bash e2e/bed/sandbox.sh node --import tsx scripts/bench/p99-probe.ts`
 * (N default 4, SEC default 2, as the main bench's BENCH_SECONDS).
 * Measured with it (2026-12-06, quiet, OVERLOAD=1, SEC=2, two starts each): log off 0.48–1.12, 1.02–1.62,
 * then 0.41–0.42 and 0.27–0.34 ms; log on 0.90–1.27, 1.26–1.88, then 0.43–0.47 and 0.30–0.35 ms —
 * why run.ts judges the query log's added p99 on a settled run.
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli } from './lifecycle';
import { dnsperf, queryFile } from './dnsperf';

const N = Number(process.env.N ?? 4);
const SEC = Number(process.env.SEC ?? 2);
const tb = await startTestbed();
try {
  const tmp = await mkdtemp(join(tmpdir(), 'p99-probe-'));
  const file = await queryFile(tmp, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
  const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'adguard', '--verify-name', 'www.example.test', '--json', '--dnsproxy', join(process.cwd(), '.tools/bin/dnsproxy'), ...(process.env.LOG === 'off' ? ['--no-log-queries'] : [])]);
  if (start.code !== 0) throw new Error(`start failed: ${start.stderr}`);
  try {
    if (process.env.OVERLOAD) console.log(JSON.stringify({ run: 'max rate', qps: Math.round((await dnsperf('127.0.0.1', file, SEC)).qps) }));
    for (let i = 0; i < N; i++) {
      const m = await dnsperf('127.0.0.1', file, SEC, 2000);
      console.log(JSON.stringify({ run: i + 1, log: process.env.LOG === 'off' ? 'off' : 'on', load: loadavg()[0]!.toFixed(2), p50: m.p50Ms, p99: m.p99Ms, lost: m.lost }));
    }
  } finally {
    await timedCli(['stop', '--on-drift', 'restore']);
  }
} finally {
  await tb.stop();
}
