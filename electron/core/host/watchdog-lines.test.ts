/**
 * The watchdog's lines in the proxy log (supervisor-script.ts), run for real over a proxy that
 * fails at once (walk5 H2, L10): each line has its local time, the give-up line counts every
 * failed run and names the start line it was given (printed as text, never run), and
 * shared/log-line.ts reads them as the watchdog's, not as dnsproxy lines. `sleep` is a no-op on
 * PATH here, so the 1 + 2 + 4 + 8 + 16 + 30 s of backoff take no time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLogLine } from '../../../shared/log-line';
import { MAX_RESTARTS, parseWatchdogState, watchdogArgv } from './supervisor-script';

const dir = mkdtempSync(join(tmpdir(), 'k2s-watchdog-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the watchdog over `sh -c 'exit 3'` with `startLine`; resolves with its log lines once it gives up. */
async function giveUp(name: string, startLine: string, epochSeconds?: number[], proxy = 'exit 3'): Promise<{ lines: string[]; state: string }> {
  const bin = join(dir, `${name}-bin`);
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  writeFileSync(join(bin, 'sleep'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  if (epochSeconds) {
    // `date +%s` answers these in turn (then the last again); any other format is the real date(1).
    writeFileSync(join(bin, 'seconds'), `${epochSeconds.join('\n')}\n`);
    writeFileSync(join(bin, 'date'), `#!/bin/sh\n[ "$1" = +%s ] || exec /bin/date "$@"\nn=$(cat "${bin}/n" 2>/dev/null || echo 1)\necho $((n + 1)) >"${bin}/n"\nsed -n "\${n}p" "${bin}/seconds" | grep . || tail -n 1 "${bin}/seconds"\n`, { mode: 0o755 });
  }
  const argv = watchdogArgv(join(dir, `${name}.pid`), join(dir, `${name}.state`), ['/bin/sh', '-c', proxy], [], startLine);
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  await new Promise((resolve) => child.once('exit', resolve));
  return { lines: out.split('\n').filter(Boolean), state: readFileSync(join(dir, `${name}.state`), 'utf8') };
}

const TIME = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}:\d{2}) k2s-dns watchdog: /;

describe('the watchdog lines in the proxy log', () => {
  it('7 failed runs: 6 timed restart lines, then a timed give-up that says 7 and names the start line', async () => {
    const before = Date.now();
    const { lines, state } = await giveUp('seven', "sudo '/tmp/k2sdns app/k2s-dns' start --engine dnsmasq");
    expect(MAX_RESTARTS).toBe(6);
    expect(lines.map((l) => l.replace(TIME, 'T k2s-dns watchdog: '))).toEqual([
      'T k2s-dns watchdog: the proxy exited with status 3; restart 1 of 6 in 1s.',
      'T k2s-dns watchdog: the proxy exited with status 3; restart 2 of 6 in 2s.',
      'T k2s-dns watchdog: the proxy exited with status 3; restart 3 of 6 in 4s.',
      'T k2s-dns watchdog: the proxy exited with status 3; restart 4 of 6 in 8s.',
      'T k2s-dns watchdog: the proxy exited with status 3; restart 5 of 6 in 16s.',
      'T k2s-dns watchdog: the proxy exited with status 3; restart 6 of 6 in 30s.',
      "T k2s-dns watchdog: the proxy failed 7 times in a row, the last 6 each within 60 s of its restart (last exit status 3); not restarting it. Fix that cause, then start K2s DNS again (Start in the window, or sudo '/tmp/k2sdns app/k2s-dns' start --engine dnsmasq): it keeps your saved original.",
    ]);
    expect(parseWatchdogState(state)).toMatchObject({ state: 'gave-up', restarts: 7, lastExit: 3 });
    // Each line's time is the local wall clock of this run (whole seconds).
    for (const l of lines) {
      const m = TIME.exec(l)!;
      const at = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), ...m[4]!.split(':').map(Number)).getTime();
      expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(at).toBeLessThanOrEqual(Date.now());
    }
  }, 60_000);

  it('the start line is printed as given: quotes, $(…) and backquotes are text, never run', async () => {
    const mark = join(dir, 'ran');
    const line = `k2s-dns start --x '$(touch ${mark})' \`touch ${mark}\` \\n %s`;
    const { lines } = await giveUp('quoted', line);
    expect(lines.at(-1)).toContain(`(Start in the window, or ${line}): it keeps`);
    expect(existsSync(mark)).toBe(false);
  }, 60_000);

  it('the log parser reads them as the watchdog\'s: its time, WARN for a restart, ERROR for the give-up; no time for an older untimed line', async () => {
    const { lines } = await giveUp('parsed', 'k2s-dns start');
    const restart = parseLogLine(lines[0]!);
    const m = TIME.exec(lines[0]!)!;
    expect(restart).toMatchObject({ time: `${m[1]}-${m[2]}-${m[3]}T${m[4]}`, level: 'WARN', message: 'k2s-dns watchdog: the proxy exited with status 3; restart 1 of 6 in 1s.', fields: {} });
    expect(parseLogLine(lines.at(-1)!)).toMatchObject({ level: 'ERROR', message: expect.stringMatching(/^k2s-dns watchdog: the proxy failed 7 times in a row/) });
    expect(parseLogLine('k2s-dns watchdog: the proxy exited with status 137; restart 1 of 6 in 1s.')).toMatchObject({ time: null, level: 'WARN', message: 'k2s-dns watchdog: the proxy exited with status 137; restart 1 of 6 in 1s.', fields: {} });
    // A dnsproxy line of the same shape stays dnsproxy's (GOLOG: INFO, its own message).
    expect(parseLogLine('2026/11/29 15:04:05 listening to udp')).toMatchObject({ time: '2026-11-29T15:04:05', level: 'INFO', message: 'listening to udp' });
  }, 60_000);

  it('a run of 60 s or more starts the row again: "restart N of 6" and the give-up count the row, the state file keeps both counts, whole', async () => {
    // `date +%s` is asked twice per failed run: as it begins, as it ends (the 60 s check uses that).
    const long = (from: number) => [from, from + 100];
    const short = (at: number) => [at, at];
    const { lines, state } = await giveUp('row', 'k2s-dns start', [...long(0), ...short(100), ...long(100), ...short(200)]);
    expect(lines.map((l) => /restart (\d) of 6|failed (\d+) times in a row/.exec(l)?.slice(1).find(Boolean))).toEqual(['1', '2', '1', '2', '3', '4', '5', '6', '7']);
    expect(state).toMatch(/^restarts=9\nin-a-row=7\nstate=gave-up\nlast-exit=3\n/);
    expect(parseWatchdogState(state)).toMatchObject({ state: 'gave-up', restarts: 9, inARow: 7, lastExit: 3 });
    // Written beside and renamed over: no half-written file, no sibling left.
    expect(existsSync(join(dir, 'row.state.new'))).toBe(false);
  }, 60_000);

  it('a proxy that exits 0 ends the watchdog: its state file says exited, with the proxy that ended (written whole)', async () => {
    const { lines, state } = await giveUp('clean', 'k2s-dns start', undefined, 'exit 0');
    expect(lines).toEqual([]);
    expect(state).toMatch(/^restarts=0\nin-a-row=0\nstate=exited\nlast-exit=0\nlast-exit-at=\d+\nlast-pid=\d+\n$/);
    expect(parseWatchdogState(state)).toMatchObject({ state: 'exited', lastExit: 0 });
    expect(existsSync(join(dir, 'clean.state.new'))).toBe(false);
  }, 60_000);
});
