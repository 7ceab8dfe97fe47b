/**
 * `npm run bench`, inside the e2e sandbox (as root; e2e/bed/sandbox.sh): the CLI
 * vs `node -e 0`, start/stop per step vs their floor, dnsperf through the proxy vs direct for
 * each engine with query logging on and off, the query tester vs dig, the renderer size.
 * Every figure: median/min/max of BENCH_ROUNDS (default 5) runs. Writes docs/bench.json and
 * docs/bench.md (scripts/bench/report.ts). BENCH_SECONDS: length of each dnsperf run (default 2).
 */
import { execFile, spawnSync } from 'node:child_process';
import { queryDns } from '../../electron/core/probes/dns-query';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestbed, TESTBED_ADDRESSES } from '../../e2e/bed/testbed';
import { lifecycleRounds, timedCli, USER_ENV, USER_ENV_NOTE } from './lifecycle';
import { debianLifecycle } from './debian-lifecycle';
import { cpuTimesNow, stealShare } from './steal';
import { dnsperf, hasDnsperf, queryFile } from './dnsperf';
import { apiRoundTripMs, engineStartMs, verifyQueriesMs } from './floor';
import { figure, type Figure } from './stats';
import { renderReport, type BenchResult } from './report';
import { mergeSections } from './bench-merge';
import { followFigures, searchFigures, tailFigures, writeBigLog } from './logviewer';
import { exactPageFigures } from './exact-pages';
import { interactiveFigures, launchBrowser } from './ui-launch';
import { idleFigures } from './idle';
import { createRealBackend } from '../../electron/core/backend-real';
import { createNodeDeps } from '../../electron/core/lifecycle/node-deps';
import { startWebServer } from '../../electron/web/server';
import { K2S_PATHS } from '../../shared/k2s-paths';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 5));
/** Rounds of the booted Debian 13 host's start/stop pairs per engine (at least ROUNDS). */
const DEBIAN_ROUNDS = 11;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
/** Unmeasured 2,000 qps runs between a row's first 2,000 qps run and its settled one (measureOnce). */
const SETTLE_RUNS = 1;
/** Seconds of following a growing log (30 s at 20,000 lines/s). */
const FOLLOW_SECONDS = Number(process.env.BENCH_FOLLOW_SECONDS ?? 30);
/** Which sections run (comma list; default all): cli,lifecycle,debian,dnsperf,query,logs,ui,idle. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'cli,lifecycle,debian,dnsperf,query,logs,ui,idle').split(','));
/** Seconds of each idle-cost state (default 45). */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 45);
/** bin/k2s-dns.mjs of other builds to measure the idle cost of too, side by side (e.g. the previous commit's, for a before/after pair); comma list of label=path. */
const IDLE_OTHER = (process.env.BENCH_IDLE_OTHER ?? '').split(',').filter(Boolean).map((x) => x.split('=') as [string, string]);
const DNSPROXY = join(REPO, '.tools/bin/dnsproxy');
const CLUSTER_NAMES = ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local', 'kube-dns.kube-system.svc.cluster.local'];
const EXTERNAL_NAMES = ['www.example.test', 'mirror.example.test'];

const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
/** The section running now and the CPU times as it began (steal.ts). */
let running: { section: string; at: ReturnType<typeof cpuTimesNow> } | null = null;
/** Ends the running section: its steal share (the hypervisor's, of all CPU time) goes beside its load. */
const endSection = () => {
  if (!running) return;
  const share = stealShare(running.at, cpuTimesNow());
  if (share !== null) (out.stealAt ??= {})[running.section] = Number(share.toFixed(3));
  running = null;
};
/** Notes the 1-minute load average as a section begins (the report shows it beside the section's figures), and ends the one before. */
const mark = (section: string) => {
  endSection();
  const load = Number(loadavg()[0]!.toFixed(2));
  (out.loadAt ??= {})[section] = load;
  log(`${section} (load ${load})`);
  running = { section, at: cpuTimesNow() };
};

/**
 * Wall ms of a program run (spawned, output discarded), with USER_ENV as the lifecycle's CLI runs
 * (NODE_EXTRA_CA_CERTS unset), so `node -e 0` is their floor. Asynchronous on purpose: the fake API
 * server runs in this process, and a spawnSync would stall it (zones would wait for its timeout).
 */
function programMs(file: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve) => execFile(file, args, { env: USER_ENV }, () => resolve(performance.now() - t0)));
}

/** First line of a program's output (versions), or why not. */
function firstLine(file: string, args: string[]): string {
  const r = spawnSync(file, args, { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.split('\n').find((l) => l.trim())?.trim() ?? `(${file} not found)`;
}

/** Median/min/max per key over a list of per-run records. */
function perKey(rows: Record<string, number>[]): Record<string, Figure> {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(keys.map((k) => [k, figure(rows.map((r) => r[k] ?? Number.NaN))]));
}

const t0 = performance.now();
const out: BenchResult = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?', memGiB: Math.round(totalmem() / 2 ** 30), kernel: release(), loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))) },
  loadAt: {},
  userEnvNote: USER_ENV_NOTE,
  versions: { node: process.version, dnsmasq: firstLine('dnsmasq', ['--version']), dnsproxy: existsSync(DNSPROXY) ? firstLine(DNSPROXY, ['--version']) : 'not built', dnsperf: (await hasDnsperf()) ? (/Version ([\d.]+)/.exec(spawnSync('dnsperf', ['-h'], { encoding: 'utf8' }).stderr + spawnSync('dnsperf', ['-h'], { encoding: 'utf8' }).stdout)?.[1] ?? 'installed') : 'missing', commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', cwd: REPO }).stdout.trim() },
  rounds: ROUNDS,
  cli: {},
  lifecycle: {},
  floor: {},
  dnsperf: [],
  query: {},
  renderer: null,
  logViewer: null,
  logSearch: null,
  ui: null,
  idle: [],
  notMeasured: [],
  durationS: 0,
};

if (!existsSync(join(REPO, 'dist/k2s-dns.mjs'))) throw new Error('dist/ is missing: run npm run build first (the bench measures the built CLI).');
const tb = await startTestbed();
const tmp = await mkdtemp(join(tmpdir(), 'k2s-dns-bench-'));
try {
  // CLI start-up, interleaved so load changes hit every command alike.
  const bin = join(REPO, 'bin/k2s-dns.mjs');
  if (ONLY.has('cli')) {
  mark('cli');
  // Floors: Node alone, and Node loading the Kubernetes client chunk alone (what start and the
  // cluster views must load: the chunk that loads dist/vendor-client-node.cjs through the code
  // cache, electron/core/compile-cache/vendor.ts; root's cache is the sandbox's /var/cache/k2s-dns).
  const distDir = join(REPO, 'dist');
  const loaderChunk = readdirSync(distDir).find((f) => f.endsWith('.mjs') && readFileSync(join(distDir, f), 'utf8').includes('loadVendorScript("vendor-client-node.cjs"'));
  if (!loaderChunk) throw new Error('dist/ has no chunk loading vendor-client-node.cjs: run npm run build.');
  const clientNode = pathToFileURL(join(distDir, loaderChunk)).href;
  const cmds: Record<string, string[]> = { 'node -e 0': ['-e', '0'], 'import of the client-node chunk': ['--input-type=module', '-e', `await import(${JSON.stringify(clientNode)})`], '--help': [bin, '--help'], status: [bin, 'status'], zones: [bin, 'zones', '--kubeconfig', tb.kubeconfigPath] };
  const samples: Record<string, number[]> = {};
  for (let i = 0; i < ROUNDS; i++) for (const [k, a] of Object.entries(cmds)) (samples[k] ??= []).push(await programMs(process.execPath, a));
  out.cli = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, figure(v)]));
  }

  // The floor of start, each part alone.
  mark('floor');
  const engines: { name: string; extra: string[]; argv: (port: number) => string[] }[] = [
    { name: 'dnsmasq', extra: [], argv: (p) => ['dnsmasq', '--no-daemon', '--conf-file=/dev/null', '--no-hosts', '--no-resolv', `--port=${p}`, '--listen-address=127.0.0.1', '--bind-interfaces', `--server=${TESTBED_ADDRESSES.kubeDns}`] },
  ];
  if (existsSync(DNSPROXY)) engines.push({ name: 'adguard', extra: ['--dnsproxy', DNSPROXY], argv: (p) => [DNSPROXY, '-l', '127.0.0.1', '-p', String(p), '-u', TESTBED_ADDRESSES.kubeDns] });
  else out.notMeasured.push('AdGuard dnsproxy: .tools/bin/dnsproxy is not built here (scripts/build-engines.sh).');
  const api: number[] = [];
  const verify: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    api.push(await apiRoundTripMs(tb.api.url, tb.api.token));
    verify.push(await verifyQueriesMs(TESTBED_ADDRESSES.kubeDns, TESTBED_ADDRESSES.upstream, CLUSTER_NAMES[0]!, EXTERNAL_NAMES[0]!));
  }
  for (const e of engines) {
    const starts: number[] = [];
    for (let i = 0; i < ROUNDS; i++) starts.push(await engineStartMs(e.argv(5390), 5390));
    out.floor[e.name] = { engineStart: figure(starts), apiRoundTrip: figure(api), verifyQueries: figure(verify), total: figure(starts.map((s, i) => s + api[i]! + verify[i]!)) };
  }

  // start/stop through the built CLI, per step.
  for (const e of ONLY.has('lifecycle') ? engines : []) {
    mark(`lifecycle ${e.name}`);
    try {
      const r = await lifecycleRounds(tb, ROUNDS, e.name, e.extra);
      out.lifecycle[e.name] = { start: { wall: figure(r.start.wall), cpu: figure(r.start.cpu), steps: perKey(r.start.steps) }, stop: { wall: figure(r.stop.wall), cpu: figure(r.stop.cpu), steps: perKey(r.stop.steps) } };
    } catch (err) {
      out.notMeasured.push(`start/stop with ${e.name}: ${(err as Error).message.slice(0, 300)}`);
    }
  }

  // dnsperf: through the proxy (logging on and off) vs straight to kube-dns / the upstream.
  if (!ONLY.has('dnsperf')) out.notMeasured.push('dnsperf: not in BENCH_ONLY.');
  else if (await hasDnsperf()) {
    const files = { cluster: await queryFile(tmp, 'cluster', CLUSTER_NAMES), external: await queryFile(tmp, 'external', EXTERNAL_NAMES) };
    const direct = { cluster: TESTBED_ADDRESSES.kubeDns, external: TESTBED_ADDRESSES.upstream };
    /**
     * Samples per row (target, engine, logging, names): max qps; p50, p99 and lost of the 2,000 qps
     * run right after it; p99 and lost of a settled 2,000 qps run (SETTLE_RUNS unmeasured runs at
     * 2,000 qps between them).
     */
    const rows = new Map<string, { target: string; engine: string; logging: string; names: 'cluster' | 'external'; max: number[]; p50: number[]; p99: number[]; lost: number[]; p99Settled: number[]; lostSettled: number[] }>();
    /**
     * One round of a row: dnsperf at its max rate, then at 2,000 qps (measured: the p99 right after
     * an overload), then SETTLE_RUNS runs at 2,000 qps not measured, then one more (measured: the
     * settled p99). The p99 right after the max-rate run is the proxy's recovery from it, and it
     * spreads with or without the query log: 2-second runs through AdGuard, log off, gave p99
     * 0.48–1.12 ms in the first run after the max-rate one and 1.02–1.62 ms in the second, then
     * 0.27–0.42 ms (log on: 0.90–1.27, 1.26–1.88, then 0.30–0.47; two starts each, reproduced
     * by scripts/bench/p99-probe.ts). The settled run is what a steady 2,000 qps meets.
     */
    const measureOnce = async (target: string, server: string, names: 'cluster' | 'external', engine: string, logging: string) => {
      const key = [target, engine, logging, names].join(' ');
      const row = rows.get(key) ?? { target, engine, logging, names, max: [], p50: [], p99: [], lost: [], p99Settled: [], lostSettled: [] };
      rows.set(key, row);
      const m = await dnsperf(server, files[names], SECONDS);
      const f = await dnsperf(server, files[names], SECONDS, 2000);
      for (let k = 0; k < SETTLE_RUNS; k++) await dnsperf(server, files[names], SECONDS, 2000);
      const settled = await dnsperf(server, files[names], SECONDS, 2000);
      row.max.push(m.qps);
      row.p50.push(f.p50Ms);
      row.p99.push(f.p99Ms);
      row.lost.push(f.lost);
      row.p99Settled.push(settled.p99Ms);
      row.lostSettled.push(settled.lost);
    };
    mark('dnsperf');
    for (let i = 0; i < ROUNDS; i++) for (const names of ['cluster', 'external'] as const) await measureOnce('direct', direct[names], names, '-', '-');
    // Logging on and off alternate round by round, each on a fresh start: the "× log off" of a
    // row compares runs minutes apart otherwise, and a shared 2-core machine's load drifts by more
    // than the 10 % the query log may cost (one block on, then one off: 0.89× and 1.07× in two runs).
    for (const e of engines) {
      const failedModes = new Set<string>();
      for (let i = 0; i < ROUNDS; i++) {
        for (const logging of ['on', 'off']) {
          if (failedModes.has(logging)) continue;
          log(`dnsperf ${e.name} logging ${logging}, round ${i + 1} of ${ROUNDS}`);
          const start = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', e.name, '--verify-name', 'www.example.test', '--json', ...e.extra, ...(logging === 'off' ? ['--no-log-queries'] : [])]);
          if (start.code !== 0) {
            failedModes.add(logging);
            out.notMeasured.push(`dnsperf through ${e.name} (logging ${logging}): start failed: ${JSON.stringify(start.events.at(-1)).slice(0, 300)}`);
            continue;
          }
          try {
            for (const names of ['cluster', 'external'] as const) await measureOnce('proxy', '127.0.0.1', names, e.name, logging);
          } finally {
            await timedCli(['stop', '--on-drift', 'restore']);
          }
        }
      }
    }
    for (const r of rows.values()) out.dnsperf.push({ target: r.target, engine: r.engine, logging: r.logging, names: r.names, qps: figure(r.max), p50Ms: figure(r.p50), p99Ms: figure(r.p99), lostAt2000: figure(r.lost), p99SettledMs: figure(r.p99Settled), lostSettled: figure(r.lostSettled) });
  } else out.notMeasured.push('dnsperf is not installed (apt-get install dnsperf): no proxy throughput or latency figures.');

  // Query tester: one CLI probe vs dig, same name and server.
  if (ONLY.has('query')) {
  mark('query');
  // The app's query tester probes in-process (queryDns); the CLI adds Node's start-up.
  const probe: number[] = [];
  const cli: number[] = [];
  const dig: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await queryDns({ name: EXTERNAL_NAMES[0]!, type: 'A', server: TESTBED_ADDRESSES.upstream });
    probe.push(performance.now() - t);
    cli.push(await programMs(process.execPath, [bin, 'query', EXTERNAL_NAMES[0]!, '--server', TESTBED_ADDRESSES.upstream]));
    dig.push(await programMs('dig', ['+tries=1', '+time=2', `@${TESTBED_ADDRESSES.upstream}`, EXTERNAL_NAMES[0]!, 'A']));
  }
  out.query = { 'probe (in-process, as the app)': figure(probe), 'k2s-dns query (CLI process)': figure(cli), dig: figure(dig) };
  }

  // Log viewer: the last 1,000 lines of a 1 GiB log vs tail(1).
  if (ONLY.has('logs')) {
    mark('logs');
    log('log viewer: writing a 1 GiB log');
    const big = join(tmp, 'big.log');
    const lastSeq = await writeBigLog(big);
    log('log viewer: last 1,000 lines');
    out.logViewer = { ...(await tailFigures(big, lastSeq, ROUNDS)), follow: null };
    await rm(big, { force: true });
    log('log viewer: search over dnsproxy.log + .1 (20 MiB each)');
    const set = join(tmp, 'search.log');
    out.logSearch = await searchFigures(set, ROUNDS);
    await rm(set, { force: true });
    await rm(`${set}.1`, { force: true });
    log('log viewer: Load older rows through an exact query log at the rotation cap (2 × 10 MiB)');
    const exactDir = join(tmp, 'exact-pages');
    await mkdir(exactDir, { recursive: true });
    out.exactPages = await exactPageFigures(exactDir, ROUNDS);
    await rm(exactDir, { recursive: true, force: true });
  }
  // UI in Chromium (web mode, real backend on the bed), and following a fast log with the Logs tab open.
  if (ONLY.has('ui') || ONLY.has('logs')) {
    mark('ui');
    const rendererOut = join(REPO, 'out/renderer');
    const backend = createRealBackend({ deps: await createNodeDeps(), warmUp: true, kubeconfig: tb.kubeconfigPath, verifyName: 'www.example.test' });
    const server = await startWebServer({ backend, staticDir: rendererOut });
    const { browser, launch } = await launchBrowser(ROUNDS);
    try {
      if (ONLY.has('ui')) {
        const healthMs: number[] = [];
        for (let i = 0; i < ROUNDS; i++) healthMs.push((await backend.healthCheck({})).durationMs);
        out.ui = { browserLaunch: launch, interactive: await interactiveFigures(browser, server.url, ROUNDS), healthCheck: figure(healthMs) };
      }
      if (ONLY.has('logs')) {
        log(`log viewer: following 20,000 lines/s for ${FOLLOW_SECONDS} s with the Logs tab open`);
        const page = await browser.newPage();
        await page.goto(server.url);
        await page.getByTestId('tab-logs').click();
        await mkdir(dirname(K2S_PATHS.log), { recursive: true });
        const follow = await followFigures(backend, K2S_PATHS.log, FOLLOW_SECONDS, 20_000, page);
        out.logViewer = { ...(out.logViewer ?? { readTail: null, tail: null, fileBytes: 0 }), follow };
      }
    } finally {
      await browser.close();
      await server.close();
    }
  }

  // Idle cost: the backend's CPU with one window open and with none, in every host state.
  if (ONLY.has('idle')) {
    const { browser } = await launchBrowser(1);
    const engineArgs = existsSync(DNSPROXY) ? ['--engine', 'adguard', '--dnsproxy', DNSPROXY] : ['--engine', 'dnsmasq'];
    try {
      for (const [label, path] of [['this build', join(REPO, 'bin/k2s-dns.mjs')], ...IDLE_OTHER] as [string, string][]) {
        mark(`idle ${label}`);
        log(`idle cost (${label}), ${IDLE_SECONDS} s per state`);
        try {
          out.idle.push({ build: label, engine: engineArgs[1]!, ...(await idleFigures(path, tb, browser, IDLE_SECONDS, engineArgs, log)) });
        } catch (err) {
          out.notMeasured.push(`idle cost (${label}): ${(err as Error).message.slice(0, 300)}`);
        }
      }
    } finally {
      await browser.close();
    }
  }

  const rendererDir = join(REPO, 'out/renderer');
  if (existsSync(rendererDir)) {
    const walk = (d: string): number => readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? walk(join(d, e.name)) : statSync(join(d, e.name)).size), 0);
    out.renderer = { bytes: walk(rendererDir) };
  } else out.notMeasured.push('Renderer bundle size: out/renderer is missing (npm run build builds it).');
} finally {
  await rm(tmp, { recursive: true, force: true });
  await tb.stop();
}
// start/stop on a booted Debian 13 host (systemd), as K2s hosts run it: after the sandbox's test
// bed has stopped, as the host boots with a test bed of its own on the same fixed addresses.
if (ONLY.has('debian')) {
  mark('lifecycle debian');
  try {
    // More rounds than the other sections (~4 s each): a ~0.5 s command on 2 shared cores spread
    // 398–741 ms over 5 rounds, wider than the goal's margin.
    const d = await debianLifecycle(Math.max(ROUNDS, DEBIAN_ROUNDS), ['dnsmasq', 'adguard']);
    if ('missing' in d) out.notMeasured.push(`start/stop on a booted Debian 13 host: ${d.missing}.`);
    else {
      out.lifecycleSystemd = { rounds: Math.max(ROUNDS, DEBIAN_ROUNDS), host: d.versions, nodeFloor: figure(d.nodeFloor), snapshotVersion: figure(d.snapshotVersion), scriptVersion: figure(d.scriptVersion), snapshot: d.snapshot, byEngine: {} };
      for (const [engine, rr] of Object.entries(d.byEngine)) out.lifecycleSystemd.byEngine[engine] = { start: { wall: figure(rr.start.wall), process: figure(rr.start.process), steps: perKey(rr.start.steps) }, stop: { wall: figure(rr.stop.wall), process: figure(rr.stop.process), steps: perKey(rr.stop.steps) } };
    }
  } catch (err) {
    out.notMeasured.push(`start/stop on a booted Debian 13 host: ${(err as Error).message.slice(0, 300)}`);
  }
}

endSection();
out.durationS = Math.round((performance.now() - t0) / 1000);
// BENCH_ONLY: the sections not run keep their figures from the last report (bench-merge.ts says which).
const report = process.env.BENCH_ONLY ? mergeSections(out, await readFile(join(REPO, 'docs/bench.json'), 'utf8').then((t) => JSON.parse(t) as BenchResult, () => null), ONLY) : out;
await writeFile(join(REPO, 'docs/bench.json'), `${JSON.stringify(report, null, 2)}\n`);
const md = renderReport(report);
await writeFile(join(REPO, 'docs/bench.md'), md);
process.stdout.write(md);
