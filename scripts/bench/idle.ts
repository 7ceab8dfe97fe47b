/**
 * Idle cost: CPU of the backend process (`k2s-dns ui`, web mode, the same
 * backend the Electron main process runs) and of every child it spawned and reaped, over
 * BENCH_IDLE_SECONDS (default 45) in each host state, with one Chromium window open and with none.
 * CPU = Δ(utime + stime + cutime + cstime) of /proc/PID/stat (proc(5); clock ticks, `getconf
 * CLK_TCK`) / wall seconds, in % of one core. The window's own (Chromium) CPU is not counted.
 * States: stopped, running, degraded (kube-dns stops answering), drift (resolv.conf rewritten
 * by someone else while running) — each made through the CLI or the test bed, never the window.
 * Also: ms from kube-dns going down until the open window's verdict changes (detection time).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { Browser, Page } from '@playwright/test';
import type { Testbed } from '../../e2e/bed/testbed';
import { timedCli } from './lifecycle';

/** One measured state. */
export interface IdleFigure {
  state: string;
  window: boolean;
  /** % of one core over the run. */
  cpuPercent: number;
  seconds: number;
  /** 1-minute load average when the run ended. */
  load1: number;
  /** The start-up tail (STARTUP_TAIL_S after the backend serves): a one-off, shown apart from the idle states. */
  startUp?: true;
}

/**
 * Seconds after `k2s-dns ui` serves that belong to its start-up, not to idling: V8's memory
 * reducer runs two full (mark-compact) GCs once, ~25 s after the allocations of start-up stop
 * (measured with node --trace-gc: ~60–70 ms of CPU, once). Measured apart and shown as its own
 * row; the idle states are measured after it.
 */
export const STARTUP_TAIL_S = 35;

/** The verdict has judged the host (not "checking", not an operation running). */
export const JUDGED = '[data-testid=verdict][data-cause]:not([data-cause=""]):not([data-cause=checking]):not([data-cause=operation])';

const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime+stime+cutime+cstime of `pid` in seconds (fields 14–17 of /proc/PID/stat, after the comm). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK;
}

/** Starts `node BIN ui` and resolves its PID and URL (with the token) once it serves. */
async function startUi(bin: string, tb: Testbed): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'ui', '--kubeconfig', tb.kubeconfigPath, '--verify-name', 'www.example.test'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`k2s-dns ui exited (${code}) before serving: ${out.slice(0, 300)}`)));
  });
  return { child, url };
}

/**
 * Measures every state with `bin` (bin/k2s-dns.mjs of the build under test; another build's
 * bin for a before/after pair). `engineArgs`: the start flags of the engine to run.
 */
export async function idleFigures(bin: string, tb: Testbed, browser: Browser, seconds: number, engineArgs: string[], log: (s: string) => void): Promise<{ figures: IdleFigure[]; kubeDnsDownShownMs: number | null }> {
  const out: IdleFigure[] = [];
  let detectMs: number | null = null;
  const { child, url } = await startUi(bin, tb);
  const pid = child.pid!;
  let page: Page | null = null;
  const measure = async (state: string, length = seconds, startUp = false) => {
    // Settle first: the change that made this state is not the idle cost of being in it.
    if (!startUp) await new Promise((r) => setTimeout(r, 3000));
    const c0 = cpuSeconds(pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, length * 1000));
    const s = (performance.now() - t0) / 1000;
    const pct = ((cpuSeconds(pid) - c0) / s) * 100;
    out.push({ state, window: page !== null, cpuPercent: pct, seconds: s, load1: loadavg()[0]!, ...(startUp ? { startUp: true as const } : {}) });
    log(`idle ${state}${page ? ', one window' : ', no window'}: ${pct.toFixed(2)} % of a core (load ${loadavg()[0]!.toFixed(1)})`);
  };
  const open = async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(url);
    await page.locator(JUDGED).waitFor({ timeout: 60_000 });
  };
  const cli = async (args: string[]) => {
    const r = await timedCli(args);
    if (r.code !== 0) throw new Error(`k2s-dns ${args[0]} failed (exit ${r.code}): ${JSON.stringify(r.events.at(-1)).slice(0, 200)} ${r.stderr.slice(0, 200)}`);
  };
  try {
    await measure(`start-up tail (first ${STARTUP_TAIL_S} s after serving, once)`, STARTUP_TAIL_S, true);
    await measure('stopped');
    await open();
    await measure('stopped');
    await cli(['start', '--kubeconfig', tb.kubeconfigPath, '--verify-name', 'www.example.test', '--json', ...engineArgs]);
    await measure('running');
    await page!.close();
    page = null;
    await measure('running');
    await open();
    // Detection time: kube-dns stops answering → the open window's verdict changes.
    const verdict = page!.locator('[data-testid=verdict]');
    await page!.locator(JUDGED).waitFor({ timeout: 60_000 });
    const before = await verdict.getAttribute('data-cause');
    const d0 = performance.now();
    await tb.stopCoreDns();
    try {
      await page!.waitForFunction((b) => !['', 'checking', 'operation', b].includes(document.querySelector('[data-testid=verdict]')?.getAttribute('data-cause') ?? ''), before, { timeout: 60_000, polling: 100 });
      detectMs = performance.now() - d0;
      log(`idle: kube-dns down shown after ${Math.round(detectMs)} ms (verdict ${before} → ${await verdict.getAttribute('data-cause')})`);
      await measure('degraded (kube-dns down)');
    } finally {
      await tb.startCoreDns();
    }
    // Someone else (NetworkManager, a DHCP client) rewrites the resolver while K2s runs.
    await writeFile('/etc/resolv.conf', 'nameserver 10.0.0.53\n');
    await measure('drift (resolv.conf rewritten)');
  } finally {
    await (page as Page | null)?.close();
    await timedCli(['stop', '--on-drift', 'restore']);
    child.kill('SIGTERM');
  }
  return { figures: out, kubeDnsDownShownMs: detectMs };
}
