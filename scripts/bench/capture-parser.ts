/**
 * The capture parser alone (`node --import tsx scripts/bench/capture-parser.ts`, no root): how
 * many packets per second one process frames, decodes and pairs — 100,000 queries (400,000
 * SLL2 frames: client query, upstream query, upstream answer, client answer) fed as 64 KiB
 * chunks, as the pipe from tcpdump delivers them. Prints packets/s and queries/s, best of 5:
 * pairing only, and with each row made into its line as the parser process writes it
 * (rows-main.ts: row-line.ts, a search list, the lines of a chunk joined).
 */
import { PcapRows } from '../../electron/core/capture/pcap-rows';
import { pcapOf } from '../../e2e/support/pcap-frames';
import { clusterQueryFrames } from './capture-frames';
import { rowLine } from '../../electron/core/capture/row-line';

const QUERIES = 100_000;
const frames = clusterQueryFrames(QUERIES);
const bytes = pcapOf(frames);
const search = ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'];
for (const lines of [false, true]) {
  let best = Infinity;
  let rows = 0;
  let written = 0;
  for (let round = 0; round < 5; round++) {
    rows = 0;
    let out = '';
    const p = new PcapRows({ listeners: ['127.0.0.1:53'], onRow: (r) => {
      rows += r.rcode ? 1 : 0;
      if (lines) out += rowLine(r, search);
    } });
    const t0 = performance.now();
    for (let i = 0; i < bytes.length; i += 65536) {
      p.push(bytes.subarray(i, i + 65536));
      // As rows-main.ts hands a chunk's lines to stdout: one string, flattened when written.
      if (out !== '') written += Buffer.byteLength(out);
      out = '';
    }
    p.end();
    best = Math.min(best, performance.now() - t0);
  }
  const s = best / 1000;
  process.stdout.write(`capture parser${lines ? ' + row lines' : ''}: ${frames.length} frames (${(bytes.length / 2 ** 20).toFixed(1)} MiB) in ${best.toFixed(0)} ms: ${Math.round(frames.length / s)} packets/s, ${Math.round(QUERIES / s)} queries/s; ${rows} rows answered${lines ? `, ${(written / 5 / 2 ** 20).toFixed(1)} MiB of lines` : ''}\n`);
}
