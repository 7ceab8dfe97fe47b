/**
 * Ad-hoc A/B (not part of the report): the product as `k2s-dns start` runs it, per engine, three
 * modes interleaved in every round so load changes hit them alike: the exact query log with its
 * companion tree at idle priority (as shipped), the same tree switched to normal priority
 * (chrt --other -a -p 0 on companion, tcpdump, parser), and the query log off (--no-log-queries).
 * Max qps (dnsperf -l SECONDS) and p99 at 2,000 qps, cluster names; AB_MODES (e.g. `idle,idle@0.02,off`)
 * picks modes (`nice`: the tree at normal policy, nice 19), `@SHARE` the parser's CPU budget
 * (K2S_CAPTURE_CPU_SHARE), `ag0` the tree's autogroup at nice 0 (as before the companion set it to 19). AB_ENGINES
 * (e.g. `adguard`) picks engines. Prints JSON lines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestbed } from '../../e2e/bed/testbed';
import { timedCli, USER_ENV } from './lifecycle';
import { dnsperf, queryFile } from './dnsperf';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DNSPROXY = join(REPO, '.tools/bin/dnsproxy');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'idle-ab-'));
const file = await queryFile(tmp, 'cluster', ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local']);
const engines = [{ name: 'dnsmasq', extra: [] as string[] }];
if (existsSync(DNSPROXY)) engines.push({ name: 'adguard', extra: ['--dnsproxy', DNSPROXY] });
if (process.env.AB_ENGINES) engines.splice(0, engines.length, ...engines.filter((e) => process.env.AB_ENGINES!.split(',').includes(e.name)));
const tree = () => {
  const c = Number(readFileSync('/run/k2s/capture.ready', 'utf8').trim());
  return [c, ...readFileSync(`/proc/${c}/task/${c}/children`, 'utf8').trim().split(/\s+/).map(Number)];
};
const policy = (pid: number) => execFileSync('chrt', ['-p', String(pid)], { encoding: 'utf8' }).split('\n')[0]!.split(': ')[1];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const e of engines) {
      for (const named of process.env.AB_MODES?.split(',') ?? ['idle', 'normal', 'off']) {
        // `idle@0.02`: the parser's CPU budget for that start (K2S_CAPTURE_CPU_SHARE, reaching it through the companion).
        const [mode, share] = named.split('@') as ['idle' | 'normal' | 'nice' | 'off' | 'ag0', string | undefined];
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
            if (mode === 'ag0') writeFileSync(`/proc/${tree()[0]!}/autogroup`, '0');
            policies = `${tree().map(policy).join(',')} ${readFileSync(`/proc/${tree()[0]!}/autogroup`, 'utf8').trim()}`;
          }
          const load = loadavg()[0]!.toFixed(2);
          const m = await dnsperf('127.0.0.1', file, SECONDS);
          const f = await dnsperf('127.0.0.1', file, SECONDS, 2000);
          const missed = existsSync('/run/k2s/capture.missed') ? readFileSync('/run/k2s/capture.missed', 'utf8').replace(/\n/g, ' ') : '';
          console.log(JSON.stringify({ round, engine: e.name, mode: named, load, qps: Math.round(m.qps), p99: Number(f.p99Ms.toFixed(3)), lost: f.lost, policies, missed }));
        } finally {
          await timedCli(['stop', '--on-drift', 'restore']);
        }
      }
    }
  }
} finally {
  await tb.stop();
}
