/**
 * Ad-hoc probe (not part of the report): where the product's exact query log costs the proxy.
 * `k2s-dns start` with the log on and off (`--no-log-queries`), interleaved per round; with it on:
 * dnsperf at full rate, the same with the capture's tree (companion, tcpdump, parser) stopped by
 * SIGSTOP, and again after SIGCONT; each line gives the qps and the share of a core each process
 * of the tree and the engine used (/proc/PID/stat). RATE=1: 2,000 qps on a fresh start, full rate,
 * then 2,000 qps again (the p99 after an overload). ENGINE (dnsmasq, adguard), ROUNDS, MODES (on,off),
 * BENCH_SECONDS, SHARE (the parser's CPU budget, K2S_CAPTURE_CPU_SHARE). Run as `bash e2e/bed/sandbox.sh node --import tsx scripts/bench/capture-tree.ts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli, USER_ENV } from './lifecycle';

if (process.env.SHARE !== undefined) USER_ENV.K2S_CAPTURE_CPU_SHARE = process.env.SHARE;
import { dnsperf, queryFile } from './dnsperf';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ENGINE = process.env.ENGINE ?? 'dnsmasq';
const extra = ENGINE === 'adguard' ? ['--dnsproxy', join(process.cwd(), '.tools/bin/dnsproxy')] : [];
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'probe-'));
const file = await queryFile(tmp, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
const cmd = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
const tree = () => {
  const c = Number(readFileSync('/run/k2s/capture.ready', 'utf8').trim());
  return [c, ...readFileSync(`/proc/${c}/task/${c}/children`, 'utf8').trim().split(/\s+/).map(Number)];
};
const engines = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((p) => { try { return /dnsmasq|dnsproxy/.test(readFileSync(`/proc/${p}/comm`, 'utf8')); } catch { return false; } });
const cpu = (pid: number) => { try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; } catch { return 0; } };
let watch: number[] = [];
const run = async (label: string, rate?: number) => {
  const pids = [...engines(), ...watch];
  const c0 = pids.map(cpu);
  const m = await dnsperf('127.0.0.1', file, SECONDS, rate);
  const c1 = pids.map(cpu);
  const share = Object.fromEntries(pids.map((p, i) => [`${readFileSync(`/proc/${p}/comm`, 'utf8').trim()}:${p}`, Number(((c1[i]! - c0[i]!) / (SECONDS * 1000)).toFixed(2))]));
  console.log(JSON.stringify({ label, load: loadavg()[0]!.toFixed(2), qps: Math.round(m.qps), p99: m.p99Ms, cores: share }));
};
try {
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    for (const mode of (process.env.MODES ?? 'on,off').split(',')) {
      const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', ENGINE, '--verify-name', 'www.example.test', '--json', ...extra, ...(mode === 'off' ? ['--no-log-queries'] : [])]);
      if (start.code !== 0) throw new Error(`start failed: ${JSON.stringify(start.events.at(-1))}`);
      try {
        if (round === 0) for (const p of engines()) console.log(`engine ${mode}: ${cmd(p)}`);
        if (mode === 'off') { watch = []; if (process.env.RATE) { await run('off 2000 fresh', 2000); await run('off max'); await run('off 2000 after max', 2000); } else await run('off'); continue; }
        await new Promise((r) => setTimeout(r, 1500));
        const t = tree(); watch = t;
        if (round === 0) for (const p of t) console.log(`tree: ${p} ${cmd(p)}`);
        if (process.env.RATE) { await run('on 2000 fresh', 2000); for (const p of t) process.kill(p, 'SIGSTOP'); await run('on max, tree stopped'); await run('on 2000, tree stopped', 2000); for (const p of t) process.kill(p, 'SIGCONT'); await run('on max'); await run('on 2000 after max', 2000); const missed = existsSync('/run/k2s/capture.missed') ? readFileSync('/run/k2s/capture.missed', 'utf8') : 'none'; console.log('missed: ' + missed.replace(/\n/g, ' ')); continue; }
        await run('on');
        for (const p of t) process.kill(p, 'SIGSTOP');
        await run('on, tree SIGSTOPped');
        for (const p of t) process.kill(p, 'SIGCONT');
        await new Promise((r) => setTimeout(r, 3000));
        await run('on again');
      } finally {
        await timedCli(['stop', '--on-drift', 'restore']);
      }
    }
  }
} finally {
  await tb.stop();
}
