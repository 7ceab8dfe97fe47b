/**
 * The capture companion's side of the exact query log (`node --import tsx
 * scripts/bench/capture-companion.ts`, no root): how many parser lines per second it takes from
 * the parser's stdout and appends to the rows file — pipeline.ts (line framing, counts, bad
 * lines) with its children faked, rows-file.ts writing to a file in a temporary directory.
 * 200,000 rows as the parser writes them (row-line.ts, with a search list), fed as 64 KiB
 * chunks. Prints rows/s and MiB/s, best of 5.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { startCapturePipeline } from '../../electron/core/capture/pipeline';
import { openRowsFile } from '../../electron/core/capture/rows-file';
import { rowLine } from '../../electron/core/capture/row-line';
import type { CapturedQuery } from '../../electron/core/capture/pairing';

const ROWS = 200_000;
const search = ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'];
let text = '';
for (let i = 0; i < ROWS; i++) {
  const r: CapturedQuery = { proto: 'udp', client: `127.0.0.1:${40000 + (i % 20000)}`, listener: '127.0.0.1:53', id: i % 65536, name: ['kubernetes.default.svc.cluster.local', 'web.demo.svc.cluster.local'][i % 2]!, type: 'A', queryUs: 1_764_600_000_000_000 + i * 40, rcode: 'NOERROR', answers: ['172.21.0.1'], latencyMs: 0.412, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.2, retries: 0 };
  text += rowLine(r, search);
}
const bytes = Buffer.from(text);

/** A child process double: stdio streams; kill() ends it. */
function fakeChild(): ChildProcess & { stdout: PassThrough; stderr: PassThrough; stdin: PassThrough } {
  const c = new EventEmitter() as ChildProcess & { stdout: PassThrough; stderr: PassThrough; stdin: PassThrough };
  Object.assign(c, { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), exitCode: null, signalCode: null });
  c.kill = (() => true) as ChildProcess['kill'];
  return c;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-companion-bench-'));
let best = Infinity;
for (let round = 0; round < 5; round++) {
  const file = path.join(dir, `queries-${round}.jsonl`);
  const rows = await openRowsFile(file, null);
  const td = fakeChild();
  const parser = fakeChild();
  let n = 0;
  let got = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((r) => (done = r));
  const opening = startCapturePipeline({ spawn: () => (n++ === 0 ? td : parser) }, { iface: 'any', ports: [53], user: 'nobody', uid: 65534, gid: 65534, parser: { file: 'node', args: [] }, listeners: ['127.0.0.1:53'], tcpdump: 'tcpdump', onRows: (lines, k) => {
    rows.writeLines(lines, k);
    if ((got += k) === ROWS) done();
  } });
  td.stderr.write('tcpdump: listening on any\n');
  await opening;
  const t0 = performance.now();
  for (let i = 0; i < bytes.length; i += 65536) parser.stdout.write(bytes.subarray(i, i + 65536));
  await all;
  await rows.close();
  best = Math.min(best, performance.now() - t0);
  if (statSync(file).size !== bytes.length) throw new Error(`wrote ${statSync(file).size} bytes, not ${bytes.length}`);
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`capture companion: ${ROWS} rows (${(bytes.length / 2 ** 20).toFixed(1)} MiB) in ${best.toFixed(0)} ms: ${Math.round(ROWS / (best / 1000))} rows/s, ${(bytes.length / 2 ** 20 / (best / 1000)).toFixed(0)} MiB/s\n`);
process.exit(0);
