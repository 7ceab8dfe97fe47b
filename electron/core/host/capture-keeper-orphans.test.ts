/**
 * The capture keeper (capture-keeper.ts) ends what a killed companion left: run for real over a
 * stand-in companion (a sh that reads its go line, starts a child as the companion starts tcpdump,
 * records it as capture/children-file.ts does, then sleeps). A companion killed with kill -9
 * leaves that child to PID 1; the keeper SIGKILLs it before the restart, by its recorded pid and
 * start time, never a process whose start time is not the recorded one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keeperArgv } from './capture-keeper';
import { processStartTime } from '../capture/hold-wait';
import { cksumOf } from '../capture/children-file';

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
 * `$1` as capture/children-file.ts does: its child (real start time, cksum of its cmdline), `$2`
 * as a "parser" of start time 1 (not that process's), the bystander `$3` with its real start time
 * but its child's cmdline sum (a record naming another process), and `$4` as the tcpdump of an
 * earlier companion, PID 777 (its real start time and sum; gone on the restart's run); notes
 * `PID CHILD` in `$0`, then becomes `sleep 600` itself.
 */
const companion = (notes: string, record: string, decoy: number, bystander: number, earlier: number) => [
  '/bin/sh',
  '-c',
  [
    'IFS= read -r go || exit 1; rec=$1; decoy=$2; byst=$3; old=$4',
    'st() { s=$(cat /proc/$1/stat 2>/dev/null) || return 0; set -- ${s##*)}; printf %s "${20}"; }',
    'sleep 600 & c=$!',
    // Its cmdline is sleep's once the forked shell has exec'd it.
    'until [ "$(tr "\\0" " " </proc/$c/cmdline)" = "sleep 600 " ]; do :; done',
    'sum=$(cksum </proc/$c/cmdline)',
    'printf "%s %s tcpdump %s %s\\n%s 1 parser %s %s\\n%s %s tcpdump %s %s\\n%s %s tcpdump 777 %s\\n" "$c" "$(st $c)" "$$" "$sum" "$decoy" "$$" "$(cksum </proc/$decoy/cmdline)" "$byst" "$(st $byst)" "$$" "$sum" "$old" "$(st $old)" "$(cksum </proc/$old/cmdline 2>/dev/null)" >"$rec"',
    'printf "%s %s\\n" "$$" "$c" >>"$0"; exec sleep 600',
  ].join('\n'),
  notes,
  record,
  String(decoy),
  String(bystander),
  String(earlier),
];

/** A `sleep ARG` started here, once it runs. */
async function sleeper(arg: string): Promise<ChildProcess> {
  const c = spawn('sleep', [arg], { stdio: 'ignore' });
  started.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c;
}

/** What the record says of `pid`: `PID STARTTIME ROLE COMPANION CRC LENGTH`. */
const lineOf = async (pid: number, role: string, companionPid: number) => `${pid} ${await processStartTime(pid)} ${role} ${companionPid} ${cksumOf(readFileSync(`/proc/${pid}/cmdline`))}\n`;

describe('the capture keeper ends what a killed companion left', () => {
  it('a companion killed (kill -9): its recorded children with their recorded argv are SIGKILLed before the restart and said in the log, naming the companion that recorded each; a recorded pid with another start time, or with another argv (a bystander), is left alone; SIGTERM ends the last one\'s too', async () => {
    const [decoy, bystander, earlier] = [await sleeper('600'), await sleeper('1000'), await sleeper('600')];
    const f = { pid: join(dir, 'k.pid'), state: join(dir, 'k.state'), go: join(dir, 'k.go'), notes: join(dir, 'k.notes'), record: join(dir, 'capture.children'), log: '' };
    const argv = keeperArgv(f.pid, f.state, f.go, companion(f.notes, f.record, decoy.pid!, bystander.pid!, earlier.pid!), [], '', f.record);
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
    const sum = cksumOf(readFileSync(`/proc/${firstChild}/cmdline`));
    expect(readFileSync(f.record, 'utf8')).toBe(`${await lineOf(firstChild, 'tcpdump', first)}${decoy.pid} 1 parser ${first} ${cksumOf(readFileSync(`/proc/${decoy.pid}/cmdline`))}\n${bystander.pid} ${await processStartTime(bystander.pid!)} tcpdump ${first} ${sum}\n${await lineOf(earlier.pid!, 'tcpdump', 777)}`);
    process.kill(first, 'SIGKILL');
    const [, [second, secondChild]] = (await until(() => (notes().length === 2 ? notes() : null))) as [[number, number], [number, number]];
    strays.push([second, startOf(second)], [secondChild, startOf(secondChild)]);
    // Ended before the restart (the restart came 1 s after the kill): at most its reaping by PID 1 is left.
    expect(ended(firstChild), `the killed companion's child ${firstChild}`).toBe(true);
    expect(ended(earlier.pid!), `the earlier companion's child ${earlier.pid}`).toBe(true);
    expect(ended(decoy.pid!), 'the pid recorded with another start time').toBe(false);
    expect(ended(bystander.pid!), 'the bystander recorded with another argv').toBe(false);
    const stamp = '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ k2s-dns capture keeper: ';
    expect(f.log.split('\n').filter((l) => l.includes(' left its '))).toEqual([
      expect.stringMatching(new RegExp(`${stamp}the companion \\(PID ${first}\\) left its tcpdump \\(PID ${firstChild}\\) running; ended it \\(SIGKILL\\)\\.$`)),
      expect.stringMatching(new RegExp(`${stamp}the companion \\(PID 777\\) left its tcpdump \\(PID ${earlier.pid}\\) running; ended it \\(SIGKILL\\)\\.$`)),
    ]);
    // The restarted one's own record replaced the old one (the keeper removed that).
    expect(readFileSync(f.record, 'utf8').split('\n')[0]).toBe((await lineOf(secondChild, 'tcpdump', second)).trimEnd());
    expect(second).not.toBe(first);
    // SIGTERM (a stop): the companion ends, and its child, which nothing else would end here, with it.
    child.kill('SIGTERM');
    await exited;
    await until(() => ended(secondChild));
    expect(existsSync(f.record)).toBe(false);
    expect(ended(decoy.pid!)).toBe(false);
    expect(ended(bystander.pid!), 'the bystander, after the stop').toBe(false);
    // The stand-in does not end its child on SIGTERM: the keeper did, and said so; never the bystander.
    expect(f.log.split('\n').filter((l) => l.includes(' left its ')).slice(2)).toEqual([
      expect.stringMatching(new RegExp(`${stamp}the companion \\(PID ${second}\\) left its tcpdump \\(PID ${secondChild}\\) running; ended it \\(SIGKILL\\)\\.$`)),
    ]);
  }, 30_000);

  it('a record that is a symlink is not read: what it names is not signalled, and the link stays for stop to remove', async () => {
    const target = await sleeper('600');
    const f = { pid: join(dir, 'l.pid'), state: join(dir, 'l.state'), go: join(dir, 'l.go'), record: join(dir, 'l.children'), elsewhere: join(dir, 'l.elsewhere'), log: '' };
    writeFileSync(f.elsewhere, await lineOf(target.pid!, 'tcpdump', 777));
    symlinkSync(f.elsewhere, f.record);
    // A companion that reads its go line and exits 0: the keeper ends its children, then itself.
    const argv = keeperArgv(f.pid, f.state, f.go, ['/bin/sh', '-c', 'IFS= read -r go; exit 0'], [], '', f.record);
    const child = spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...argv], { stdio: ['pipe', 'pipe', 'ignore'] });
    started.push(child);
    child.stdout!.on('data', (b) => (f.log += b));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    writeFileSync(f.pid, `${child.pid}\n`);
    child.stdin!.end('go ["--port","53"]\n');
    expect(await exited).toBe(0);
    expect(ended(target.pid!)).toBe(false);
    expect(f.log).toBe('');
    expect(lstatSync(f.record).isSymbolicLink()).toBe(true);
  }, 30_000);
});
