/**
 * `npm run bench:capture` (`bash e2e/bed/sandbox.sh node --import tsx scripts/bench/capture.ts`).
 * The query log's candidates, measured on each engine as the product runs it (127.0.0.1:53,
 * cluster.local to the bed's kube-dns, other names to its upstream, dnsproxy with --cache,
 * dnsmasq with the product's cache-size), for cluster and external names: the query log off
 * (the anchor), the engine's own query logging to a file (dnsproxy `-v`, dnsmasq
 * `log-queries=extra`), and packet captures (tcpdump -i any as the reader, dropping to nobody,
 * piped into the non-root parser, electron/core/capture/rows-main.ts) with the reader's tunings
 * (tcpdump-argv.ts CaptureTuning: immediate mode, one copy per loopback packet) and niceness.
 * Per mode: dnsperf's max qps (one client, as the main bench), p99 at 2,000 qps, and for a
 * capture the rows it paired per query answered, tcpdump's kernel drops and the copies the
 * kernel filter passed per query. Modes are interleaved within each round, each on a fresh
 * engine, so load changes hit every mode alike. BENCH_ROUNDS, BENCH_SECONDS; BENCH_ENGINES
 * (comma list), BENCH_MODES (`;` list of mode-name prefixes). Prints a Markdown table; writes
 * docs/bench-capture.md and docs/bench-capture.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestbed, TESTBED_ADDRESSES } from '../../e2e/bed/testbed';
import { DNSMASQ_CACHE_SIZE } from '../../shared/dnsmasq-config';
import { tcpdumpArgv, type CaptureTuning } from '../../electron/core/capture/tcpdump-argv';
import { LIFT_FD, LIFT_FD_ENV } from '../../electron/core/capture/budget-lift';
import type { Writable } from 'node:stream';
import { dnsperf, queryFile } from './dnsperf';
import { figure, type Figure } from './stats';
import { waitForDns } from './capture-wait';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DNSPROXY = join(REPO, '.tools/bin/dnsproxy');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const EXTERNAL_NAMES = ['www.example.test', 'mirror.example.test'];
const NAMES = ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local'];
const log = (s: string) => process.stderr.write(`bench capture: ${s}\n`);

/** A query-log candidate: the engine's own log, or a capture with its reader's tuning. */
interface Mode {
  name: string;
  engineLog?: boolean;
  /** dnsmasq only: `log-async=25` with the engine log. */
  logAsync?: boolean;
  /** share: the parser's CPU budget (K2S_CAPTURE_CPU_SHARE, cpu-budget.ts; 0 = none, as before it shipped). */
  capture?: { tuning: CaptureTuning; toParser: boolean; nice?: number; idle?: boolean; share?: number };
}

const MODES: Mode[] = [
  { name: 'off' },
  { name: 'engine log', engineLog: true },
  { name: 'capture, both loopback copies, immediate (before)', capture: { tuning: { loopbackOnce: false, immediate: true }, toParser: true } },
  { name: 'capture, loopback once, immediate', capture: { tuning: { loopbackOnce: true, immediate: true }, toParser: true } },
  { name: 'capture, loopback once, not immediate', capture: { tuning: { loopbackOnce: true, immediate: false }, toParser: true } },
  { name: 'capture, loopback once, not immediate, SCHED_IDLE', capture: { tuning: { loopbackOnce: true, immediate: false }, toParser: true, idle: true } },
  { name: 'capture, loopback once, not immediate, SCHED_IDLE, parser budget 5 % (shipped)', capture: { tuning: { loopbackOnce: true, immediate: false }, toParser: true, idle: true, share: 0.05 } },
  { name: 'capture, loopback once, not immediate, no parser', capture: { tuning: { loopbackOnce: true, immediate: false }, toParser: false } },
  { name: 'capture, loopback once, immediate, reader+parser nice 19', capture: { tuning: { loopbackOnce: true, immediate: true }, toParser: true, nice: 19 } },
];

/** One mode's figures. */
export interface CaptureFigure {
  engine: string;
  names: string;
  mode: string;
  qps: Figure;
  p99Ms: Figure;
  /** Capture modes: rows paired / queries dnsperf got answers to, and tcpdump's kernel drops, at max rate and at 2,000 qps. */
  paired?: Figure;
  dropped?: Figure;
  paired2000?: Figure;
  dropped2000?: Figure;
  /** tcpdump's "packets received by filter" (copies the kernel made) per answered query, at 2,000 qps. */
  copiesPerQuery?: Figure;
}

/** The engine's argv for a mode: cluster.local to kube-dns, the rest to the bed's upstream, dnsproxy with its cache as the product writes it. */
function engineArgv(engine: string, mode: Mode, logFile: string): string[] {
  const { kubeDns, upstream } = TESTBED_ADDRESSES;
  if (engine === 'adguard') return [DNSPROXY, '-l', '127.0.0.1', '-p', '53', '-u', `[/cluster.local/]${kubeDns}:53`, '-u', `${upstream}:53`, '--cache', ...(mode.engineLog ? ['-v', '-o', logFile] : [])];
  return ['dnsmasq', '--no-daemon', '--conf-file=/dev/null', '--no-hosts', '--no-resolv', '--port=53', '--listen-address=127.0.0.1', '--bind-interfaces', `--server=/cluster.local/${kubeDns}`, `--server=${upstream}`, `--cache-size=${DNSMASQ_CACHE_SIZE}`,
    ...(mode.engineLog ? ['--log-queries=extra', `--log-facility=${logFile}`] : []), ...(mode.logAsync ? ['--log-async=25'] : [])];
}

/** Ends a child and waits for it to exit. */
function stop(p: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill(signal);
  });
}

/** The capture pipeline: tcpdump (drops to nobody) | parser as nobody; resolves with rows, drops and copies once stopped. */
async function startCapture(parserBundle: string, c: NonNullable<Mode['capture']>): Promise<{ stop(): Promise<{ rows: number; dropped: number; received: number }> }> {
  const argv = tcpdumpArgv({ iface: 'any', ports: [53], user: 'nobody' }, c.tuning);
  const td = spawn('tcpdump', c.toParser ? argv : argv.map((a) => (a === '-' ? '/dev/null' : a)), { stdio: ['ignore', c.toParser ? 'pipe' : 'ignore', 'pipe'] });
  let err = '';
  td.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  let parser: ChildProcess | undefined;
  let out = '';
  let lastOut = Date.now();
  if (c.toParser) {
    // As the product (pipeline.ts): the parser reads tcpdump's pipe itself.
    parser = spawn(process.execPath, [parserBundle], { uid: 65534, gid: 65534, stdio: [td.stdout!, 'pipe', 'inherit', 'pipe'], env: { K2S_CAPTURE_LISTENERS: '127.0.0.1:53', K2S_CAPTURE_CPU_SHARE: String(c.share ?? 0), [LIFT_FD_ENV]: String(LIFT_FD) } });
    td.stdout!.destroy();
    parser.stdout!.on('data', (d: Buffer) => {
      // Only the last line (counts) is kept: rows are counted, not stored.
      out = (out + d.toString()).slice(-4096);
      lastOut = Date.now();
    });
  }
  if (c.nice !== undefined) for (const p of [td, parser]) if (p?.pid) setPriority(p.pid, c.nice);
  if (c.idle) for (const p of [td, parser]) if (p?.pid) spawnSync('chrt', ['--idle', '-a', '-p', '0', String(p.pid)]);
  // tcpdump says "listening on any" on stderr once the capture is open.
  const t0 = Date.now();
  while (!/listening on/.test(err)) {
    if (td.exitCode !== null || Date.now() - t0 > 10_000) throw new Error(`tcpdump did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    async stop() {
      // Drain first: the parser may be behind under load, and what is still in tcpdump's ring
      // when it is stopped is lost without being counted as dropped. Stopped once the parser
      // wrote no row for 2.5 s (more than two of libpcap's 1 s block timeouts when not
      // immediate; at most 30 s).
      // As the product's stop (pipeline.ts): the parser's CPU budget is lifted for the drain by ending its lift pipe (budget-lift.ts).
      (parser?.stdio[3] as Writable | null | undefined)?.end();
      const t1 = Date.now();
      while (c.toParser && Date.now() - lastOut < 2500 && Date.now() - t1 < 30_000) await new Promise((r) => setTimeout(r, 100));
      const exited = parser && parser.exitCode === null && parser.signalCode === null ? new Promise<void>((r) => parser!.once('exit', () => r())) : Promise.resolve();
      await stop(td, 'SIGINT');
      await exited;
      const counts = /"counts":(\{[^}]*\})/.exec(out)?.[1];
      const dropped = Number(/(\d+) packets dropped by kernel/.exec(err)?.[1] ?? NaN);
      const received = Number(/(\d+) packets received by filter/.exec(err)?.[1] ?? NaN);
      return { rows: counts ? (JSON.parse(counts) as { rows: number }).rows : NaN, dropped, received };
    },
  };
}

if (!existsSync(DNSPROXY)) log('dnsproxy is not built (.tools/bin/dnsproxy): AdGuard rows are skipped');
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'k2s-dns-bench-capture-'));
const results: CaptureFigure[] = [];
/** 1-minute load average as each engine run began. */
const loads: number[] = [];
try {
  await chmod(tmp, 0o755);
  const bundle = join(tmp, 'rows-main.cjs');
  const esbuild = spawn(join(REPO, 'node_modules/.bin/esbuild'), [join(REPO, 'electron/core/capture/rows-main.ts'), '--bundle', '--platform=node', '--format=cjs', `--outfile=${bundle}`, '--log-level=warning'], { stdio: 'inherit' });
  await new Promise((r) => esbuild.once('exit', r));
  await chmod(bundle, 0o644);
  const files = { cluster: await queryFile(tmp, 'cluster', NAMES), external: await queryFile(tmp, 'external', EXTERNAL_NAMES) };
  const engines = (process.env.BENCH_ENGINES ?? 'adguard,dnsmasq').split(',').filter((e) => e !== 'adguard' || existsSync(DNSPROXY));
  const modes = MODES.filter((m) => !process.env.BENCH_MODES || process.env.BENCH_MODES.split(';').some((k) => m.name.startsWith(k)));
  const samples = new Map<string, { qps: number[]; p99: number[]; paired: number[]; dropped: number[]; paired2000: number[]; dropped2000: number[]; copies: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const engine of engines) {
      for (const names of ['cluster', 'external'] as const) {
        for (const mode of modes) {
          loads.push(loadavg()[0]!);
          log(`round ${round + 1}/${ROUNDS}: ${engine}, ${names}, ${mode.name} (load ${loadavg()[0]!.toFixed(1)})`);
          const logFile = join(tmp, `${engine}.log`);
          await rm(logFile, { force: true });
          const argv = engineArgv(engine, mode, logFile);
          const proc = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
          let cap: Awaited<ReturnType<typeof startCapture>> | undefined;
          try {
            await waitForDns('127.0.0.1', (names === 'cluster' ? NAMES : EXTERNAL_NAMES)[0]!, 10_000);
            const key = `${engine}|${names}|${mode.name}`;
            const s = samples.get(key) ?? { qps: [], p99: [], paired: [], dropped: [], paired2000: [], dropped2000: [], copies: [] };
            // Each dnsperf run in a capture of its own: rows paired per run = rows / queries answered.
            for (const rate of [undefined, 2000]) {
              if (mode.capture) cap = await startCapture(bundle, mode.capture);
              const run = await dnsperf('127.0.0.1', files[names], SECONDS, rate);
              if (rate) s.p99.push(run.p99Ms);
              else s.qps.push(run.qps);
              if (cap) {
                const { rows, dropped, received } = await cap.stop();
                cap = undefined;
                const answered = Math.round((rate ?? run.qps) * SECONDS) - run.lost;
                if (mode.capture!.toParser) (rate ? s.paired2000 : s.paired).push(rows / answered);
                (rate ? s.dropped2000 : s.dropped).push(dropped);
                if (rate) s.copies.push(received / answered);
              }
            }
            samples.set(key, s);
          } finally {
            await cap?.stop();
            await stop(proc);
          }
        }
      }
    }
  }
  for (const [key, s] of samples) {
    const [engine, names, mode] = key.split('|') as [string, string, string];
    const opt = (k: string, v: number[]) => (v.length ? { [k]: figure(v) } : {});
    results.push({ engine, names, mode, qps: figure(s.qps), p99Ms: figure(s.p99), ...opt('paired', s.paired), ...opt('dropped', s.dropped), ...opt('paired2000', s.paired2000), ...opt('dropped2000', s.dropped2000), ...opt('copiesPerQuery', s.copies) });
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
  await tb.stop();
}
const anchor = (r: CaptureFigure) => results.find((o) => o.engine === r.engine && o.names === r.names && o.mode === 'off')!;
const fmt = (f: Figure | undefined, d = 0) => (f ? `${f.median.toFixed(d)} (${f.min.toFixed(d)}–${f.max.toFixed(d)})` : '–');
const table = [
  '| engine | names | query log | max qps (median, min–max) | × log off | p99 at 2,000 qps ms | added p99 ms | rows / answered, max rate | at 2,000 qps | tcpdump drops, max rate | at 2,000 qps | kernel copies per query |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.engine} | ${r.names} | ${r.mode} | ${fmt(r.qps)} | ${(r.qps.median / anchor(r).qps.median).toFixed(2)}× | ${fmt(r.p99Ms, 2)} | ${(r.p99Ms.median - anchor(r).p99Ms.median).toFixed(2)} | ${fmt(r.paired, 3)} | ${fmt(r.paired2000, 3)} | ${fmt(r.dropped)} | ${fmt(r.dropped2000)} | ${fmt(r.copiesPerQuery, 1)} |`),
].join('\n');
const doc = { date: new Date().toISOString(), loadavg: loadavg().map((x) => Number(x.toFixed(2))), loadDuring: loads.length ? figure(loads) : null, rounds: ROUNDS, seconds: SECONDS, results };
await writeFile(join(REPO, 'docs/bench-capture.json'), `${JSON.stringify(doc, null, 2)}\n`);
const md = `# Query log candidates (\`npm run bench:capture\`)\n\n${doc.date}, load average at the end ${doc.loadavg.join(', ')}, 1-minute load as each run began ${fmt(doc.loadDuring ?? undefined, 1)}; ${ROUNDS} rounds of ${SECONDS} s per figure (median, min–max). Each engine as the product runs it on 127.0.0.1:53 cluster.local to the bed's kube-dns (CoreDNS in a pod namespace, over a veth), other names to the bed's upstream (a dnsmasq on a local address, over lo), dnsproxy with --cache as the product writes it; modes interleaved, each on a fresh engine; dnsperf one client (max rate) and at 2,000 qps. Capture = tcpdump -i any (drops to nobody) piped into the non-root parser (electron/core/capture/rows-main.ts).\n\n${table}\n`;
await writeFile(join(REPO, 'docs/bench-capture.md'), md);
process.stdout.write(`${table}\n\nload average at the end: ${doc.loadavg.join(', ')}, during ${fmt(doc.loadDuring ?? undefined, 1)}; ${ROUNDS} rounds of ${SECONDS} s per figure.\n`);

