/**
 * "Load older rows" figures (issue 20: ~2.5 s a page, 9 pages for 19,000 rows): an exact query
 * log at the rotation cap (queries.jsonl.1 and queries.jsonl of LOG_CAP_BYTES each, rows shaped as
 * the companion writes them, with their search list) paged back from the newest 2,000 rows to its
 * first row the way the Queries view asks (logs:exact before, EXACT_OLDER_ROWS a page) through one
 * kept rows index (rows-index.ts, as backend-real.ts keeps it), two rows appended before each page
 * (traffic meanwhile). Also the renderer's work per page that grows with the rows held: the
 * search-list marks over every row (renderer/src/lib/search-expansion.ts).
 * Standalone: `npx tsx scripts/bench/exact-pages.ts` (no root); `npm run bench` runs it in its logs section.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOG_CAP_BYTES } from '../../electron/core/host/query-log';
import { createRowsIndex } from '../../electron/core/capture/rows-index';
import { OLDER_READ_BYTES, readCapturedRows } from '../../electron/core/capture/rows-reader';
import { searchExpansions } from '../../renderer/src/lib/search-expansion';
import { EXACT_OLDER_ROWS, EXACT_ROWS } from '../../renderer/src/stores/logs';
import type { QueryRow } from '../../shared/query-log/row';
import { figure, type Figure } from './stats';

const T0 = 1_764_000_000_000_000;

/** The companion's row n (rows-file.ts): one client address, a probe every fourth row, the host's search list. */
function row(n: number): string {
  const name = n % 4 === 0 ? 'KUBERNETES.DEFAULT.svc.cluster.local' : `web${n % 50}.demo.svc.cluster.local`;
  return `${JSON.stringify({ proto: 'udp', client: `127.0.0.1:${40000 + (n % 20000)}`, listener: '127.0.0.1:53', id: n % 65536, name, type: 'A', queryUs: T0 + n * 30_000, rcode: 'NOERROR', answers: ['10.96.0.1'], latencyMs: 0.4, upstream: '172.21.0.10:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0, search: ['cluster.local', 'example.test'] })}\n`;
}

/** What paging back through a full exact log measured. */
export interface ExactPageFigures {
  /** Rows in the two files, and their bytes. */
  rows: number;
  bytes: number;
  /** Pages from the newest EXACT_ROWS to the first row (the last says `complete`). */
  pagesToStart: number;
  /** The first older page (the index parses both files), ms. */
  firstPage: Figure;
  /** Every later page (only appended bytes parsed), ms. */
  laterPages: Figure;
  /** searchExpansions over the rows held after each page, ms (the renderer's part that grows with them). */
  marks: Figure;
}

/** Writes both files at `dir`, then pages back to the start `rounds` times (a new index each round). */
export async function exactPageFigures(dir: string, rounds: number): Promise<ExactPageFigures> {
  const file = join(dir, 'queries.jsonl');
  let n = 0;
  for (const f of [`${file}.1`, file]) {
    const parts: string[] = [];
    let bytes = 0;
    while (bytes < LOG_CAP_BYTES) {
      const l = row(++n);
      parts.push(l);
      bytes += l.length;
    }
    await writeFile(f, parts.join(''));
  }
  const rows = n;
  const first: number[] = [];
  const later: number[] = [];
  const marks: number[] = [];
  let pagesToStart = 0;
  for (let r = 0; r < rounds; r++) {
    const index = createRowsIndex(OLDER_READ_BYTES);
    const live = await readCapturedRows(file, EXACT_ROWS, 'adguard', []);
    let held: QueryRow[] = live.rows;
    let before = live.oldestUs!;
    let pages = 0;
    for (;;) {
      await appendFile(file, row(++n) + row(++n));
      const t0 = performance.now();
      const page = await readCapturedRows(file, EXACT_OLDER_ROWS, 'adguard', [], before, index);
      (pages === 0 ? first : later).push(performance.now() - t0);
      pages++;
      const keys = new Set(held.map((h) => h.key));
      held = [...page.rows.filter((p) => !keys.has(p.key)), ...held];
      const t1 = performance.now();
      searchExpansions(held);
      marks.push(performance.now() - t1);
      if (page.complete || page.oldestUs === undefined) break;
      before = page.oldestUs;
    }
    pagesToStart = pages;
  }
  return { rows, bytes: 2 * LOG_CAP_BYTES, pagesToStart, firstPage: figure(first), laterPages: figure(later), marks: figure(marks) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = await mkdtemp(join(tmpdir(), 'exact-pages-'));
  try {
    const f = await exactPageFigures(dir, Number(process.env.BENCH_ROUNDS ?? 5));
    process.stdout.write(`${JSON.stringify(f, null, 2)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
