/**
 * The capture keeper (capture-keeper.ts) ends what a killed companion left: run for real over a
 * stand-in companion (a sh that reads its go line, starts a child as the companion starts tcpdump,
 * records it as capture/children-file.ts does, then sleeps). A companion killed with kill -9
 * leaves that child to PID 1; the keeper SIGKILLs it before the restart, by its recorded pid and
 * start time, never a process whose start time is not the recorded one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keeperArgv } from './capture-keeper';
import { processStartTime } from '../capture/hold-wait';

const dir = mkdtempSync(join(tmpdir(), 'k2s-capture-keeper-orphans-'));
const started: ChildProcess[] = [];
/** The stand-ins and their children (pid, start time), ended here should an assertion fail first: only while still that process. */
const strays: [number, string | null][] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const [pid, start] of strays) {
    if (start === null || startOf(pid) !== start) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** /proc/PID/stat field 22 (proc(5)), null when gone. */
function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Polls `check` every 20 ms until it holds (deadline 15 s on a busy machine). */
async function until<T>(check: () => T | null | undefined | false): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Gone, or a zombie not reaped yet (proc(5) stat field 3 `Z`): ended. */
function ended(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/**
 * A stand-in companion: reads its go line, starts `sleep 600` (its "tcpdump"), writes the record
 * `$1` with it (its real start time) and with `$2` as a "parser" of start time 1 (not that
 * process's), notes `PID CHILD` in `$0`, then becomes `sleep 600` itself.
 */
const companion = (notes: string, record: string, decoy: number) => [
  '/bin/sh',
  '-c',
  'IFS= read -r go || exit 1; rec=$1; decoy=$2; sleep 600 & c=$!; s=$(cat /proc/$c/stat); set -- ${s##*)}; printf "%s %s tcpdump\\n%s 1 parser\\n" "$c" "${20}" "$decoy" >"$rec"; printf "%s %s\\n" "$$" "$c" >>"$0"; exec sleep 600',
  notes,
  record,
  String(decoy),
];

describe('the capture keeper ends what a killed companion left', () => {
  it('a companion killed (kill -9): its recorded child is SIGKILLed before the restart and said in the log; a recorded pid with another start time is left alone; SIGTERM ends the last one\'s too', async () => {
    const decoy = spawn('sleep', ['600'], { stdio: 'ignore' });
    started.push(decoy);
    await new Promise((r) => decoy.once('spawn', r));
    const f = { pid: join(dir, 'k.pid'), state: join(dir, 'k.state'), go: join(dir, 'k.go'), notes: join(dir, 'k.notes'), record: join(dir, 'capture.children'), log: '' };
    const argv = keeperArgv(f.pid, f.state, f.go, companion(f.notes, f.record, decoy.pid!), [], '', f.record);
    const child = spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...argv], { stdio: ['pipe', 'pipe', 'ignore'] });
    started.push(child);
    child.stdout!.on('data', (b) => (f.log += b));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    writeFileSync(f.pid, `${child.pid}\n`);
    writeFileSync(f.go, 'go ["--port","53"]\n');
    child.stdin!.end('go ["--port","53"]\n');
    const notes = () => (existsSync(f.notes) ? readFileSync(f.notes, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ').map(Number) as [number, number]) : []);
    const [[first, firstChild]] = (await until(() => (notes().length === 1 ? notes() : null))) as [[number, number]];
    strays.push([first, startOf(first)], [firstChild, startOf(firstChild)]);
    expect(readFileSync(f.record, 'utf8')).toBe(`${firstChild} ${await processStartTime(firstChild)} tcpdump\n${decoy.pid} 1 parser\n`);
    process.kill(first, 'SIGKILL');
    const [, [second, secondChild]] = (await until(() => (notes().length === 2 ? notes() : null))) as [[number, number], [number, number]];
    strays.push([second, startOf(second)], [secondChild, startOf(secondChild)]);
    // Ended before the restart (the restart came 1 s after the kill): at most its reaping by PID 1 is left.
    expect(ended(firstChild), `the killed companion's child ${firstChild}`).toBe(true);
    expect(ended(decoy.pid!), 'the pid recorded with another start time').toBe(false);
    expect(f.log.split('\n').filter((l) => l.includes(' left its '))).toEqual([expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ k2s-dns capture keeper: the companion \\(PID ${first}\\) left its tcpdump \\(PID ${firstChild}\\) running; ended it \\(SIGKILL\\)\\.$`))]);
    // The restarted one's own record replaced the old one (the keeper removed that).
    expect(readFileSync(f.record, 'utf8')).toBe(`${secondChild} ${await processStartTime(secondChild)} tcpdump\n${decoy.pid} 1 parser\n`);
    expect(second).not.toBe(first);
    // SIGTERM (a stop): the companion ends, and its child, which nothing else would end here, with it.
    child.kill('SIGTERM');
    await exited;
    await until(() => ended(secondChild));
    expect(existsSync(f.record)).toBe(false);
    expect(ended(decoy.pid!)).toBe(false);
  }, 30_000);
});
