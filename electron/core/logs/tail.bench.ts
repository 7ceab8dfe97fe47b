/**
 * Benchmark of readTail (not part of the test run): `npx tsx electron/core/logs/tail.bench.ts`.
 * Prints wall time in ms and bytes read for a 50 MB log and a 500 MB sparse log whose only
 * lines (1000) are in its last ~130 KB (the rest is a hole of NUL bytes with no LF, so asking for more
 * lines than exist runs into the 8 MiB maxBytes cap).
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readTail } from './tail';

const MB = 1_000_000;

/** One dnsproxy-style line of about 130 bytes. */
function line(i: number): string {
  return `2026/11/29 15:04:05.${String(i % 1_000_000).padStart(6, '0')} DEBUG handling query id=${i} question="web.demo.svc.cluster.local. IN A" upstream=172.21.0.10:53\n`;
}

/** Writes lines to `fd` at `pos` in blocks of `perBlock` until `bytes` were written; returns the line count. */
function fill(fd: number, pos: number, bytes: number, perBlock = 8000): number {
  let written = 0;
  let i = 0;
  while (written < bytes) {
    const block: string[] = [];
    for (let k = 0; k < perBlock; k++) block.push(line(++i));
    const buf = Buffer.from(block.join(''));
    writeSync(fd, buf, 0, buf.length, pos + written);
    written += buf.length;
  }
  return i;
}

async function measure(label: string, file: string, maxLines: number): Promise<void> {
  // Best of 5, so the first run's page-cache misses don't dominate.
  let best = Infinity;
  let res = await readTail(file, maxLines);
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    res = await readTail(file, maxLines);
    best = Math.min(best, performance.now() - t0);
  }
  const size = statSync(file).size;
  console.log(
    `${label.padEnd(40)} file ${(size / MB).toFixed(0).padStart(4)} MB  lines ${String(res.lines.length).padStart(5)}/${String(maxLines).padEnd(5)}  ` +
      `read ${String(res.bytesRead).padStart(8)} bytes  ${best.toFixed(2).padStart(7)} ms`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-dns-tail-bench-'));
  try {
    const big = path.join(dir, 'dense-50mb.log');
    let fd = openSync(big, 'w');
    fill(fd, 0, 50 * MB);
    closeSync(fd);

    const sparse = path.join(dir, 'sparse-500mb.log');
    fd = openSync(sparse, 'w');
    ftruncateSync(fd, 500 * MB);
    const sparseLines = fill(fd, 500 * MB, 100_000, 1000);
    closeSync(fd);

    await measure('dense 50 MB, last 100', big, 100);
    await measure('dense 50 MB, last 5000', big, 5000);
    await measure('sparse 500 MB, last 100', sparse, 100);
    await measure(`sparse 500 MB, last 5000 (${sparseLines} exist)`, sparse, 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
