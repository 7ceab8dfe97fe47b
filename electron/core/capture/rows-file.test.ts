import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CapturedQuery } from './pairing';
import { openRowsFile, QUEUE_CAP_BYTES, unwrittenLine } from './rows-file';
import { rowLine } from './row-line';
import { readCapturedRows } from './rows-reader';

const row = (id: number, over: Partial<CapturedQuery> = {}): CapturedQuery => ({ proto: 'udp', client: `127.0.0.1:${40000 + id}`, listener: '127.0.0.1:53', id, name: `n${id}.example.test`, type: 'A', queryUs: 1_764_615_600_000_000 + id, rcode: 'NOERROR', answers: ['198.51.100.8'], latencyMs: 0.5, upstream: '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0, ...over });
const lineBytes = Buffer.byteLength(`${JSON.stringify(row(1))}\n`);

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-rows-'));
  file = path.join(dir, 'queries.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('exact query log file', () => {
  it('is private (0640 with adm, 0600 without) and holds one JSON row per line', async () => {
    const w = await openRowsFile(file, 4);
    w.write(row(1));
    w.write(row(2));
    await w.close();
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id)).toEqual([1, 2]);
    const other = path.join(dir, 'b.jsonl');
    await (await openRowsFile(other, null)).close();
    expect(statSync(other).mode & 0o777).toBe(0o600);
  });

  it('rotates to .1 at the cap (the older copy replaced), so at most two caps are kept, and the reader reads across both', async () => {
    // A cap of 3 rows: rows 1–3 fill the file, row 4 rotates, rows 4–6, row 7 rotates again.
    const w = await openRowsFile(file, 4, 3 * lineBytes);
    for (let i = 1; i <= 7; i++) {
      w.write(row(i));
      await w.flush();
    }
    await w.close();
    const ids = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id);
    expect([ids(`${file}.1`), ids(file), w.rotations]).toEqual([[4, 5, 6], [7], 2]);
    expect(statSync(`${file}.1`).mode & 0o777).toBe(0o640);
    const got = await readCapturedRows(file, 3, 'adguard', ['cluster.local']);
    expect(got.present).toBe(true);
    expect(got.files).toEqual([`${file}.1`, file]);
    expect(got.rows.map((r) => [r.client, r.name, r.upstream, r.rcode, r.mixed])).toEqual([
      ['127.0.0.1:40005', 'n5.example.test', '192.0.2.53:53', 'NOERROR', false],
      ['127.0.0.1:40006', 'n6.example.test', '192.0.2.53:53', 'NOERROR', false],
      ['127.0.0.1:40007', 'n7.example.test', '192.0.2.53:53', 'NOERROR', false],
    ]);
  });

  it('a rotation that fails (the .1 name is a directory) never throws: rows go on into the file, the error said once', async () => {
    mkdirSync(`${file}.1`);
    writeFileSync(`${file}.1/keep`, 'x');
    const errors: string[] = [];
    const w = await openRowsFile(file, 4, 3 * lineBytes, (m) => errors.push(m));
    for (let i = 1; i <= 7; i++) {
      w.write(row(i));
      await w.flush();
    }
    await w.close();
    const ids = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id);
    expect([ids, w.rotations, w.unwritten]).toEqual([[1, 2, 3, 4, 5, 6, 7], 0, 0]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^cannot rotate .*queries\.jsonl to .*queries\.jsonl\.1 \(\w+\): writing on past the cap\.$/);
  });

  it("writeLines appends the parser's lines as they are, counts their rows when lost, and rotates before a batch, never inside it", async () => {
    const losses: string[] = [];
    const w = await openRowsFile(file, 4, 3 * lineBytes, () => undefined, (l) => losses.push(l));
    const lines = (ids: number[]) => Buffer.from(ids.map((i) => rowLine(row(i), ['svc.cluster.local'])).join(''));
    w.writeLines(lines([1, 2]), 2);
    await w.flush();
    expect(readFileSync(file, 'utf8')).toBe(lines([1, 2]).toString());
    // 2 rows + 2 more pass the cap: the file rotates first, the batch stays whole in the new file.
    w.writeLines(lines([3, 4]), 2);
    await w.flush();
    expect([readFileSync(`${file}.1`, 'utf8'), readFileSync(file, 'utf8'), w.rotations]).toEqual([lines([1, 2]).toString(), lines([3, 4]).toString(), 1]);
    const probe = await fsp.open(file, 'r');
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const full = vi.spyOn(proto, 'write').mockRejectedValue(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    try {
      w.writeLines(lines([5, 6, 7]), 3);
      await w.flush();
    } finally {
      full.mockRestore();
    }
    await w.close();
    expect([w.unwritten, losses]).toEqual([3, [`3 rows not written (no space left on ${dir})`]]);
  });

  it('a slow disk: rows past the queue cap are counted unwritten with why, said once, and later rows are written once it drains', async () => {
    const errors: string[] = [];
    const losses: string[] = [];
    const lines = (ids: number[]) => Buffer.from(ids.map((i) => rowLine(row(i), ['svc.cluster.local'])).join(''));
    const one = lines([1]).length;
    // A queue of 3 rows' bytes, held while a write is on the disk.
    const w = await openRowsFile(file, 4, undefined, (m) => errors.push(m), (l) => losses.push(l), 3 * one);
    w.writeLines(lines([1]), 1);
    await w.flush();
    const probe = await fsp.open(file, 'r');
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const real = proto.write;
    // The next write hangs (a slow disk) until `release`.
    let release = () => undefined as void;
    let writing = () => undefined as void;
    const started = new Promise<void>((r) => (writing = r));
    const gate = new Promise<void>((r) => (release = r));
    const slow = vi.spyOn(proto, 'write').mockImplementationOnce(async function (this: unknown, ...a: unknown[]) {
      writing();
      await gate;
      return real.apply(this, a);
    });
    try {
      w.writeLines(lines([2]), 1);
      await started;
      // Row 2 on the disk, rows 3 and 4 queued: 3 rows held, the cap.
      w.writeLines(lines([3, 4]), 2);
      expect([w.unwritten, losses]).toEqual([0, []]);
      // Past the cap: dropped whole, counted, said.
      w.writeLines(lines([5]), 1);
      w.writeLines(lines([6, 7]), 2);
      expect(w.unwritten).toBe(3);
      expect(losses).toEqual([`1 row not written (${dir} too slow: ${3 * one} bytes of rows were waiting)`, `3 rows not written (${dir} too slow: ${3 * one} bytes of rows were waiting)`]);
      expect(errors).toEqual([`writes to ${file} too slow: ${3 * one} bytes of rows wait to be written; 1 rows dropped, later rows are tried again (counted in the last line).`]);
      release();
      await w.flush();
    } finally {
      slow.mockRestore();
    }
    // Drained: rows are taken again.
    w.writeLines(lines([8]), 1);
    await w.close();
    expect(readFileSync(file, 'utf8')).toBe(lines([1, 2, 3, 4, 8]).toString());
    expect(w.unwritten).toBe(3);
    expect(QUEUE_CAP_BYTES).toBe(16 * 1024 * 1024);
  });

  it('rowLine is JSON.stringify of the row with the search list as its last field', () => {
    expect(rowLine(row(1), null)).toBe(`${JSON.stringify(row(1))}\n`);
    const search = ['default.svc.cluster.local', 'svc.cluster.local', 'caf\u00e9 "x"'];
    expect(rowLine(row(1), search)).toBe(`${JSON.stringify({ ...row(1), search })}\n`);
    expect(rowLine(row(2), [])).toBe(`${JSON.stringify({ ...row(2), search: [] })}\n`);
    expect(rowLine(row(2), search)).toBe(`${JSON.stringify({ ...row(2), search })}\n`);
  });

  it('a full disk (ENOSPC) drops the batch and reports the running total for status: "N rows not written (no space left on DIR)"', async () => {
    const losses: string[] = [];
    const w = await openRowsFile(file, 4, undefined, () => undefined, (l) => losses.push(l));
    w.write(row(1));
    await w.flush();
    const probe = await fsp.open(file, 'r');
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const full = vi.spyOn(proto, 'write').mockRejectedValue(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    try {
      w.write(row(2));
      w.write(row(3));
      await w.flush();
      w.write(row(4));
      await w.flush();
    } finally {
      full.mockRestore();
    }
    w.write(row(5));
    await w.close();
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id)).toEqual([1, 5]);
    expect(w.unwritten).toBe(3);
    expect(losses).toEqual([`2 rows not written (no space left on ${dir})`, `3 rows not written (no space left on ${dir})`]);
    expect(unwrittenLine(1, 'EIO', '/var/log/dnsproxy')).toBe('1 row not written (EIO on /var/log/dnsproxy)');
  });

  it('reader: rows come in the order their queries were asked, not the order written (a timeout is written last)', async () => {
    // Row 1 timed out 2 s after it was asked, so it was written after rows 2 and 3.
    const late = row(1, { rcode: null, answers: [], latencyMs: null, upstream: null, upstreamRcode: null, upstreamLatencyMs: null });
    writeFileSync(file, [row(2, { queryUs: 1_764_615_600_500_000 }), row(3, { queryUs: 1_764_615_601_000_000 }), late].map((r) => `${JSON.stringify(r)}\n`).join(''));
    const got = await readCapturedRows(file, 10, 'adguard', []);
    expect(got.rows.map((r) => [r.name, r.rcode])).toEqual([['n1.example.test', null], ['n2.example.test', 'NOERROR'], ['n3.example.test', 'NOERROR']]);
    // The newest two by query time, not the last two lines.
    expect((await readCapturedRows(file, 2, 'adguard', [])).rows.map((r) => r.name)).toEqual(['n2.example.test', 'n3.example.test']);
  });

  it('reader: a garbled or cut line is skipped; no file is "not present"', async () => {
    writeFileSync(file, `${JSON.stringify(row(1))}\n{"proto":"udp","cl\nnot json\n${JSON.stringify(row(2, { upstream: null }))}\n`);
    const got = await readCapturedRows(file, 10, 'dnsmasq', []);
    expect(got.rows.map((r) => [r.name, r.route])).toEqual([['n1.example.test', 'upstream'], ['n2.example.test', 'cache']]);
    // No rotation yet: only the current file is named.
    expect(got.files).toEqual([file]);
    expect(await readCapturedRows(path.join(dir, 'none.jsonl'), 10, 'dnsmasq', [])).toEqual({ rows: [], present: false, complete: true, files: [] });
  });
});

describe('a torn line and a long garbage line cost only themselves (breaker10 L5)', () => {
  it('a file left ending inside a line (torn write) gets a newline before the next row; so does a line another writer appends unterminated', async () => {
    writeFileSync(file, `${JSON.stringify(row(1))}\n{"proto":"udp","cli`);
    const w = await openRowsFile(file, 4);
    w.write(row(2));
    await w.flush();
    // Someone else appends a line without its newline while the writer holds the file.
    await fsp.appendFile(file, 'garbage without newline');
    w.write(row(3));
    w.write(row(4));
    await w.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toEqual([JSON.stringify(row(1)), '{"proto":"udp","cli', JSON.stringify(row(2)), 'garbage without newline', JSON.stringify(row(3)), JSON.stringify(row(4)), '']);
    expect((await readCapturedRows(file, 10, 'adguard', [])).rows.map((r) => r.name)).toEqual(['n1.example.test', 'n2.example.test', 'n3.example.test', 'n4.example.test']);
  });

  it('a file that ends with a newline gets none added (no empty lines)', async () => {
    writeFileSync(file, `${JSON.stringify(row(1))}\n`);
    const w = await openRowsFile(file, 4);
    w.write(row(2));
    await w.close();
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(row(1))}\n${JSON.stringify(row(2))}\n`);
  });

  it('the newest page reads past a 3 MB garbage line: 2,000 rows, not the few after it', async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `${JSON.stringify(row(i))}\n`).join('');
    const after = Array.from({ length: 500 }, (_, i) => `${JSON.stringify(row(10_000 + i))}\n`).join('');
    writeFileSync(file, `${before}${'x'.repeat(3_000_000)}\n${after}`);
    const got = await readCapturedRows(file, 2000, 'adguard', []);
    expect(got.rows).toHaveLength(2000);
    expect(got.complete).toBe(false);
    expect(got.rows[0]!.name).toBe('n1500.example.test');
    expect(got.rows.at(-1)!.name).toBe('n10499.example.test');
    // All of it asked: every row, the log's start reached.
    const all = await readCapturedRows(file, 5000, 'adguard', []);
    expect(all.rows).toHaveLength(3500);
    expect(all.complete).toBe(true);
  });

  it('a 15 MB line read back in 200 KiB chunks is joined once: bytes joined stay within twice the file (were 550 MB: 0.7 s of the reading process)', async () => {
    writeFileSync(file, `${JSON.stringify(row(1))}\n{"proto":"udp","client":"${'x'.repeat(15_000_000)}"}\n${JSON.stringify(row(2))}\n`);
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      const got = await readCapturedRows(file, 200, 'adguard', []);
      expect(got.rows.map((r) => r.name)).toEqual(['n1.example.test', 'n2.example.test']);
      expect(got.complete).toBe(true);
      const joined = concat.mock.calls.reduce((n, [list]) => n + list.reduce((m, b) => m + b.length, 0), 0);
      expect(joined).toBeLessThanOrEqual(2 * statSync(file).size);
    } finally {
      concat.mockRestore();
    }
  });
});
