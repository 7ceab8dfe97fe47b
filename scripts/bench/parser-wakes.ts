/**
 * Ad-hoc probe (not part of the report; `node --import tsx scripts/bench/parser-wakes.ts`, no
 * root, no sandbox): the parser process's CPU per packet when its pipe is written as tcpdump
 * writes it with `-U` (one write(2) per packet, a ring block's packets in a burst), at a fixed
 * rate. A writer process writes RATE queries/s (4 SLL2 frames each: client query, upstream
 * query and answer, client answer) for SECONDS, in BURSTS bursts a second, one write per frame;
 * the built parser (dist/k2s-dns-capture-rows.cjs, or PARSER; no CPU budget) reads them. Per
 * round: the parser's CPU ms (/proc/PID/stat) and µs per packet, its voluntary context switches
 * (wake-ups), its main thread's and V8 worker threads' ms on a CPU and µs per time slice
 * (/proc/PID/task/TID/schedstat), its rows; PROF=DIR writes a --cpu-prof there. Prints JSON lines.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pcapOf } from '../../e2e/support/pcap-frames';
import { clusterQueryFrames } from './capture-frames';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const RATE = Number(process.env.RATE ?? 2000);
const SECONDS = Number(process.env.SECONDS ?? 4);
const BURSTS = Number(process.env.BURSTS ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const frames = clusterQueryFrames(RATE * SECONDS);
const dir = mkdtempSync(join(tmpdir(), 'parser-wakes-'));
const pcap = join(dir, 'in.pcap');
writeFileSync(pcap, pcapOf(frames));
// The writer: the file header, then each record with its own write(2), BURSTS bursts a second.
const writer = `
const fs = require('fs');
const d = fs.readFileSync(${JSON.stringify(pcap)});
fs.writeSync(1, d.subarray(0, 24));
const recs = [];
for (let at = 24; at < d.length; ) { const len = d.readUInt32LE(at + 8); recs.push(d.subarray(at, at + 16 + len)); at += 16 + len; }
const per = Math.ceil(recs.length / (${SECONDS} * ${BURSTS}));
let i = 0;
// A second first: the parser's start-up is not counted (its CPU and wake-ups are sampled then).
const t0 = Date.now() + 1000;
setTimeout(() => (function burst(k) {
  for (const end = Math.min(recs.length, i + per); i < end; i++) fs.writeSync(1, recs[i]);
  if (i < recs.length) setTimeout(() => burst(k + 1), Math.max(0, t0 + ((k + 1) * 1000) / ${BURSTS} - Date.now()));
})(0), 1000);
`;
/** The parser's CPU ms and wake-ups so far, and per thread the ns on a CPU and the time slices it ran in (/proc/PID/task/TID/schedstat). */
const stat = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const wakes = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  const threads = Object.fromEntries(readdirSync(`/proc/${pid}/task`).map((tid) => {
    const [run, , slices] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return [tid === String(pid) ? 'main' : tid, { run: run!, slices: slices! }];
  }));
  return { cpuMs: (Number(f[11]) + Number(f[12])) * 10, wakes, threads };
};
for (let round = 0; round < ROUNDS; round++) {
  {
    const w = spawn(process.execPath, ['-e', writer], { stdio: ['ignore', 'pipe', 'inherit'] });
    const p = spawn(process.execPath, [...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROF] : []), process.env.PARSER ?? join(REPO, 'dist/k2s-dns-capture-rows.cjs')], { stdio: [w.stdout!, 'pipe', 'inherit'], env: { K2S_CAPTURE_ALLOW_ROOT: '1', K2S_CAPTURE_CPU_SHARE: '0',  K2S_CAPTURE_LISTENERS: '127.0.0.1:53' } });
    w.stdout!.destroy();
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4096)));
    // Sampled just before the end of input (the exit's figures are gone with the process).
    let last: ReturnType<typeof stat> = { cpuMs: 0, wakes: 0, threads: {} };
    let first: typeof last | null = null;
    setTimeout(() => (first = stat(p.pid!)), 800);
    const timer = setInterval(() => {
      try {
        last = stat(p.pid!);
      } catch {
        /* ended */
      }
    }, 50);
    await new Promise((r) => p.once('exit', r));
    clearInterval(timer);
    const d = (k: string) => ({ run: last.threads[k]!.run - (first!.threads[k]?.run ?? 0), slices: last.threads[k]!.slices - (first!.threads[k]?.slices ?? 0) });
    const main = d('main');
    const workers = Object.keys(last.threads).filter((k) => k !== 'main').map(d).reduce((a, b) => ({ run: a.run + b.run, slices: a.slices + b.slices }), { run: 0, slices: 0 });
    const sched = { mainMs: Math.round(main.run / 1e6), mainSlices: main.slices, mainUsPerSlice: Math.round(main.run / 1e3 / Math.max(1, main.slices)), workersMs: Math.round(workers.run / 1e6), workerSlices: workers.slices, workerUsPerSlice: Math.round(workers.run / 1e3 / Math.max(1, workers.slices)) };
    last = { cpuMs: last.cpuMs - first!.cpuMs, wakes: last.wakes - first!.wakes, threads: {} };
    const rows = (JSON.parse(/\{"counts":\{[^}]*\}\}/.exec(out)?.[0] ?? '{"counts":{}}') as { counts: { rows?: number } }).counts.rows;
    console.log(JSON.stringify({ round, rate: RATE, packets: frames.length, parserCpuMs: last.cpuMs, usPerPacket: Number(((last.cpuMs * 1000) / frames.length).toFixed(2)), wakes: last.wakes, ...sched, rows }));
  }
}
