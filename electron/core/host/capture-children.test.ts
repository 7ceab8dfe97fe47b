/**
 * The capture companion's tcpdump and parser, recorded before a stop and SIGKILLed after it only
 * while they are still the same processes (capture-children.ts), over a fake /proc (procDir); and
 * supervisedCapture's stop doing it for a companion that does not end on SIGTERM, over real
 * stand-in processes whose /proc entries the test writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_READY_FILE, PARSER_RUN_PATH } from '../capture/capture-args';
import { tcpdumpArgv } from '../capture/tcpdump-argv';
import { CAPTURE_PID_FILE, CaptureChildrenLeft, supervisedCapture } from './capture-companion';
import { captureChildren, captureChildRole, childrenLeftWords, endCaptureChildren, type CaptureChild } from './capture-children';
import { keeperArgv } from './capture-keeper';
import { createHostFs } from './host-fs-node';
import { stopCapture } from '../lifecycle/companions';
import type { LifecycleDeps } from '../lifecycle/deps';
import type { ResultWarning } from '../../../shared/lifecycle-events';

const TCPDUMP = ['/usr/bin/tcpdump', ...tcpdumpArgv({ iface: 'any', ports: [53], user: 'nobody' })];
const RUN_PATH = '/run/k2s/capture-rows.cjs';
const PARSER = ['/usr/bin/node', RUN_PATH];
const COMPANION = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held'];

/** A /proc/PID/stat line (proc(5)): `state`, parent `ppid`, start time (field 22) `start`. */
const statLine = (pid: number, ppid: number, start: number, state = 'S') => `${pid} (x) ${state} ${ppid} ${ppid} ${ppid} 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 0 0\n`;

/** Writes the fake /proc entry of `pid`: its stat and cmdline. */
async function proc(procDir: string, pid: number, ppid: number, start: number, argv: readonly string[], state = 'S'): Promise<void> {
  await mkdir(path.join(procDir, String(pid)), { recursive: true });
  await writeFile(path.join(procDir, String(pid), 'stat'), statLine(pid, ppid, start, state));
  await writeFile(path.join(procDir, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
}

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

describe('capture children: which processes are the companion\'s tcpdump and parser', () => {
  it('tcpdump at a fixed path with its pcap-to-stdout argv, and the parser in both of its forms; nothing else', () => {
    expect(captureChildRole(TCPDUMP, RUN_PATH)).toBe('tcpdump');
    expect(captureChildRole(PARSER, RUN_PATH)).toBe('parser');
    expect(captureChildRole(['/usr/bin/node', '--snapshot-blob', '/var/cache/k2s-dns/snap.blob', '--', 'capture-rows'], RUN_PATH)).toBe('parser');
    // Not ours: tcpdump elsewhere or reading to the terminal, another script, chrt the companion runs.
    expect(captureChildRole(['/tmp/tcpdump', ...TCPDUMP.slice(1)], RUN_PATH)).toBeNull();
    expect(captureChildRole(['/usr/bin/tcpdump', '-i', 'any', '-n'], RUN_PATH)).toBeNull();
    expect(captureChildRole(['/usr/bin/node', '/tmp/capture-rows.cjs'], RUN_PATH)).toBeNull();
    expect(captureChildRole(['/usr/bin/chrt', '--idle', '-a', '-p', '0', '200'], RUN_PATH)).toBeNull();
  });

  it('reads them from /proc/PID/task/*/children, with their start times; a listed pid whose parent is another is left out', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const procDir = path.join(root, 'proc');
    await proc(procDir, 100, 50, 1000, COMPANION);
    await mkdir(path.join(procDir, '100', 'task', '100'), { recursive: true });
    await mkdir(path.join(procDir, '100', 'task', '101'), { recursive: true });
    await writeFile(path.join(procDir, '100', 'task', '100', 'children'), '200 202 203 ');
    await writeFile(path.join(procDir, '100', 'task', '101', 'children'), '201 ');
    await proc(procDir, 200, 100, 1100, TCPDUMP);
    await proc(procDir, 201, 100, 1101, PARSER);
    await proc(procDir, 202, 100, 1102, ['/usr/bin/chrt', '--idle', '-a', '-p', '0', '200']);
    await proc(procDir, 203, 77, 1103, PARSER);
    expect(await captureChildren([100], procDir, RUN_PATH)).toEqual([
      { pid: 200, startTime: '1100', argv: TCPDUMP, role: 'tcpdump' },
      { pid: 201, startTime: '1101', argv: PARSER, role: 'parser' },
    ]);
    // A companion gone: none.
    expect(await captureChildren([999], procDir, RUN_PATH)).toEqual([]);
  });

  it('without children files (no CONFIG_PROC_CHILDREN): every /proc/N/stat whose parent is the companion', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const procDir = path.join(root, 'proc');
    await proc(procDir, 100, 50, 1000, COMPANION);
    await mkdir(path.join(procDir, '100', 'task', '100'), { recursive: true });
    await proc(procDir, 200, 100, 1100, TCPDUMP);
    await proc(procDir, 201, 100, 1101, PARSER);
    await proc(procDir, 203, 77, 1103, PARSER);
    expect((await captureChildren([100], procDir, RUN_PATH)).map((c) => [c.pid, c.role])).toEqual([
      [200, 'tcpdump'],
      [201, 'parser'],
    ]);
  });
});

describe('capture children: ended only while still the same processes', () => {
  it('SIGKILLs the one still there with its start time and argv; not a pid taken by another process (other start time, other argv), a zombie or one gone', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const procDir = path.join(root, 'proc');
    const recorded: CaptureChild[] = [
      { pid: 200, startTime: '1100', argv: TCPDUMP, role: 'tcpdump' },
      { pid: 201, startTime: '1101', argv: PARSER, role: 'parser' },
      { pid: 202, startTime: '1102', argv: PARSER, role: 'parser' },
      { pid: 203, startTime: '1103', argv: TCPDUMP, role: 'tcpdump' },
      { pid: 204, startTime: '1104', argv: TCPDUMP, role: 'tcpdump' },
    ];
    // 200: the same process, orphaned (its parent now PID 1). 201: the pid reused (another start
    // time, the same argv). 202: same start time, another argv. 203: a zombie. 204: gone.
    await proc(procDir, 200, 1, 1100, TCPDUMP);
    await proc(procDir, 201, 1, 5000, PARSER);
    await proc(procDir, 202, 1, 1102, ['/usr/bin/node', '/srv/other.cjs']);
    await proc(procDir, 203, 1, 1103, TCPDUMP, 'Z');
    const kills: [number, string][] = [];
    // The kernel's part: a killed process leaves /proc.
    const kill = (pid: number, sig: NodeJS.Signals) => {
      kills.push([pid, sig]);
      rmSync(path.join(procDir, String(pid)), { recursive: true, force: true });
    };
    expect(await endCaptureChildren(recorded, procDir, kill, 2000)).toEqual([]);
    expect(kills).toEqual([[200, 'SIGKILL']]);
  });

  it('none left (the companion ended them at its stop): nothing is signalled, and it returns at once', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const procDir = path.join(root, 'proc');
    const kills: number[] = [];
    const t0 = Date.now();
    expect(await endCaptureChildren([{ pid: 200, startTime: '1100', argv: TCPDUMP, role: 'tcpdump' }], procDir, (pid) => kills.push(pid), 10_000)).toEqual([]);
    expect(kills).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('one still there after its SIGKILL, or whose SIGKILL is refused, is returned and said with its pid and program', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const procDir = path.join(root, 'proc');
    await proc(procDir, 200, 1, 1100, TCPDUMP, 'D');
    await proc(procDir, 201, 1, 1101, PARSER);
    const recorded: CaptureChild[] = [
      { pid: 200, startTime: '1100', argv: TCPDUMP, role: 'tcpdump' },
      { pid: 201, startTime: '1101', argv: PARSER, role: 'parser' },
    ];
    const kill = (pid: number) => {
      if (pid === 201) throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    };
    const left = await endCaptureChildren(recorded, procDir, kill, 200);
    expect(left.map((c) => [c.pid, c.why])).toEqual([
      [201, 'SIGKILL refused: EPERM'],
      [200, 'still runs 0.2 s after SIGKILL'],
    ]);
    expect(childrenLeftWords(left)).toBe(`its packet parser (PID 201, /usr/bin/node ${RUN_PATH}) SIGKILL refused: EPERM; its tcpdump (PID 200, /usr/bin/tcpdump) still runs 0.2 s after SIGKILL`);
  });
});

describe('supervised capture stop: a companion that does not end on SIGTERM (stopped) leaves no tcpdump or parser', () => {
  const procs: ChildProcess[] = [];
  afterEach(() => {
    for (const c of procs.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  /** A real process that runs until killed; resolves once it runs. */
  async function standIn(js = ''): Promise<ChildProcess> {
    const c = spawn(process.execPath, ['-e', `${js}; setInterval(() => {}, 1e6); process.stdout.write('up')`], { stdio: ['ignore', 'pipe', 'inherit'] });
    procs.push(c);
    await new Promise((r) => c.stdout!.once('data', r));
    return c;
  }
  const signalOf = (c: ChildProcess) => new Promise<string | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.signalCode) : c.once('exit', (_code, sig) => r(sig))));

  /**
   * A keeper that forwards SIGTERM to a companion that never ends (as one stopped by SIGSTOP), the
   * companion's tcpdump and parser and a third child whose pid another process takes at the
   * companion's SIGTERM (its /proc start time changes). `gone`: /proc loses a child's entry when it
   * exits (false: it stays, as for a process SIGKILL does not end).
   */
  async function tree(gone = true) {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const parserArgv = ['/usr/bin/node', fs.real(PARSER_RUN_PATH)];
    const [tcpdump, parser, reused] = [await standIn(), await standIn(), await standIn()];
    const reusedStat = path.join(procDir, String(reused.pid), 'stat');
    const companion = await standIn(`process.on('SIGTERM', () => require('fs').writeFileSync(${JSON.stringify(reusedStat)}, ${JSON.stringify(statLine(reused.pid!, 1, 9999))}))`);
    const keeper = await standIn(`process.on('SIGTERM', () => process.kill(${companion.pid}, 'SIGTERM'))`);
    const signals = [tcpdump, parser, reused, companion, keeper].map(signalOf);
    await proc(procDir, keeper.pid!, 1, 900, keeperArgv('/run/k2s/capture.pid', '/run/k2s/capture-keeper.state', '/run/k2s/capture.go', COMPANION));
    await proc(procDir, companion.pid!, keeper.pid!, 1000, COMPANION);
    await mkdir(path.join(procDir, String(companion.pid), 'task', String(companion.pid)), { recursive: true });
    await writeFile(path.join(procDir, String(companion.pid), 'task', String(companion.pid), 'children'), `${tcpdump.pid} ${parser.pid} ${reused.pid} `);
    await proc(procDir, tcpdump.pid!, companion.pid!, 1100, TCPDUMP);
    await proc(procDir, parser.pid!, companion.pid!, 1101, parserArgv);
    await proc(procDir, reused.pid!, companion.pid!, 1102, parserArgv);
    for (const c of [tcpdump, parser, reused, companion, keeper]) if (gone) c.once('exit', () => rmSync(path.join(procDir, String(c.pid)), { recursive: true, force: true }));
    await fs.writeFileAtomic(CAPTURE_PID_FILE, `${keeper.pid}\n`, { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_READY_FILE, `${companion.pid}\n`, { mode: 0o644 });
    return { fs, procDir, tcpdump, parser, reused, signals, parserArgv };
  }

  it('its keeper and it SIGKILLed, then its tcpdump and parser, which are still the same processes; the pid taken by another process is left alone', async () => {
    const { fs, procDir, reused, signals } = await tree();
    await supervisedCapture(fs, procDir, 200).stop();
    expect(await Promise.all(signals.filter((_, i) => i !== 2))).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL', 'SIGKILL']);
    expect(reused.exitCode === null && reused.signalCode === null).toBe(true);
    expect(await fs.lstat(CAPTURE_READY_FILE)).toBeFalsy();
  }, 30_000);

  it('a child still there after its SIGKILL: stop says it (CAPTURE_NOT_STOPPED, its pid and program) after removing the run\'s files', async () => {
    const { fs, procDir, tcpdump, parser, parserArgv } = await tree(false);
    const err = await supervisedCapture(fs, procDir, 200).stop().then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureChildrenLeft);
    expect(await fs.lstat(CAPTURE_READY_FILE)).toBeFalsy();
    // Through stopCapture, as stop, uninstall and recover call it.
    const warnings: ResultWarning[] = [];
    await stopCapture({ capture: { manager: { stop: () => Promise.reject(err) } } } as unknown as LifecycleDeps, warnings);
    expect(warnings).toEqual([
      {
        code: 'CAPTURE_NOT_STOPPED',
        message: `The exact query log companion did not stop (its tcpdump (PID ${tcpdump.pid}, /usr/bin/tcpdump) still runs 3 s after SIGKILL; its packet parser (PID ${parser.pid}, ${parserArgv.join(' ')}) still runs 3 s after SIGKILL).`,
      },
    ]);
  }, 30_000);

  it('a companion that ends on SIGTERM having ended its children: nothing else is signalled', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-children-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const tcpdump = await standIn();
    const tcpdumpProc = path.join(procDir, String(tcpdump.pid));
    // Its stop ends tcpdump (its /proc entry goes; the stand-in itself runs on, so a SIGKILL of it would show).
    const companion = await standIn(`process.on('SIGTERM', () => { require('fs').rmSync(${JSON.stringify(tcpdumpProc)}, { recursive: true, force: true }); process.exit(0); })`);
    const keeper = await standIn(`process.on('SIGTERM', () => process.kill(${companion.pid}, 'SIGTERM')); setInterval(() => { try { process.kill(${companion.pid}, 0); } catch { process.exit(0); } }, 5)`);
    await proc(procDir, keeper.pid!, 1, 900, keeperArgv('/run/k2s/capture.pid', '/run/k2s/capture-keeper.state', '/run/k2s/capture.go', COMPANION));
    await proc(procDir, companion.pid!, keeper.pid!, 1000, COMPANION);
    await mkdir(path.join(procDir, String(companion.pid), 'task', String(companion.pid)), { recursive: true });
    await writeFile(path.join(procDir, String(companion.pid), 'task', String(companion.pid), 'children'), `${tcpdump.pid} `);
    await proc(procDir, tcpdump.pid!, companion.pid!, 1100, TCPDUMP);
    for (const c of [companion, keeper]) c.once('exit', () => rmSync(path.join(procDir, String(c.pid)), { recursive: true, force: true }));
    await fs.writeFileAtomic(CAPTURE_PID_FILE, `${keeper.pid}\n`, { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_READY_FILE, `${companion.pid}\n`, { mode: 0o644 });
    await supervisedCapture(fs, procDir, 20_000).stop();
    expect(await signalOf(companion)).toBeNull();
    expect(tcpdump.exitCode === null && tcpdump.signalCode === null).toBe(true);
  }, 30_000);
});
