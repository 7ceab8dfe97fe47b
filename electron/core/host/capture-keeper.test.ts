/**
 * The capture companion's keeper (capture-keeper.ts), run for real over a stand-in companion (a
 * sh that reads its go line, notes it with its pid, then sleeps or fails): a killed one is
 * restarted with the same go line, from the go file; one that fails at once is given up after
 * MAX_RESTARTS restarts; a keeper the pidfile does not name (prepared, never let go) restarts
 * nothing; SIGTERM ends the companion with it, and one that comes while no companion runs ends
 * the keeper before another starts. And the status words of its state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { MAX_RESTARTS } from './supervisor-script';
import { isKeeperArgv, keeperArgv, keeperGaveUpWords, keeperRestartSentence, parseKeeperState } from './capture-keeper';

const dir = mkdtempSync(join(tmpdir(), 'k2s-capture-keeper-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in companion: notes `PID GOLINE` in `notes`, then exits `fail` or sleeps. */
const companion = (notes: string, fail: number | null) => ['/bin/sh', '-c', `IFS= read -r go || exit 1; printf '%s %s\\n' "$$" "$go" >>"$0"; ${fail === null ? 'exec sleep 600' : `exit ${fail}`}`, notes];

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

/** Starts a keeper in `name`'s files; `recorded`: its pid written to the pidfile (start let it go); the go line on its stdin. */
function keeper(name: string, fail: number | null, recorded: boolean, env: NodeJS.ProcessEnv = process.env, dirs: string[] = []) {
  const f = { pid: join(dir, `${name}.pid`), state: join(dir, `${name}.state`), go: join(dir, `${name}.go`), notes: join(dir, `${name}.notes`), log: '' };
  const argv = keeperArgv(f.pid, f.state, f.go, companion(f.notes, fail), dirs);
  // stderr onto stdout's pipe (`exec … 2>&1`), as the keeper's log file has both: two pipes read
  // apart could deliver a refusal's line after the keeper's own line that follows it.
  const child = spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...argv], { stdio: ['pipe', 'pipe', 'pipe'], env });
  started.push(child);
  child.stdout!.on('data', (b) => (f.log += b));
  child.stderr!.on('data', (b) => (f.log += b));
  if (recorded) writeFileSync(f.pid, `${child.pid}\n`);
  writeFileSync(f.go, 'go ["--port","53"]\n');
  child.stdin!.end('go ["--port","53"]\n');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const notes = () => (existsSync(f.notes) ? readFileSync(f.notes, 'utf8').split('\n').filter(Boolean).map((l) => ({ pid: Number(l.split(' ')[0]), go: l.slice(l.indexOf(' ') + 1) })) : []);
  return { f, child, exited, notes };
}

describe('the capture companion keeper', () => {
  it('a companion killed (kill -9) is restarted with the same go line (the go file), and the state says which PID died and which runs', async () => {
    const k = keeper('killed', null, true);
    const [first] = await until(() => (k.notes().length === 1 ? k.notes() : null));
    expect(first!.go).toBe('go ["--port","53"]');
    process.kill(first!.pid, 'SIGKILL');
    const second = (await until(() => (k.notes().length === 2 ? k.notes() : null)))[1]!;
    expect(second.go).toBe('go ["--port","53"]');
    expect(second.pid).not.toBe(first!.pid);
    const state = parseKeeperState(await until(() => (existsSync(k.f.state) && readFileSync(k.f.state, 'utf8').includes('state=running') ? readFileSync(k.f.state, 'utf8') : null)));
    expect(state).toMatchObject({ state: 'running', restarts: 1, lastExit: 137, lastPid: first!.pid, pid: second.pid });
    expect(k.f.log).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ k2s-dns capture keeper: the companion \\(PID ${first!.pid}\\) ended with status 137; restart 1 of ${MAX_RESTARTS} in 1s\\.\\n$`));
    expect(keeperRestartSentence(state, true, () => '18:50:12')).toBe(`At 18:50:12 the exact query log's companion (PID ${first!.pid}) was found dead (killed by signal KILL (exit status 137)); its keeper restarted it as PID ${second.pid}.`);
    // SIGTERM: the companion ends with its keeper, and nothing restarts it.
    k.child.kill('SIGTERM');
    await k.exited;
    await until(() => !existsSync(`/proc/${second.pid}`) || readFileSync(`/proc/${second.pid}/stat`, 'utf8').split(' ')[2] === 'Z');
    expect(k.notes()).toHaveLength(2);
  }, 30_000);

  it('a SIGTERM while no companion runs (its restart\'s `date`, after the backoff): the keeper exits and starts none, so no companion outlives it', async () => {
    // A `date` first on PATH that, armed, blocks its Nth `date +%s` until released: the kill -9
    // below makes `ended=$(date +%s)` the 1st and the restart's `began=$(date +%s)` the 2nd.
    const bin = join(dir, 'slowdate');
    mkdirSync(bin, { recursive: true });
    const [arm, blocked, release] = ['arm', 'blocked', 'release'].map((n) => join(dir, `slowdate.${n}`)) as [string, string, string];
    writeFileSync(join(bin, 'date'), `#!/bin/sh\nif [ "$1" = +%s ] && [ -f '${arm}' ]; then n=$(($(cat '${arm}') - 1)); if [ "$n" -le 0 ]; then rm -f '${arm}'; : >'${blocked}'; while [ ! -f '${release}' ]; do /bin/sleep 0.02; done; else echo "$n" >'${arm}'; fi; fi\nexec /bin/date "$@"\n`, { mode: 0o755 });
    const k = keeper('stop-between', null, true, { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    // A failed run leaves the restarted stand-in (its `sleep 600`) to PID 1: ended by its noted pid.
    onTestFinished(() => void k.notes().slice(1).forEach((n) => process.kill(n.pid, 'SIGKILL')));
    const [first] = await until(() => (k.notes().length === 1 ? k.notes() : null));
    writeFileSync(arm, '2');
    process.kill(first!.pid, 'SIGKILL');
    await until(() => existsSync(blocked));
    // Stop's SIGTERM now (pidfile-process.ts stop), its trap with no companion to signal.
    k.child.kill('SIGTERM');
    writeFileSync(release, '');
    // Before the fix it went on to spawn a companion and waited on it, unsignalled: no exit.
    const end = await Promise.race([k.exited.then(() => 'exited'), until(() => k.notes().length > 1 && 'restarted')]);
    expect(end).toBe('exited');
    expect(k.notes()).toHaveLength(1);
  }, 30_000);

  it(`a companion that fails at once: ${MAX_RESTARTS} restarts, then it gives up (state gave-up, said with why)`, async () => {
    const bin = join(dir, 'nosleep');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'sleep'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const k = keeper('fails', 3, true, { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    expect(await k.exited).toBe(0);
    expect(k.notes()).toHaveLength(MAX_RESTARTS + 1);
    expect(new Set(k.notes().map((n) => n.go))).toEqual(new Set(['go ["--port","53"]']));
    const state = parseKeeperState(readFileSync(k.f.state, 'utf8'));
    expect(state).toMatchObject({ state: 'gave-up', restarts: MAX_RESTARTS + 1, lastExit: 3, lastPid: k.notes().at(-1)!.pid });
    expect(k.f.log.split('\n').filter(Boolean).at(-1)).toMatch(/k2s-dns capture keeper: the companion \(PID \d+\) failed 7 times in a row, the last 6 each within 60 s of its restart \(last exit status 3\); not restarting it\.$/);
    expect(keeperRestartSentence(state, false)).toBeNull();
    expect(keeperGaveUpWords(state)).toBe('; its keeper restarted it 6 times in a row, each run ending within 60 s, and gave up (the last exited with status 3)');
  }, 30_000);

  it('a companion that exits 78 (EX_CONFIG: bad flags, a restart reads the same) is not restarted, as its unit\'s RestartPreventExitStatus=78: state exited, said in its log and by status', async () => {
    const k = keeper('config', 78, true);
    expect(await k.exited).toBe(0);
    expect(k.notes()).toHaveLength(1);
    const state = parseKeeperState(readFileSync(k.f.state, 'utf8'));
    expect(state).toMatchObject({ state: 'exited', restarts: 0, lastExit: 78, lastPid: k.notes()[0]!.pid, pid: null });
    expect(k.f.log).toMatch(new RegExp(`^\\S+Z k2s-dns capture keeper: the companion \\(PID ${k.notes()[0]!.pid}\\) ended with status 78 \\(its flags are bad, and a restart reads the same go line\\); not restarting it\\.\\n$`));
    expect(keeperRestartSentence(state, false)).toBeNull();
    expect(keeperGaveUpWords(state)).toBe('; its keeper did not restart it: its last run exited with status 78, its flags being bad (a restart reads the same; the next start of K2s DNS writes them)');
    // Another status is restarted (the test above: 3, given up only after MAX_RESTARTS); a clean exit 0 is no stop to explain.
    expect(keeperGaveUpWords(parseKeeperState('restarts=0\nstate=exited\nlast-exit=0\nlast-exit-at=1764961812\nlast-pid=4100\npid=\n'))).toBe('');
  }, 30_000);

  it('a directory root writes that became writable by others: no restart (state refused), said with the directory', async () => {
    const bin = join(dir, 'nosleep');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'sleep'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const open = join(dir, 'open-dir');
    mkdirSync(open, { recursive: true });
    chmodSync(open, 0o777);
    const k = keeper('refused', 3, true, { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` }, [open]);
    expect(await k.exited).toBe(0);
    expect(k.notes()).toHaveLength(1);
    const state = parseKeeperState(readFileSync(k.f.state, 'utf8'));
    expect(state).toMatchObject({ state: 'refused', restarts: 1, lastExit: 3 });
    expect(k.f.log).toContain(`k2s-dns: NOT_ROOT_OWNED: ${open} is writable by group or others`);
    expect(k.f.log).toMatch(/k2s-dns capture keeper: not restarting the companion: a directory it writes is not root's alone \(the line above\)\.\n$/);
    expect(keeperGaveUpWords(state)).toBe("; its keeper did not restart it: a directory it writes is not root's alone (/run/k2s/capture.log says which)");
    expect(() => keeperArgv('/p', '/s', '/g', ['x'], ['/a:b'])).toThrow(/has a colon/);
  }, 30_000);

  /**
   * A keeper whose stand-in companion notes its autogroup's nice, and on its first run sets the
   * group to 19 and fails (a companion that ended without its stop's goNormal: tcpdump ended, or
   * kill -9). `leads`: the keeper is a session leader (as start runs it, detached); else it runs
   * under a detached sh that leads the session (a keeper that is not the session's).
   */
  async function autogroupKeeper(name: string, leads: boolean): Promise<{ nices: number[]; session: number }> {
    const f = { pid: join(dir, `${name}.pid`), state: join(dir, `${name}.state`), go: join(dir, `${name}.go`), notes: join(dir, `${name}.notes`) };
    // The stand-in companion leaves its group at nice 5, not the tree's 19: a session at 19 on a
    // machine busy with the rest of the suite would wait seconds for the CPU the restart needs.
    const stand = ['/bin/sh', '-c', 'IFS= read -r go || exit 1; read -r ag </proc/self/autogroup; printf "%s\\n" "${ag##* }" >>"$0"; [ -e "$0.once" ] && exec sleep 600; : >"$0.once"; echo 5 >/proc/self/autogroup; exit 3', f.notes];
    const argv = keeperArgv(f.pid, f.state, f.go, stand);
    // Not a leader: an outer sh leads the session and runs the keeper as its child (pid noted first).
    const outer = leads ? ['/bin/sh', '-c', 'echo $$; exec "$@"', 'sh', ...argv] : ['/bin/sh', '-c', '"$@" & echo $!; wait', 'sh', ...argv];
    writeFileSync(f.go, 'go ["--port","53"]\n');
    const child = spawn(outer[0]!, outer.slice(1), { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    started.push(child);
    const keeperPid = await new Promise<number>((r) => child.stdout!.once('data', (b: Buffer) => r(Number(b.toString().split('\n')[0]))));
    writeFileSync(f.pid, `${keeperPid}\n`);
    child.stdin!.end('go ["--port","53"]\n');
    const nices = await until(() => (existsSync(f.notes) && readFileSync(f.notes, 'utf8').split('\n').filter(Boolean).length === 2 ? readFileSync(f.notes, 'utf8').split('\n').filter(Boolean).map(Number) : null));
    // The session's group (this test started it, a session of its own): ended with its processes.
    process.kill(-child.pid!, 'SIGKILL');
    return { nices, session: child.pid! };
  }

  it.skipIf(!existsSync('/proc/self/autogroup'))('a companion that left its session\'s autogroup niced (ended without its stop): the restarted one starts at 0, as the first did', async () => {
    expect((await autogroupKeeper('autogroup', true)).nices).toEqual([0, 0]);
  }, 30_000);

  it.skipIf(!existsSync('/proc/self/autogroup'))('a keeper that does not lead its session leaves that session\'s autogroup as it is', async () => {
    expect((await autogroupKeeper('autogroup-not-leader', false)).nices).toEqual([0, 5]);
  }, 30_000);

  it('a keeper the pidfile does not name (prepared, never let go) restarts nothing and writes no state', async () => {
    const k = keeper('unrecorded', 1, false);
    expect(await k.exited).toBe(0);
    expect(k.notes()).toHaveLength(1);
    expect(existsSync(k.f.state)).toBe(false);
    expect(k.f.log).toBe('');
  }, 30_000);

  it('recognises its own argv, not a companion or the proxy watchdog', () => {
    expect(isKeeperArgv(keeperArgv('/p', '/s', '/g', ['/usr/bin/node', '/app/cli.cjs', 'capture-watch', '--held']))).toBe(true);
    expect(isKeeperArgv(['/usr/bin/node', '/app/cli.cjs', 'capture-watch', '--held'])).toBe(false);
    expect(isKeeperArgv(['/bin/sh', '-c', 'x', 'k2s-dnsproxy-watchdog'])).toBe(false);
  });

  it('no sentence before a restart, or for another state file', () => {
    expect(keeperRestartSentence(null, true)).toBeNull();
    expect(keeperRestartSentence(parseKeeperState(''), true)).toBeNull();
    const restarting = parseKeeperState('restarts=2\nstate=restarting\nlast-exit=1\nlast-exit-at=1764961812\nlast-pid=4100\npid=\n');
    expect(keeperRestartSentence(restarting, false, () => '18:50:12')).toBe(`At 18:50:12 the exact query log's companion (PID 4100) exited with status 1; its keeper restarts it (restart 2 of ${MAX_RESTARTS} in a row).`);
  });
});
