/**
 * The tcpdump and parser a companion recorded (capture/children-file.ts) and left to PID 1 when it
 * was killed with its keeper: recordedCaptureChildren over a fake /proc, and supervisedCapture's
 * stop ending them by that record (they can no longer be found by their parent), over real
 * stand-in processes whose /proc entries the test writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_READY_FILE, PARSER_RUN_PATH } from '../capture/capture-args';
import { CAPTURE_CHILDREN_FILE, cksumOf } from '../capture/children-file';
import { tcpdumpArgv } from '../capture/tcpdump-argv';
import { CAPTURE_PID_FILE, supervisedCapture } from './capture-companion';
import { recordedCaptureChildren } from './capture-children';
import { createHostFs } from './host-fs-node';

const TCPDUMP = ['/usr/bin/tcpdump', ...tcpdumpArgv({ iface: 'any', ports: [53], user: 'nobody' })];
const RUN_PATH = '/run/k2s/capture-rows.cjs';
const PARSER = ['/usr/bin/node', RUN_PATH];
/** The cksum a companion records for `argv` (its /proc/PID/cmdline bytes). */
const sumOf = (argv: readonly string[]) => cksumOf(Buffer.from(`${argv.join('\0')}\0`));

/** A /proc/PID/stat line (proc(5)): `state`, parent `ppid`, start time (field 22) `start`. */
const statLine = (pid: number, ppid: number, start: number, state = 'S') => `${pid} (x) ${state} ${ppid} ${ppid} ${ppid} 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 0 0\n`;

/** Writes the fake /proc entry of `pid`: its stat and cmdline. */
async function proc(procDir: string, pid: number, ppid: number, start: number, argv: readonly string[], state = 'S'): Promise<void> {
  await mkdir(path.join(procDir, String(pid)), { recursive: true });
  await writeFile(path.join(procDir, String(pid), 'stat'), statLine(pid, ppid, start, state));
  await writeFile(path.join(procDir, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
}

let root = '';
const procs: ChildProcess[] = [];
afterEach(async () => {
  for (const c of procs.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

/** Stand-in children of a fake tcpdump argv (their /proc entries written), and stop over a record written by `write`. */
function helpers(fs: ReturnType<typeof createHostFs>, procDir: string) {
  const standIn = async (start: number) => {
    const c = spawn(process.execPath, ['-e', "setInterval(() => {}, 1e6); process.stdout.write('up')"], { stdio: ['ignore', 'pipe', 'inherit'] });
    procs.push(c);
    await new Promise((r) => c.stdout!.once('data', r));
    await proc(procDir, c.pid!, 1, start, TCPDUMP);
    c.once('exit', () => void rm(path.join(procDir, String(c.pid)), { recursive: true, force: true }));
    return { c, line: `${c.pid} ${start} tcpdump 999992 ${sumOf(TCPDUMP)}\n`, sig: new Promise<string | null>((r) => c.once('exit', (_code, sig) => r(sig))) };
  };
  /** Stops over `record` (written by `write`), then SIGTERMs what is left: a stand-in stop left alive says SIGTERM. */
  const stopOver = async (write: () => Promise<void>, ...ins: Awaited<ReturnType<typeof standIn>>[]) => {
    await write();
    await supervisedCapture(fs, procDir, 200).stop();
    for (const i of ins) if (i.c.exitCode === null && i.c.signalCode === null) i.c.kill('SIGTERM');
    return Promise.all(ins.map((i) => i.sig));
  };
  return { standIn, stopOver };
}

describe('the children a killed companion recorded', () => {
  it('only those still that process: same start time, not a zombie, the recorded command line (cksum), an argv of the recorded role', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-recorded-'));
    const procDir = path.join(root, 'proc');
    await proc(procDir, 200, 1, 1100, TCPDUMP);
    await proc(procDir, 201, 1, 1101, PARSER);
    // Its pid taken by another process (another start time); a parser recorded as tcpdump; a zombie.
    await proc(procDir, 202, 1, 5000, PARSER);
    await proc(procDir, 203, 1, 1103, PARSER);
    await proc(procDir, 204, 1, 1104, TCPDUMP, 'Z');
    // 206: its start time and role right, but another command line than the one recorded (a forged or stale line).
    await proc(procDir, 206, 1, 1106, [...TCPDUMP, 'port', '9']);
    const recorded = [
      { pid: 200, startTime: '1100', role: 'tcpdump' as const, cmdlineSum: sumOf(TCPDUMP) },
      { pid: 201, startTime: '1101', role: 'parser' as const, cmdlineSum: sumOf(PARSER) },
      { pid: 202, startTime: '1102', role: 'parser' as const, cmdlineSum: sumOf(PARSER) },
      { pid: 203, startTime: '1103', role: 'tcpdump' as const, cmdlineSum: sumOf(PARSER) },
      { pid: 204, startTime: '1104', role: 'tcpdump' as const, cmdlineSum: sumOf(TCPDUMP) },
      { pid: 205, startTime: '1105', role: 'parser' as const, cmdlineSum: sumOf(PARSER) },
      { pid: 206, startTime: '1106', role: 'tcpdump' as const, cmdlineSum: sumOf(TCPDUMP) },
    ];
    expect(await recordedCaptureChildren(recorded, procDir, RUN_PATH)).toEqual([
      { pid: 200, startTime: '1100', argv: TCPDUMP, role: 'tcpdump' },
      { pid: 201, startTime: '1101', argv: PARSER, role: 'parser' },
    ]);
  });

  it('stop after the companion and its keeper were killed (kill -9 both): their tcpdump and parser, under PID 1 now, are SIGKILLed by the record; a recorded pid another process took is not; the record is removed', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-recorded-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const standIn = async () => {
      const c = spawn(process.execPath, ['-e', "setInterval(() => {}, 1e6); process.stdout.write('up')"], { stdio: ['ignore', 'pipe', 'inherit'] });
      procs.push(c);
      await new Promise((r) => c.stdout!.once('data', r));
      return c;
    };
    const [tcpdump, parser, reused] = [await standIn(), await standIn(), await standIn()];
    const signals = [tcpdump, parser, reused].map((c) => new Promise<string | null>((r) => c.once('exit', (_code, sig) => r(sig))));
    const parserArgv = ['/usr/bin/node', fs.real(PARSER_RUN_PATH)];
    await proc(procDir, tcpdump.pid!, 1, 1100, TCPDUMP);
    await proc(procDir, parser.pid!, 1, 1101, parserArgv);
    await proc(procDir, reused.pid!, 1, 9999, parserArgv);
    for (const c of [tcpdump, parser]) c.once('exit', () => void rm(path.join(procDir, String(c.pid)), { recursive: true, force: true }));
    // What the killed pair left: the keeper's pidfile and the companion's ready file naming pids that are gone, and the record.
    await fs.writeFileAtomic(CAPTURE_PID_FILE, '999991\n', { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_READY_FILE, '999992\n', { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_CHILDREN_FILE, `${tcpdump.pid} 1100 tcpdump 999992 ${sumOf(TCPDUMP)}\n${parser.pid} 1101 parser 999992 ${sumOf(parserArgv)}\n${reused.pid} 1102 parser 999992 ${sumOf(parserArgv)}\n`, { mode: 0o644 });
    await supervisedCapture(fs, procDir, 200).stop();
    // Stop waited for their end (capture-children.ts endCaptureChildren): their exits are due now (10 s on a busy machine).
    const late = new Promise<string>((r) => setTimeout(() => r('still running'), 10_000).unref());
    expect(await Promise.all(signals.slice(0, 2).map((s) => Promise.race([s, late])))).toEqual(['SIGKILL', 'SIGKILL']);
    expect(reused.exitCode === null && reused.signalCode === null).toBe(true);
    expect(await fs.lstat(CAPTURE_CHILDREN_FILE)).toBeNull();
  }, 30_000);

  it('stop reads the record only as a regular file, not through a symlink', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-recorded-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const { standIn, stopOver } = helpers(fs, procDir);
    // A symlink to a small file naming a real (stand-in) tcpdump: not followed, nothing signalled.
    const linked = await standIn(1200);
    await writeFile(fs.real('/run/k2s/linked.children'), linked.line);
    expect(await stopOver(() => symlink('linked.children', fs.real(CAPTURE_CHILDREN_FILE)), linked)).toEqual(['SIGTERM']);
    expect(await fs.lstat(CAPTURE_CHILDREN_FILE)).toBeNull();
  }, 30_000);

  it('stop reads the record\'s first 4 KiB only; garbage lines are left out', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-recorded-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const { standIn, stopOver } = helpers(fs, procDir);
    // 10 MB of garbage with a valid line first and one past the first 4 KiB: only the first is read and ended.
    const [first, late] = [await standIn(1201), await standIn(1202)];
    const big = Buffer.concat([Buffer.from(`garbage \u0000\xff\n${first.line}`), Buffer.alloc(10 * 1024 * 1024, 'x'), Buffer.from(`\n${late.line}`)]);
    expect(await stopOver(() => writeFile(fs.real(CAPTURE_CHILDREN_FILE), big), first, late)).toEqual(['SIGKILL', 'SIGTERM']);
    expect(await fs.lstat(CAPTURE_CHILDREN_FILE)).toBeNull();
  }, 30_000);
});
