/**
 * The exact query log's supervised companion (no systemd in the sandbox: a keeper shell restarts
 * it, electron/core/host/capture-keeper.ts) killed in part, asserted by the real processes this
 * file started in the sandbox's PID namespace (not another file's of the same run), told apart by
 * their argv (never by name alone):
 *  - the companion killed (kill -9): its tcpdump and parser, left to PID 1, are ended by its
 *    keeper before the restart, so exactly one pair runs, the restarted companion's (before the
 *    fix both pairs ran until a packet came: tcpdump ends on SIGPIPE, the parser on its next row);
 *  - the companion killed with its keeper: stop ends its pair by the companion's record
 *    (capture/children-file.ts), which it can no longer find by their parent;
 *  - the keeper killed, the companion running on: status names it (no longer supervised, with
 *    stop, then start as the fix), stays `running` with exit 0, and stop still ends everything;
 *    the companion then stopped by its own SIGTERM removes its record of the pair it ended.
 *  - a record naming a bystander (a `sleep` started here, its real start time, tcpdump's cmdline
 *    sum): neither the keeper (the companion killed; a plain stop) nor stop signals it; a record
 *    that is a symlink is not followed, and stop exits 0 at once.
 * No query is sent while the pairs are counted: a packet would end an orphaned pair by SIGPIPE.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startTestbed, type Testbed } from './bed/testbed';
import { runCmd } from './bed/run-cmd';
import { engineArgs, engineMissing } from './bed/engines';
import { k2sDns } from './cli';
import { ownBedProcs } from './support/bed-procs';
import { cksumOf } from '../electron/core/capture/children-file';
import { processStartTime } from '../electron/core/capture/hold-wait';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: capture-orphans e2e runs only inside e2e/bed/sandbox.sh (as root)');
const tcpdump = inSandbox ? await runCmd('sh', ['-c', 'command -v tcpdump || true']).then((s) => s.trim()) : '';
if (inSandbox && tcpdump === '') console.warn('skipped: tcpdump is not installed (apt-get install tcpdump; scripts/setup.sh installs it)');
const engine = inSandbox && (await engineMissing('dnsproxy')) === null ? 'adguard' : 'dnsmasq';

/** One live capture process of this file's bed: what it is by its argv, and its parent. */
interface CaptureProc {
  pid: number;
  ppid: number;
  role: 'keeper' | 'companion' | 'tcpdump' | 'parser';
}

const CAPTURE_ROLES: readonly string[] = ['keeper', 'companion', 'tcpdump', 'parser'];

/**
 * Every live (not zombie) keeper, companion, tcpdump and parser this file started (by argv;
 * e2e/support/bed-procs.ts: its environment, or its parent's or session's): another file of the
 * run shares this PID namespace, and what it left running is not this file's to count.
 */
async function captureProcs(): Promise<CaptureProc[]> {
  const own = (await ownBedProcs()).filter((p) => CAPTURE_ROLES.includes(p.role));
  return own.map((p) => ({ pid: p.pid, ppid: p.ppid, role: p.role as CaptureProc['role'] })).sort((a, b) => a.role.localeCompare(b.role) || a.pid - b.pid);
}

/** Polls (50 ms) until `check` holds, 20 s on a busy machine; the last value either way. */
async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pid in a one-number file, 0 when there is none. */
const pidIn = async (file: string) => Number((await readFile(file, 'utf8').catch(() => '')).trim()) || 0;

describe.skipIf(!inSandbox || tcpdump === '')('the supervised capture killed in part leaves no orphaned tcpdump or parser, and status says a lost keeper', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  /**
   * The capture processes as `[role, parent]` once they are exactly `want` (polled: a spawn's fork
   * shows its parent's argv until it execs, as the companion's chrt runs do), else as they were at
   * the deadline. The keeper is left out (its parent is the sandbox's init).
   */
  async function settled(want: [CaptureProc['role'], number][], ms = 10_000): Promise<{ shape: [string, number][]; procs: CaptureProc[] }> {
    const shapeOf = (ps: CaptureProc[]) => ps.filter((p) => p.role !== 'keeper').map((p): [string, number] => [p.role, p.ppid]);
    const procs = await until(captureProcs, (ps) => JSON.stringify(shapeOf(ps)) === JSON.stringify(want), ms);
    return { shape: shapeOf(procs), procs };
  }

  /** Starts K2s DNS; resolves the keeper, the companion and its pair once its capture is open. */
  async function start(): Promise<{ keeper: number; companion: number; pair: CaptureProc[] }> {
    const r = await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, ...engineArgs(engine), '--verify-name', 'www.example.test', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const companion = await pidIn('/run/k2s/capture.ready');
    const keeper = await pidIn('/run/k2s/capture.pid');
    const want: [CaptureProc['role'], number][] = [['companion', keeper], ['parser', companion], ['tcpdump', companion]];
    const { shape, procs } = await settled(want);
    expect(shape).toEqual(want);
    expect(procs.filter((p) => p.role === 'keeper').map((p) => p.pid)).toEqual([keeper]);
    return { keeper, companion, pair: procs.filter((p) => p.role === 'parser' || p.role === 'tcpdump') };
  }

  /** A test that failed half-way leaves nothing running for the next (a retry starts afresh). */
  const stopAfter = async () => void (await k2sDns(['stop', '--on-drift', 'restore']));

  /** Stops K2s DNS (exit 0, no warning) and asserts no capture process is left (reaped: polled). */
  async function stopLeavesNone(): Promise<void> {
    // What stop had to go by, for the failure's message.
    const before = `record ${JSON.stringify(await readFile('/run/k2s/capture.children', 'utf8').catch(() => null))}, processes ${JSON.stringify(await captureProcs())}`;
    const stop = await k2sDns(['stop', '--on-drift', 'restore', '--json']);
    expect(stop.code, stop.stdout).toBe(0);
    expect(stop.result?.warnings ?? []).toEqual([]);
    expect(await until(captureProcs, (p) => p.length === 0, 10_000), `left after stop; before it: ${before}`).toEqual([]);
  }

  it('the companion killed (kill -9): within seconds exactly one tcpdump and one parser run, the restarted companion\'s; the keeper says it ended the old pair; stop leaves none', async () => {
    onTestFinished(stopAfter);
    const { keeper, companion, pair } = await start();
    process.kill(companion, 'SIGKILL');
    const restarted = await until(() => pidIn('/run/k2s/capture.ready'), (p) => p > 0 && p !== companion);
    expect(restarted).not.toBe(companion);
    // The keeper ended the old pair before it restarted the companion; its new pair is spawned as its capture opens.
    const want: [CaptureProc['role'], number][] = [['companion', keeper], ['parser', restarted], ['tcpdump', restarted]];
    const { shape, procs } = await settled(want);
    expect(shape).toEqual(want);
    for (const p of pair) expect(procs.map((q) => q.pid)).not.toContain(p.pid);
    const log = await readFile('/run/k2s/capture.log', 'utf8');
    const [tcpdumpPid, parserPid] = [pair.find((p) => p.role === 'tcpdump')!.pid, pair.find((p) => p.role === 'parser')!.pid];
    // One line for each it found running: tcpdump (it ends on SIGPIPE only at a packet, none sent), and the parser
    // unless it ended by itself first (tcpdump's SIGKILL ends its input, and it exits at the end of its input).
    // This companion's lines only: a suite run before this one in the same sandbox may have left others in the log.
    const lines = log.split('\n').filter((l) => l.includes(' left its ') && l.includes(`the companion (PID ${companion})`));
    expect(lines[0]).toMatch(new RegExp(`^\\S+Z k2s-dns capture keeper: the companion \\(PID ${companion}\\) left its tcpdump \\(PID ${tcpdumpPid}\\) running; ended it \\(SIGKILL\\)\\.$`));
    for (const l of lines.slice(1)) expect(l).toMatch(new RegExp(`^\\S+Z k2s-dns capture keeper: the companion \\(PID ${companion}\\) left its packet parser \\(PID ${parserPid}\\) running; ended it \\(SIGKILL\\)\\.$`));
    expect(lines.length).toBeLessThanOrEqual(2);
    await stopLeavesNone();
  }, 120_000);

  it('the companion killed with its keeper (kill -9 both): stop ends their tcpdump and parser, which no parent names any more', async () => {
    onTestFinished(stopAfter);
    const { keeper, companion, pair } = await start();
    process.kill(keeper, 'SIGKILL');
    process.kill(companion, 'SIGKILL');
    // Both gone; their pair runs on, handed to the sandbox's PID 1 (polled: the kernel hands it over as the companion exits).
    const left = await until(captureProcs, (ps) => ps.every((p) => (p.role === 'tcpdump' || p.role === 'parser') && p.ppid !== companion), 10_000);
    expect(left.map((p) => [p.pid, p.role, p.ppid === companion ? 'companion' : 'another'])).toEqual(pair.map((p) => [p.pid, p.role, 'another']));
    await stopLeavesNone();
  }, 120_000);

  it('the keeper killed (kill -9), the companion running on: status and status --json say it is no longer supervised, with stop, then start; still running, exit 0; stop leaves none', async () => {
    onTestFinished(stopAfter);
    const { keeper, companion } = await start();
    const before = await k2sDns(['status', '--json']);
    expect((JSON.parse(before.stdout) as { messages: string[] }).messages.filter((m) => m.includes('no longer supervised'))).toEqual([]);
    process.kill(keeper, 'SIGKILL');
    await until(captureProcs, (ps) => !ps.some((p) => p.pid === keeper), 10_000);
    const words = `The exact query log is no longer supervised: its keeper (PID ${keeper}) is not running, so a crash of its companion (PID ${companion}, still capturing) will not be restarted; to run it under a keeper again, run as root:`;
    const json = await k2sDns(['status', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const st = JSON.parse(json.stdout) as { state: string; messages: string[] };
    expect(st.state).toBe('running');
    expect(st.messages.filter((m) => m.includes('no longer supervised'))).toEqual([expect.stringMatching(new RegExp(`^${words.replace(/[()]/g, '\\$&')} \`.*stop\`, then \`.*start.*\`(, or .*)?\\.$`))]);
    const plain = await k2sDns(['status']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout.split('\n').filter((l) => l.includes('no longer supervised'))).toEqual([expect.stringMatching(new RegExp(`^note: ${words.replace(/[()]/g, '\\$&')} `))]);
    await stopLeavesNone();
  }, 120_000);

  it('the companion stopped by its own SIGTERM with no keeper left to clean up: it ends its tcpdump and parser and leaves no record of them (its keeper then reads none)', async () => {
    onTestFinished(stopAfter);
    const { keeper, companion, pair } = await start();
    const record = await readFile('/run/k2s/capture.children', 'utf8');
    expect(record.split('\n').filter(Boolean).map((l) => l.split(' ')[0]).sort()).toEqual(pair.map((p) => String(p.pid)).sort());
    process.kill(keeper, 'SIGKILL');
    await until(captureProcs, (ps) => !ps.some((p) => p.pid === keeper), 10_000);
    process.kill(companion, 'SIGTERM');
    expect(await until(captureProcs, (ps) => ps.length === 0, 15_000)).toEqual([]);
    // Ended by its own stop (its stop line is the log's last), not by a kill.
    expect((await readFile('/run/k2s/capture.log', 'utf8')).trimEnd().split('\n').at(-1)).toMatch(/ k2s-dns capture-watch: stopped: /);
    await expect(readFile('/run/k2s/capture.children', 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 120_000);

  /** A `sleep 1000` started here (a process no part of K2s DNS started), ended after the test by its pid. */
  async function bystander(): Promise<{ pid: number; exited: () => boolean }> {
    const c = spawn('sleep', ['1000'], { stdio: 'ignore' });
    await new Promise((r) => c.once('spawn', r));
    onTestFinished(() => void (c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));
    // Ended: gone, or a zombie (proc(5) stat field 3 `Z`) not reaped yet; read from /proc, not from an exit event still to come.
    const exited = () => readFileSync(`/proc/${c.pid}/stat`, { encoding: 'utf8', flag: 'r' }).replace(/^.*\) /s, '').startsWith('Z');
    return { pid: c.pid!, exited: () => { try { return exited(); } catch { return true; } } };
  }

  /** A record line naming `pid` (its real start time) as a tcpdump of `companion` with `sumOf`'s cmdline sum. */
  const forged = async (pid: number, companion: number, sumOf: number) => `${pid} ${await processStartTime(pid)} tcpdump ${companion} ${cksumOf(await readFile(`/proc/${sumOf}/cmdline`))}\n`;

  it('a record naming a bystander (its real start time, tcpdump\'s cmdline sum): it survives the companion\'s kill -9 and a plain stop, and no line says it ended', async () => {
    onTestFinished(stopAfter);
    const by = await bystander();
    const { companion, pair } = await start();
    const tcpdumpPid = pair.find((p) => p.role === 'tcpdump')!.pid;
    await appendFile('/run/k2s/capture.children', await forged(by.pid, companion, tcpdumpPid));
    process.kill(companion, 'SIGKILL');
    const restarted = await until(() => pidIn('/run/k2s/capture.ready'), (p) => p > 0 && p !== companion);
    expect(restarted).not.toBe(companion);
    // The keeper ended the old pair (and read the whole record) before the restart.
    const { procs } = await settled([['companion', await pidIn('/run/k2s/capture.pid')], ['parser', restarted], ['tcpdump', restarted]]);
    expect(procs.map((q) => q.pid)).not.toContain(tcpdumpPid);
    expect(by.exited()).toBe(false);
    // The restarted companion wrote its own record; the bystander named in it again, for the keeper's and stop's readings at a plain stop.
    const newTcpdump = procs.find((p) => p.role === 'tcpdump')!.pid;
    await until(() => readFile('/run/k2s/capture.children', 'utf8').catch(() => ''), (t) => t.startsWith(`${newTcpdump} `) || t.includes(`\n${newTcpdump} `));
    await appendFile('/run/k2s/capture.children', await forged(by.pid, restarted, newTcpdump));
    await stopLeavesNone();
    expect(by.exited()).toBe(false);
    const log = await readFile('/run/k2s/capture.log', 'utf8');
    expect(log.split('\n').filter((l) => l.includes(`(PID ${by.pid})`))).toEqual([]);
  }, 120_000);

  it('a record that is a symlink (to a small file naming a bystander): not followed by the keeper or stop; stop exits 0 within 30 s and the bystander runs on', async () => {
    onTestFinished(stopAfter);
    onTestFinished(() => rm('/run/k2s/linked.children', { force: true }));
    const by = await bystander();
    const { companion, pair } = await start();
    await writeFile('/run/k2s/linked.children', await forged(by.pid, companion, pair.find((p) => p.role === 'tcpdump')!.pid));
    await rm('/run/k2s/capture.children');
    await symlink('linked.children', '/run/k2s/capture.children');
    const began = Date.now();
    await stopLeavesNone();
    expect(Date.now() - began).toBeLessThan(30_000);
    expect(by.exited()).toBe(false);
    expect(await readFile('/run/k2s/capture.log', 'utf8').then((l) => l.split('\n').filter((x) => x.includes(`(PID ${by.pid})`)))).toEqual([]);
  }, 120_000);
});
