/**
 * Diagnostic (not part of `npm run bench`): what one open window makes the backend do, and an
 * interleaved before/after of builds on a loaded machine. For each round and each build
 * (label=path to its bin/k2s-dns.mjs; default this build), starts `k2s-dns ui`, opens one
 * Chromium window and measures PROBE_SECONDS (default 20) stopped and running: CPU of the
 * backend and its reaped children as idle.ts counts it, per thread name, and the API calls the
 * page made (per call: rate, bytes); PROBE_ROWS=N then adds N rows to the exact query log and
 * measures running again. PROBE_PROF=1 runs the backend under `node --cpu-prof`
 * (the profiler thread then costs more than the backend: read only the profile's shares) into
 * PROBE_PROF_DIR; scripts/bench/prof-top.ts reads it.
 * Run: bash e2e/bed/sandbox.sh node --import tsx scripts/bench/idle-probe.ts [label=bin ...]
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { startTestbed, type Testbed } from '../../e2e/bed/testbed';
import { launchBrowser } from './ui-launch';
import { JUDGED } from './idle';
import { timedCli } from './lifecycle';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS = Number(process.env.PROBE_SECONDS ?? 20);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 1);
const builds = (process.argv.length > 2 ? process.argv.slice(2) : [`this=${join(REPO, 'bin/k2s-dns.mjs')}`]).map((a) => a.split('=') as [string, string]);
const profDir = process.env.PROBE_PROF_DIR ?? mkdtempSync(join(tmpdir(), 'k2s-prof-'));
const TICK = 100;

/** CPU seconds per thread name of `pid`, plus "children" (cutime+cstime) and "all". */
function cpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')).replace(/\d+$/, '');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.set(comm, (out.get(comm) ?? 0) + (Number(f[11]) + Number(f[12])) / TICK);
    } catch {
      // the thread ended
    }
  }
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  out.set('children', (Number(f[13]) + Number(f[14])) / TICK);
  out.set('all', (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK);
  return out;
}

const results: { build: string; state: string; pct: number; load: number }[] = [];

/** One build: stopped and running with one window. */
async function session(label: string, bin: string, tb: Testbed, browser: Browser): Promise<void> {
  const child = spawn(process.execPath, [...(process.env.PROBE_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), bin, 'ui', '--kubeconfig', tb.kubeconfigPath, '--verify-name', 'www.example.test'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const calls = new Map<string, { n: number; bytes: number }>();
    let counting = false;
    page.on('response', (r) => {
      if (!counting) return;
      const key = new URL(r.url()).pathname;
      void r.body().then((b) => {
        const c = calls.get(key) ?? { n: 0, bytes: 0 };
        c.n++;
        c.bytes += b.length;
        calls.set(key, c);
      }).catch(() => undefined);
    });
    await page.goto(url);
    await page.locator(JUDGED).waitFor({ timeout: 60_000 });
    const measure = async (state: string) => {
      await new Promise((r) => setTimeout(r, 4000));
      calls.clear();
      counting = true;
      const c0 = cpu(child.pid!);
      const a = performance.now();
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      counting = false;
      const s = (performance.now() - a) / 1000;
      const c1 = cpu(child.pid!);
      const pct = (k: string) => (((c1.get(k) ?? 0) - (c0.get(k) ?? 0)) / s) * 100;
      results.push({ build: label, state, pct: pct('all'), load: loadavg()[0]! });
      console.log(`${label} ${state}: ${pct('all').toFixed(2)} % of a core over ${s.toFixed(0)} s (load ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
      console.log(`  threads: ${[...c1.keys()].filter((k) => k !== 'all').map((k) => `${k} ${pct(k).toFixed(2)} %`).join(', ')}`);
      for (const [k, v] of [...calls].sort((x, y) => y[1].n - x[1].n)) console.log(`  ${k}: ${(v.n / s).toFixed(2)}/s, ${Math.round(v.bytes / Math.max(1, v.n))} B each`);
    };
    await measure('stopped');
    const r = await timedCli(['start', '--kubeconfig', tb.kubeconfigPath, '--verify-name', 'www.example.test', '--json', '--engine', 'adguard', '--dnsproxy', join(REPO, '.tools/bin/dnsproxy')]);
    if (r.code !== 0) throw new Error(`start failed: ${r.stderr.slice(0, 300)}`);
    await measure('running');
    const extra = Number(process.env.PROBE_ROWS ?? 0);
    if (extra > 0) {
      // A rows file as a busy host (or the bench's dnsperf sections) leaves it: `extra` more rows.
      const rows = readFileSync(K2S_PATHS.queryRows, 'utf8').split('\n').filter((l) => l.includes('"queryUs"'));
      if (rows.length === 0) throw new Error(`no row in ${K2S_PATHS.queryRows} to copy`);
      appendFileSync(K2S_PATHS.queryRows, `${Array.from({ length: extra }, (_, i) => rows[i % rows.length]).join('\n')}\n`);
      await measure(`running, ${extra} more rows`);
    }
    await page.close();
  } finally {
    await timedCli(['stop', '--on-drift', 'restore']);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const tb = await startTestbed();
const { browser } = await launchBrowser(1);
try {
  for (let i = 0; i < ROUNDS; i++) for (const [label, bin] of i % 2 === 0 ? builds : [...builds].reverse()) await session(label, bin, tb, browser);
} finally {
  await browser.close();
  await tb.stop();
}
console.log('--- summary (% of one core, with the 1-min load at the end of each state)');
for (const state of [...new Set(results.map((r) => r.state))]) {
  for (const [label] of builds) {
    const rows = results.filter((r) => r.build === label && r.state === state);
    console.log(`${state} ${label}: ${rows.map((r) => `${r.pct.toFixed(2)} (load ${r.load.toFixed(1)})`).join(', ')}`);
  }
}
if (process.env.PROBE_PROF === '1') console.log(`profiles in ${profDir}`);
