/** Ad-hoc probe: the capture tree's syscalls and wake-ups at 2,000 qps (/proc/PID/io syscr/syscw, /proc/PID/status ctxt switches, CPU ms). */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli } from './lifecycle';
import { dnsperf, queryFile } from './dnsperf';

const ENGINE = process.env.ENGINE ?? 'adguard';
const extra = ENGINE === 'adguard' ? ['--dnsproxy', join(process.cwd(), '.tools/bin/dnsproxy')] : [];
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'probe-'));
const file = await queryFile(tmp, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
const tree = () => {
  const c = Number(readFileSync('/run/k2s/capture.ready', 'utf8').trim());
  return [c, ...readFileSync(`/proc/${c}/task/${c}/children`, 'utf8').trim().split(/\s+/).map(Number)];
};
const snap = (p: number) => {
  const io = Object.fromEntries(readFileSync(`/proc/${p}/io`, 'utf8').trim().split('\n').map((l) => l.split(': ')).map(([k, v]) => [k, Number(v)]));
  let vol = 0, inv = 0;
  for (const t of readdirSync(`/proc/${p}/task`)) {
    const st = readFileSync(`/proc/${p}/task/${t}/status`, 'utf8');
    vol += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(st)![1]); inv += Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(st)![1]);
  }
  const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { syscr: io.syscr!, syscw: io.syscw!, rchar: io.rchar!, wchar: io.wchar!, vol, inv, cpu: (Number(f[11]) + Number(f[12])) * 10 };
};
try {
  const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', ENGINE, '--verify-name', 'www.example.test', '--json', ...extra]);
  if (start.code !== 0) throw new Error('start failed');
  try {
    await new Promise((r) => setTimeout(r, 1500));
    const t = tree();
    const names = t.map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').slice(0, 2).join(' ').slice(-40));
    for (let r = 0; r < 2; r++) {
      const a = t.map(snap);
      const m = await dnsperf('127.0.0.1', file, 5, 2000);
      const b = t.map(snap);
      console.log(JSON.stringify({ load: loadavg()[0]!.toFixed(2), qps: Math.round(m.qps), p99: m.p99Ms }));
      t.forEach((p, i) => console.log(' ', names[i], JSON.stringify(Object.fromEntries(Object.entries(b[i]!).map(([k, v]) => [k, Math.round((v - (a[i] as Record<string, number>)[k]!) / 5)]))), '/s'));
    }
  } finally {
    await timedCli(['stop', '--on-drift', 'restore']);
  }
} finally {
  await tb.stop();
}
