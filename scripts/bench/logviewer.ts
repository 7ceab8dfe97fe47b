/**
 * Log viewer figures for `npm run bench`:
 *  - the last 1,000 lines of a generated 1 GiB log through readTail (what the Logs panel asks
 *    for when it opens) vs `tail -n 1000` on the same file;
 *  - following a log that grows at a fixed rate (default 20,000 lines/s for 30 s) through the
 *    real backend's followLogs (what the web bridge pushes to the window): lines lost (gaps in
 *    the writer's sequence numbers; must be 0) and, with a Chromium page on the Logs tab,
 *    the renderer's JS heap growth (CDP Performance.getMetrics after a forced GC).
 */
import { execFile, spawn } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { AppBackend } from '../../electron/core/backend';
import { readTail } from '../../electron/core/logs/tail';
import { figure, type Figure } from './stats';

/** Bytes in the generated log: 1 GiB. */
export const BIG_LOG_BYTES = 2 ** 30;

/** One dnsmasq `log-queries=extra` line (the real format of fixtures/logs), numbered. */
export function logLine(seq: number): string {
  return `Dec  1 03:00:00 dnsmasq[4242]: ${seq} 127.0.0.1/40000 query[A] n${seq}.web.demo.svc.cluster.local from 127.0.0.1\n`;
}

/** Writes a BIG_LOG_BYTES file of numbered lines at `path` (in 8 MiB blocks). Returns its line count. */
export async function writeBigLog(path: string): Promise<number> {
  const fh = await open(path, 'w');
  let seq = 0;
  let bytes = 0;
  try {
    while (bytes < BIG_LOG_BYTES) {
      const parts: string[] = [];
      let n = 0;
      while (n < 8 * 2 ** 20) {
        const l = logLine(++seq);
        parts.push(l);
        n += l.length;
      }
      const buf = Buffer.from(parts.join(''));
      await fh.write(buf);
      bytes += buf.length;
    }
  } finally {
    await fh.close();
  }
  return seq;
}

const programMs = (file: string, args: string[]) =>
  new Promise<number>((resolve) => {
    const t0 = performance.now();
    execFile(file, args, { maxBuffer: 16 * 2 ** 20 }, () => resolve(performance.now() - t0));
  });

/**
 * readTail(path, 1000) vs `tail -n 1000 path`, interleaved, `rounds` times each (ms). Also
 * checks readTail's last line is the file's last line (a wrong fast answer is no answer).
 */
export async function tailFigures(path: string, lastSeq: number, rounds: number): Promise<{ readTail: Figure; tail: Figure; fileBytes: number }> {
  const ours: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const r = await readTail(path, 1000);
    ours.push(performance.now() - t0);
    const last = r.lines.at(-1) ?? '';
    if (r.lines.length !== 1000 || !last.includes(` ${lastSeq} `)) throw new Error(`readTail returned ${r.lines.length} lines ending "${last.slice(0, 80)}", not the last 1,000`);
    peer.push(await programMs('tail', ['-n', '1000', path]));
  }
  return { readTail: figure(ours), tail: figure(peer), fileBytes: (await stat(path)).size };
}

/** What following a fast-growing log measured. */
export interface FollowFigures {
  seconds: number;
  linesPerSecond: number;
  written: number;
  received: number;
  lost: number;
  /** Renderer JS heap after − before (bytes), after a forced GC each time; null without a page. */
  rendererHeapGrowthBytes: number | null;
}

/** JSHeapUsedSize of the page after a forced GC (bytes), through the Chrome DevTools Protocol. */
async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
}

/**
 * Appends numbered lines to `logPath` at `rate` lines/s for `seconds` s from a child process
 * (so the writer does not share this event loop) while `backend.followLogs` delivers them;
 * `page` (optional) shows the Logs tab meanwhile. Lost = sequence numbers written, never
 * delivered. Throws when the writer fails.
 */
export async function followFigures(backend: AppBackend, logPath: string, seconds: number, rate: number, page?: Page): Promise<FollowFigures> {
  const seen = new Set<number>();
  const stop = backend.followLogs((lines) => {
    for (const l of lines) {
      const m = / (\d+) 127\.0\.0\.1\/40000 /.exec(l.raw);
      if (m) seen.add(Number(m[1]));
    }
  });
  const before = page ? await heapUsed(page) : Number.NaN;
  // The writer: catches up to rate × elapsed every 5 ms, appending with O_APPEND like the proxy.
  const script = `
    const fs = require('node:fs'); const fd = fs.openSync(${JSON.stringify(logPath)}, 'a');
    const line = ${logLine.toString()};
    const t0 = Date.now(); let seq = 0; const total = ${rate * seconds};
    const tick = () => {
      const due = Math.min(total, Math.floor((Date.now() - t0) / 1000 * ${rate}));
      const parts = []; while (seq < due) parts.push(line(++seq));
      if (parts.length) fs.writeSync(fd, parts.join(''));
      if (seq < total) setTimeout(tick, 5); else { fs.closeSync(fd); process.stdout.write(String(seq)); }
    };
    tick();`;
  const written = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`log writer exited with ${code}`))));
  });
  // Wait until delivery stops growing (bounded): the follower polls every 250 ms.
  const deadline = Date.now() + 30_000;
  let last = -1;
  while (seen.size !== last && Date.now() < deadline) {
    last = seen.size;
    await new Promise((r) => setTimeout(r, 1000)); // a poll interval passes; sizes compared, not timed
  }
  stop();
  const after = page ? await heapUsed(page) : Number.NaN;
  let received = 0;
  for (let s = 1; s <= written; s++) if (seen.has(s)) received++;
  return { seconds, linesPerSecond: rate, written, received, lost: written - received, rendererHeapGrowthBytes: page ? after - before : null };
}
