import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isStartCheck, KEPT_STARTS, parseStartChecks, readStartChecks, START_CHECK_MARGIN_MS, START_CHECKS_FILE, startChecksBeside, writeStartChecks } from './start-checks';
import { capturedQueryRow } from './to-query-row';
import { readCapturedRows } from './rows-reader';
import { searchCapturedRows } from './rows-search';
import { createHostFs } from '../host/host-fs-node';

const T0 = 1_764_615_600_123; // ms
const checks = { names: ['kubernetes.default.svc.cluster.local', 'www.example.test'], fromMs: T0, toMs: T0 + 9 };
const us = (ms: number) => Math.round(ms * 1000);

describe("start's checks (left28 #2): a row is start's when its name is one start asked and it was asked inside start's window", () => {
  it('in the window: its names, in any case, with or without the trailing dot', () => {
    expect(isStartCheck(checks, 'www.example.test', us(T0 + 3.5))).toBe(true);
    expect(isStartCheck(checks, 'WWW.Example.TEST', us(T0 + 3.5))).toBe(true);
    expect(isStartCheck(checks, 'kubernetes.default.svc.cluster.local.', us(T0))).toBe(true);
    expect(isStartCheck(checks, 'kubernetes.default.svc.cluster.local', us(T0 + 9))).toBe(true);
  });

  it('another name in the window is a program’s', () => {
    expect(isStartCheck(checks, 'web.demo.svc.cluster.local', us(T0 + 3))).toBe(false);
    expect(isStartCheck(checks, 'example.test', us(T0 + 3))).toBe(false);
    expect(isStartCheck(checks, 'www.example.test.evil', us(T0 + 3))).toBe(false);
  });

  it('the same name outside the window (past the stated margin) is a program’s', () => {
    expect(isStartCheck(checks, 'www.example.test', us(T0 - START_CHECK_MARGIN_MS))).toBe(true);
    expect(isStartCheck(checks, 'www.example.test', us(T0 + 9 + START_CHECK_MARGIN_MS))).toBe(true);
    expect(isStartCheck(checks, 'www.example.test', us(T0 - START_CHECK_MARGIN_MS) - 1)).toBe(false);
    expect(isStartCheck(checks, 'www.example.test', us(T0 + 9 + START_CHECK_MARGIN_MS) + 1)).toBe(false);
    expect(isStartCheck(checks, 'www.example.test', us(T0 + 60_000))).toBe(false);
    expect(isStartCheck(null, 'www.example.test', us(T0 + 3))).toBe(false);
  });

  it('a captured row inside the window is a probe row marked startCheck; outside, as any row', () => {
    const c = { proto: 'udp' as const, client: '127.0.0.1:41001', listener: '127.0.0.1:53', id: 4101, name: 'www.example.test', type: 'A', queryUs: us(T0 + 2), rcode: 'NOERROR', answers: ['198.51.100.7'], latencyMs: 0.4, upstream: '192.0.2.53:53', upstreamRcode: 'NOERROR', upstreamLatencyMs: 0.3, retries: 0 };
    expect(capturedQueryRow(c, 'adguard', 'k', [], 0, checks)).toMatchObject({ probe: true, startCheck: true });
    const later = capturedQueryRow({ ...c, queryUs: us(T0 + 500) }, 'adguard', 'k', [], 0, checks);
    expect(later.probe).toBe(false);
    expect(later.startCheck).toBeUndefined();
    expect(capturedQueryRow(c, 'adguard', 'k', [])).toMatchObject({ probe: false });
    // The health probe asking inside the window (the window's status poll during a start) stays the health probe's.
    const probe = capturedQueryRow({ ...c, name: 'KUBERNETES.DEFAULT.svc.cluster.local' }, 'adguard', 'k', [], 0, checks);
    expect(probe.probe).toBe(true);
    expect(probe.startCheck).toBeUndefined();
  });

  it('a record that is not one marks nothing', () => {
    expect(parseStartChecks('{"names":["a.test"],"fromMs":5,"toMs":4}')).toBeNull();
    expect(parseStartChecks('{"names":[1],"fromMs":1,"toMs":4}')).toBeNull();
    expect(parseStartChecks('{"names":["a.test"],"fromMs":1')).toBeNull();
    expect(parseStartChecks('null')).toBeNull();
    expect(parseStartChecks('{"names":["a.test"],"fromMs":1,"toMs":4}\n')).toEqual({ names: ['a.test'], fromMs: 1, toMs: 4 });
    // An earlier list that is not one is left out; the last start's window still marks.
    expect(parseStartChecks('{"names":["a.test"],"fromMs":1,"toMs":4,"earlier":[{"names":["b.test"],"fromMs":3,"toMs":2}]}')).toEqual({ names: ['a.test'], fromMs: 1, toMs: 4 });
    expect(parseStartChecks('{"names":["a.test"],"fromMs":1,"toMs":4,"earlier":"x"}')).toEqual({ names: ['a.test'], fromMs: 1, toMs: 4 });
    // mend30: one invalid window, or more than KEPT_STARTS - 1, dropped every earlier window: only the wrong ones go now.
    const w = (i: number) => ({ names: [`e${i}.test`], fromMs: i, toMs: i + 1 });
    const mixed = { names: ['a.test'], fromMs: 100, toMs: 104, earlier: [w(90), { names: ['b.test'], fromMs: 3, toMs: 2 }, w(80), 'x'] };
    expect(parseStartChecks(JSON.stringify(mixed))).toEqual({ names: ['a.test'], fromMs: 100, toMs: 104, earlier: [w(90), w(80)] });
    const many = { names: ['a.test'], fromMs: 100, toMs: 104, earlier: Array.from({ length: KEPT_STARTS + 2 }, (_, i) => w(90 - i)) };
    expect(parseStartChecks(JSON.stringify(many))!.earlier).toEqual(Array.from({ length: KEPT_STARTS - 1 }, (_, i) => w(90 - i)));
  });
});

describe("start's checks on disk: written beside the exact query log, read by its readers", () => {
  let root = '';
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = '';
  });
  const setup = () => {
    root = mkdtempSync(path.join(tmpdir(), 'k2s-start-checks-'));
    mkdirSync(path.join(root, 'var/log/dnsproxy'), { recursive: true });
    mkdirSync(path.join(root, 'etc'), { recursive: true });
    return { fs: createHostFs(root), rows: path.join(root, 'var/log/dnsproxy/queries.jsonl') };
  };
  const line = (name: string, ms: number, id: number) => JSON.stringify({ proto: 'udp', client: `127.0.0.1:${41000 + id}`, listener: '127.0.0.1:53', id, name, type: 'A', queryUs: us(ms), rcode: 'NOERROR', answers: ['198.51.100.7'], latencyMs: 0.4, upstream: null, upstreamRcode: null, upstreamLatencyMs: null, retries: 0 });

  it('writes it with the query log’s mode (0600 without an adm group), the last start’s window kept as earlier, and the readers mark only the rows it names in its window', async () => {
    const { fs, rows } = setup();
    await writeStartChecks(fs, { names: ['old.example.test'], fromMs: 1, toMs: 2 }, false);
    await writeStartChecks(fs, checks, false);
    const file = startChecksBeside(rows);
    expect(file).toBe(path.join(root, START_CHECKS_FILE));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...checks, earlier: [{ names: ['old.example.test'], fromMs: 1, toMs: 2 }] });
    writeFileSync(rows, [line('kubernetes.default.svc.cluster.local', T0 + 1, 1), line('www.example.test', T0 + 4, 2), line('www.example.test', T0 + 2000, 3), line('web.demo.svc.cluster.local', T0 + 3, 4)].join('\n') + '\n');
    const got = await readCapturedRows(rows, 50, 'adguard', []);
    expect(got.rows.map((r) => [r.name, r.probe, r.startCheck ?? false])).toEqual([
      ['kubernetes.default.svc.cluster.local', true, true],
      ['web.demo.svc.cluster.local', false, false],
      ['www.example.test', true, true],
      ['www.example.test', false, false],
    ]);
    const found = await searchCapturedRows(rows, 'example.test', { limit: 50, engine: 'adguard', clusterZones: [] });
    expect(found.rows.map((r) => r.client)).toEqual(['127.0.0.1:41003']);
  });

  it('writes it without an fsync (a view of rows, not a restore): sync false, mode as the query log', async () => {
    const { fs } = setup();
    const asked: unknown[] = [];
    const write = fs.writeFileAtomic.bind(fs);
    await writeStartChecks({ real: (p) => fs.real(p), writeFileAtomic: (p, d, o) => (asked.push(o), write(p, d, o)) }, checks, false);
    expect(asked).toEqual([{ mode: 0o600, sync: false }]);
  });

  it("a stop and a start again: the earlier start's rows stay marked (its window kept as earlier), up to KEPT_STARTS starts", async () => {
    const { fs, rows } = setup();
    const first = { names: ['kubernetes.default.svc.cluster.local', 'www.example.test'], fromMs: T0 - 500, toMs: T0 - 490 };
    await writeStartChecks(fs, first, false);
    await writeStartChecks(fs, checks, false);
    expect(JSON.parse(readFileSync(startChecksBeside(rows), 'utf8'))).toEqual({ ...checks, earlier: [first] });
    writeFileSync(rows, [line('kubernetes.default.svc.cluster.local', T0 - 499, 1), line('www.example.test', T0 - 495, 2), line('www.example.test', T0 - 200, 3), line('www.example.test', T0 + 4, 4)].join('\n') + '\n');
    const got = await readCapturedRows(rows, 50, 'adguard', []);
    expect(got.rows.map((r) => [r.client, r.startCheck ?? false])).toEqual([
      ['127.0.0.1:41001', true],
      ['127.0.0.1:41002', true],
      ['127.0.0.1:41003', false],
      ['127.0.0.1:41004', true],
    ]);
    // The clock stepped back during a verify: that window is not written, the kept ones still mark.
    await writeStartChecks(fs, { names: ['www.example.test'], fromMs: T0 + 50, toMs: T0 + 40 }, false);
    expect(await readStartChecks(rows)).toEqual({ ...checks, earlier: [first] });
    // More starts: the record keeps the last KEPT_STARTS, newest first.
    for (let i = 1; i <= KEPT_STARTS; i++) await writeStartChecks(fs, { names: ['www.example.test'], fromMs: T0 + i * 1000, toMs: T0 + i * 1000 + 5 }, false);
    const kept = await readStartChecks(rows);
    expect([kept!.fromMs, ...kept!.earlier!.map((w) => w.fromMs)]).toEqual(Array.from({ length: KEPT_STARTS }, (_, i) => T0 + (KEPT_STARTS - i) * 1000));
    // Long names: the oldest windows are left out so the record stays readable (MAX_BYTES).
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.test`;
    for (let i = 0; i < KEPT_STARTS; i++) await writeStartChecks(fs, { names: Array.from({ length: 8 }, () => long), fromMs: T0 + 20_000 + i, toMs: T0 + 20_000 + i }, false);
    const cut = await readStartChecks(rows);
    expect(cut?.fromMs).toBe(T0 + 20_000 + KEPT_STARTS - 1);
    expect(cut!.earlier!.length).toBeGreaterThan(0);
    expect(cut!.earlier!.length).toBeLessThan(KEPT_STARTS - 1);
  });

  it('a record that is a symbolic link is not followed: no row is marked', async () => {
    const { rows } = setup();
    const target = path.join(root, 'elsewhere.json');
    writeFileSync(target, JSON.stringify(checks));
    symlinkSync(target, startChecksBeside(rows));
    expect(await readStartChecks(rows)).toBeNull();
  });

  it('a log directory that is a symbolic link is refused as openQueryLog refuses it: nothing read or written where it points (tidy29)', async () => {
    const { fs } = setup();
    const dir = path.join(root, 'var/log/dnsproxy');
    const elsewhere = path.join(root, 'elsewhere');
    mkdirSync(elsewhere);
    rmSync(dir, { recursive: true });
    symlinkSync(elsewhere, dir);
    await expect(writeStartChecks(fs, checks, false)).rejects.toThrow(`The proxy log directory ${dir} is a symlink; remove it (k2s-dns creates the directory itself).`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
