import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_FAILED_FILE, CAPTURE_FLAGS_FILE, CAPTURE_HOLD_FILE, CAPTURE_MISSED_FILE, CAPTURE_READY_FILE, CAPTURE_UNWRITTEN_FILE } from '../capture/capture-args';
import { awaitHold, processStartTime } from '../capture/hold-wait';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { exactQueryLog } from '../capture/exact-log';
import { CAPTURE_PID_FILE, rememberStartFailure, supervisedCapture, systemdCapture } from './capture-companion';
import { keeperArgv } from './capture-keeper';
import { createHostFs } from './host-fs-node';
import { companionUp, fakeSystemctl, SYSTEMD_ARGV, systemdRoot } from './capture-companion.fixture';
import { systemdReload } from './systemd-reload';

describe('capture companion: a start that fails is remembered until the next start', () => {
  let root = '';
  afterEach(async () => root && rm(root, { recursive: true, force: true }));

  it('leaves capture.failed with the time and why, which the exact log then shows instead of nothing', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    await fs.mkdirp(path.dirname(CAPTURE_FAILED_FILE), 0o755);
    const failing = rememberStartFailure(fs, async () => {
      throw new Error('the capture did not open within 12 s: 2026-12-02T03:00:00.000Z k2s-dns capture-watch: tcpdump did not open the capture within 10 s: tcpdump printed nothing');
    }, () => new Date('2026-12-02T03:00:12.000Z'));
    await expect(failing).rejects.toThrow('tcpdump printed nothing');
    const line = await readFile(fs.real(CAPTURE_FAILED_FILE), 'utf8');
    expect(line).toBe('2026-12-02T03:00:12.000Z the capture did not start: the capture did not open within 12 s: 2026-12-02T03:00:00.000Z k2s-dns capture-watch: tcpdump did not open the capture within 10 s: tcpdump printed nothing\n');
    const log = await exactQueryLog(path.join(root, 'none.jsonl'), 10, 'adguard', async () => '/usr/bin/tcpdump', { failed: fs.real(CAPTURE_FAILED_FILE) });
    expect(log).toMatchObject({ available: false, rows: [], reason: expect.stringMatching(/^The exact query log stopped at 2026-12-02T03:00:12.000Z: the capture did not start: .*tcpdump printed nothing\./) });
  });

  it('a start that succeeds writes nothing', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    await rememberStartFailure(fs, async () => undefined);
    expect(await fs.lstat(CAPTURE_FAILED_FILE)).toBeFalsy();
  });
});


describe('capture companion: stop', () => {
  let root = '';
  afterEach(async () => root && rm(root, { recursive: true, force: true }));

  it("removes the run's missed packets (capture.missed), so a start without the log does not say them", async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    await fs.mkdirp(path.dirname(CAPTURE_MISSED_FILE), 0o755);
    await fs.writeFileAtomic(CAPTURE_MISSED_FILE, 'dropped=7\nsince=2026-12-05T07:40:12.000Z\nat=2026-12-05T07:40:17.000Z\nidle=1\n', { mode: 0o644 });
    expect(await fs.lstat(CAPTURE_MISSED_FILE)).toBeTruthy();
    await supervisedCapture(fs, path.join(root, 'proc')).stop();
    expect(await fs.lstat(CAPTURE_MISSED_FILE)).toBeFalsy();
  });

  it("removes the run's unwritten rows (capture.unwritten), so a later start without the log does not say them", async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    await fs.mkdirp(path.dirname(CAPTURE_UNWRITTEN_FILE), 0o755);
    await fs.writeFileAtomic(CAPTURE_UNWRITTEN_FILE, '12 rows not written (no space left on /var/log/dnsproxy)\n', { mode: 0o644 });
    expect((await readFile(fs.real(CAPTURE_UNWRITTEN_FILE), 'utf8')).trim()).toBe('12 rows not written (no space left on /var/log/dnsproxy)');
    await supervisedCapture(fs, path.join(root, 'proc')).stop();
    expect(await fs.lstat(CAPTURE_UNWRITTEN_FILE)).toBeFalsy();
  });

  it('systemd: start writes and links the unit, reloads only for a file the manager does not hold, and restarts it in the job mode that ignores Requisite= (the proxy is not running yet)', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { fs, procDir } = r;
    const argv = SYSTEMD_ARGV;
    let pid = 4242;
    const { exec, calls } = fakeSystemctl(fs, () => companionUp(fs, procDir, pid++));
    const cap = systemdCapture(fs, exec, procDir);
    const restart = 'systemctl restart --job-mode=ignore-requirements k2s-dnsproxy-capture.service';
    const reset = 'systemctl reset-failed k2s-dnsproxy-capture.service';
    const show = 'systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy-capture.service';
    // The first start: the file written, linked (WantedBy=k2s-dnsproxy.service: boot pulls it in), one reload.
    await cap.start(argv);
    expect(calls.filter((c) => c !== reset)).toEqual(['systemctl daemon-reload', restart]);
    expect(calls).toContain(reset);
    // The link made in-process (unit-links.ts), as `systemctl enable` makes it.
    expect(await fs.readlink('/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-capture.service')).toBe(K2S_PATHS.captureUnit);
    expect((await readFile(fs.real(CAPTURE_READY_FILE), 'utf8')).trim()).toBe('4242');
    // The next (a new process: the manager is asked): unchanged and linked, no reload.
    calls.length = 0;
    await systemdCapture(fs, exec, procDir).start(argv);
    expect(calls.filter((c) => c !== reset)).toEqual([show, restart]);
    expect((await readFile(fs.real(CAPTURE_READY_FILE), 'utf8')).trim()).toBe('4243');
    // Unlinked (a stop disables it): linked again, still no reload.
    await fs.remove('/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-capture.service');
    calls.length = 0;
    await systemdCapture(fs, exec, procDir).start(argv);
    // The manager's question is asked alongside the link (a reload would wait for it).
    expect(calls.filter((c) => c !== reset)).toEqual([show, restart]);
    expect(await fs.readlink('/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-capture.service')).toBe(K2S_PATHS.captureUnit);
    // Other ports: only the flags file changes (the unit runs `--flags-file`), no reload before the restart.
    const unitBefore = await readFile(fs.real(K2S_PATHS.captureUnit), 'utf8');
    expect(unitBefore).toContain(`capture-watch --flags-file ${fs.real(CAPTURE_FLAGS_FILE)}\n`);
    expect(await readFile(fs.real(CAPTURE_FLAGS_FILE), 'utf8')).toBe('go ["--listen","127.0.0.1:53","--port","53"]\n');
    calls.length = 0;
    await systemdCapture(fs, exec, procDir).start([...argv, '--port', '5353']);
    expect(calls.filter((c) => c !== reset)).toEqual([show, restart]);
    expect(await readFile(fs.real(K2S_PATHS.captureUnit), 'utf8')).toBe(unitBefore);
    expect(await readFile(fs.real(CAPTURE_FLAGS_FILE), 'utf8')).toBe('go ["--listen","127.0.0.1:53","--port","53","--port","5353"]\n');
    expect((await stat(fs.real(CAPTURE_FLAGS_FILE))).mode & 0o777).toBe(0o600);
  });

  it('systemd prepare: only over the unit as start writes it and with no state file; restarts it held (the hold names this process), start then writes the flags, then go, and restarts nothing', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { fs, procDir } = r;
    const argv = SYSTEMD_ARGV;
    const base = argv.slice(0, 3);
    let pid = 5000;
    /** What the fake unit's companion read when it went: the hold's verdict and the flags file then. */
    const went: string[] = [];
    let failRestarts = 0;
    /** The unit's MainPID (0: none running). */
    let mainPid = 0;
    const { exec, calls } = fakeSystemctl(fs, async () => {
      if (failRestarts-- > 0) return { code: 1, stdout: '', stderr: 'Job failed.' };
      const me = pid++;
      // The unit's companion (Type=simple: running once the restart returned) does what capture-main.ts does: the hold first.
      await mkdir(path.join(procDir, String(me)), { recursive: true });
      await writeFile(path.join(procDir, String(me), 'cmdline'), `${argv.join('\0')}\0`);
      mainPid = me;
      void (async () => {
        const verdict = await awaitHold(fs.real(CAPTURE_HOLD_FILE), '/proc', 20, 30_000);
        if (mainPid !== me) return; // killed meanwhile
        went.push(`${verdict} ${(await readFile(fs.real(CAPTURE_FLAGS_FILE), 'utf8').catch(() => 'no flags')).trim()}`);
        if (verdict === 'drop') return void (mainPid = 0);
        // Only its ready file: its cmdline was written at the restart, and writing it again (truncate,
        // then write) would let start's MainPID check read it empty and restart the companion.
        await fs.writeFileAtomic(CAPTURE_READY_FILE, `${me}\n`, { mode: 0o644 });
      })();
    }, () => mainPid);
    const restart = 'systemctl restart --job-mode=ignore-requirements k2s-dnsproxy-capture.service';
    const reset = 'systemctl reset-failed k2s-dnsproxy-capture.service';
    // The first start after install: no unit file yet — prepare refuses, having written and run nothing.
    await expect(systemdCapture(fs, exec, procDir).prepare!(base)).rejects.toThrow(/not written/);
    expect(calls).toEqual([]);
    expect(await fs.lstat(CAPTURE_HOLD_FILE)).toBeFalsy();
    await systemdCapture(fs, exec, procDir).start(argv);
    await systemdCapture(fs, exec, procDir).stop();
    expect(await fs.lstat(K2S_PATHS.captureUnit)).toBeTruthy(); // stop keeps the unit file, unlinked
    // A state file (K2s DNS running, or a start half-done): refused, the running capture untouched.
    await fs.mkdirp(path.dirname(K2S_PATHS.stateFile), 0o755);
    await fs.writeFileAtomic(K2S_PATHS.stateFile, '{}', { mode: 0o600 });
    calls.length = 0;
    await expect(systemdCapture(fs, exec, procDir).prepare!(base)).rejects.toThrow(/state file/);
    expect(calls).toEqual([]);
    await fs.remove(K2S_PATHS.stateFile);
    // Held: the hold names this process; the restart runs without waiting for start.
    went.length = 0;
    calls.length = 0;
    const cap = systemdCapture(fs, exec, procDir);
    const held = await cap.prepare!(base);
    expect((await readFile(fs.real(CAPTURE_HOLD_FILE), 'utf8'))).toBe(`hold ${process.pid} ${await processStartTime('self')}\n`);
    expect(held.process.exited()).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(went).toEqual([]); // held: it has not read its flags
    let letGo = 0;
    await cap.start([...argv, '--port', '5353'], { base: held.base, process: { ...held.process, letGo: () => void letGo++ } });
    // The flags were on disk before the go; one restart in all (prepare's), no reload, no second restart.
    expect(went).toEqual(['go go ["--listen","127.0.0.1:53","--port","53","--port","5353"]']);
    expect(letGo).toBe(1);
    expect(calls.filter((c) => c === restart)).toEqual([restart]);
    expect(calls).not.toContain(reset); // a restart that is not refused needs none
    expect(calls).not.toContain('systemctl daemon-reload');
    expect((await readFile(fs.real(CAPTURE_READY_FILE), 'utf8')).trim()).toBe(String(pid - 1));
    held.process.drop(); // start.ts's finally drops it always: a no-op once let go
    expect(await readFile(fs.real(CAPTURE_HOLD_FILE), 'utf8')).toBe('go\n');
    await cap.stop();
    expect(await fs.lstat(CAPTURE_HOLD_FILE)).toBeFalsy();
    // Dropped (a refused start): the held companion reads `drop` and ends, flags unread.
    went.length = 0;
    const cap2 = systemdCapture(fs, exec, procDir);
    const dropped = await cap2.prepare!(base);
    dropped.process.drop();
    expect(dropped.process.exited()).toBe(true);
    for (const deadline = Date.now() + 30_000; went.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    expect(went[0]).toMatch(/^drop /);
    // Its restart refused once (a unit at its start limit): reset, restarted again, still held.
    failRestarts = 1;
    went.length = 0;
    calls.length = 0;
    const cap3 = systemdCapture(fs, exec, procDir);
    await cap3.start(argv, await cap3.prepare!(base));
    expect(calls.filter((c) => c === restart || c === reset)).toEqual([restart, reset, restart]);
    expect(went).toEqual(['go go ["--listen","127.0.0.1:53","--port","53"]']);
    expect(await readFile(fs.real(CAPTURE_HOLD_FILE), 'utf8')).toBe('go\n');
    // Refused twice: prepare gives up; start restarts it itself (no hold in the way).
    failRestarts = 2;
    went.length = 0;
    calls.length = 0;
    const cap4 = systemdCapture(fs, exec, procDir);
    await cap4.start(argv, await cap4.prepare!(base));
    expect(calls.filter((c) => c === restart)).toEqual([restart, restart, restart]);
    expect(await fs.lstat(CAPTURE_HOLD_FILE)).toBeFalsy();
    expect(went).toEqual(['go go ["--listen","127.0.0.1:53","--port","53"]']);
    await cap4.stop();
    mainPid = 0; // stopped
    // The manager holds an older file of the unit (read before this one was written), as the
    // question asked after prepare says (start's preflight asks it with the proxy's status):
    // prepare asks nothing, start reloads without a question of its own and restarts the held one
    // again, still held, before the go — the flags reach a companion of the current file.
    const unitText = await fs.readFile(K2S_PATHS.captureUnit);
    await fs.writeFileAtomic(K2S_PATHS.captureUnit, '[Unit]\nDescription=older\n', { mode: 0o644 });
    await exec.run('systemctl', ['daemon-reload']);
    await fs.writeFileAtomic(K2S_PATHS.captureUnit, unitText, { mode: 0o644 });
    went.length = 0;
    calls.length = 0;
    const reload = systemdReload(exec);
    const cap6 = systemdCapture(fs, exec, procDir, reload);
    const held6 = await cap6.prepare!(base);
    await reload.ask(['k2s-dnsproxy-capture.service']);
    await cap6.start(argv, held6);
    const show = 'systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy-capture.service';
    expect(calls.filter((c) => c === restart || c === show || c === 'systemctl daemon-reload')).toEqual([restart, show, 'systemctl daemon-reload', restart]);
    expect(went).toEqual(['go go ["--listen","127.0.0.1:53","--port","53"]']);
    expect(await readFile(fs.real(CAPTURE_HOLD_FILE), 'utf8')).toBe('go\n');
    await cap6.stop();
    mainPid = 0;
    // The held companion killed -9 before its go (systemd's own restart of it fails on Requisite=:
    // no MainPID): start restarts it itself at once, where it waited 12 s for a ready file and
    // failed (the failed file, and a rejected start).
    went.length = 0;
    calls.length = 0;
    const cap5 = systemdCapture(fs, exec, procDir);
    const killed = await cap5.prepare!(base);
    for (const deadline = Date.now() + 30_000; mainPid === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    await rm(path.join(procDir, String(mainPid)), { recursive: true });
    mainPid = 0;
    await cap5.start(argv, killed);
    expect(calls.filter((c) => c === restart)).toEqual([restart, restart]);
    expect(went).toEqual(['go go ["--listen","127.0.0.1:53","--port","53"]']);
    expect((await readFile(fs.real(CAPTURE_READY_FILE), 'utf8')).trim()).toBe(String(mainPid));
    expect(await fs.lstat(CAPTURE_FAILED_FILE)).toBeFalsy();
  });

  it('systemd: start waits for the ready file of a companion that runs, not one a SIGKILL left behind', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { fs, procDir } = r;
    const argv = SYSTEMD_ARGV;
    // Left by a companion killed -9: pid 999 has no /proc entry.
    await fs.writeFileAtomic(CAPTURE_READY_FILE, '999\n', { mode: 0o644 });
    /** Set as the running companion writes its ready file. */
    let liveWritten = false;
    // The unit's companion opens its capture after `systemctl restart` returned (Type=simple).
    const { exec } = fakeSystemctl(fs, async () => {
      setImmediate(() => {
        liveWritten = true;
        void companionUp(fs, procDir, 4545);
      });
    });
    await systemdCapture(fs, exec, procDir).start(argv);
    expect(liveWritten).toBe(true);
    expect((await readFile(fs.real(CAPTURE_READY_FILE), 'utf8')).trim()).toBe('4545');
  });

  it('systemd: stop removes the run\'s missed packets and unwritten rows, after the unit stopped', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    await fs.mkdirp(path.dirname(CAPTURE_UNWRITTEN_FILE), 0o755);
    await fs.mkdirp(path.dirname(K2S_PATHS.captureUnit), 0o755);
    await fs.writeFileAtomic(K2S_PATHS.captureUnit, '[Unit]\n', { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_UNWRITTEN_FILE, '3 rows not written (no space left on /var/log/dnsproxy)\n', { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_MISSED_FILE, 'dropped=7\nsince=2026-12-05T07:40:12.000Z\nat=2026-12-05T07:40:17.000Z\nidle=1\n', { mode: 0o644 });
    // Which files were still there when each systemctl ran: the unit is stopped before its files go.
    const calls: string[] = [];
    const exec = { run: async (file: string, args: readonly string[]) => {
      calls.push(`${file} ${args.join(' ')} unwritten=${(await fs.lstat(CAPTURE_UNWRITTEN_FILE)) ? 'yes' : 'no'}`);
      return { code: 0, stdout: '', stderr: '' };
    } };
    const link = '/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-capture.service';
    await fs.mkdirp(path.dirname(link), 0o755);
    await fs.symlinkAtomic(link, K2S_PATHS.captureUnit);
    await systemdCapture(fs, exec).stop();
    expect(calls).toEqual(['systemctl stop k2s-dnsproxy-capture.service unwritten=yes']);
    // Its link removed in-process, as `systemctl --root=/ disable` would.
    expect(await fs.lstat(link)).toBeNull();
    expect(await fs.lstat(CAPTURE_UNWRITTEN_FILE)).toBeFalsy();
    expect(await fs.lstat(CAPTURE_MISSED_FILE)).toBeFalsy();
    // stoppedWithProxy (stop, after the proxy's stop left the unit out and unlinked it), the unit
    // without a process (cgroup v2 without its cgroup: inactive, or waiting out RestartSec=): no
    // process signalled; its stop queued (--no-block, so a pending restart is not made), its files gone.
    await fs.mkdirp('/sys/fs/cgroup/system.slice', 0o755);
    await fs.writeFileAtomic(CAPTURE_UNWRITTEN_FILE, '1 row not written\n', { mode: 0o644 });
    await fs.writeFileAtomic(CAPTURE_READY_FILE, '4545\n', { mode: 0o644 });
    calls.length = 0;
    await systemdCapture(fs, exec).stop({ stoppedWithProxy: true });
    expect(calls).toEqual(['systemctl stop --no-block k2s-dnsproxy-capture.service unwritten=yes']);
    expect(await fs.lstat(CAPTURE_UNWRITTEN_FILE)).toBeFalsy();
    expect(await fs.lstat(CAPTURE_READY_FILE)).toBeFalsy();
    // No cgroup v2 at systemd's path to read: the same.
    calls.length = 0;
    await rm(fs.real('/sys/fs/cgroup/system.slice'), { recursive: true });
    await systemdCapture(fs, exec).stop({ stoppedWithProxy: true });
    expect(calls).toEqual(['systemctl stop --no-block k2s-dnsproxy-capture.service unwritten=no']);
  });

  it('systemd stoppedWithProxy: the companion in the unit\'s cgroup gets its SIGTERM and is not waited for; its tcpdump is not signalled', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(K2S_PATHS.captureUnit), 0o755);
    await fs.writeFileAtomic(K2S_PATHS.captureUnit, '[Unit]\n', { mode: 0o644 });
    const calls: string[] = [];
    const exec = { run: async (file: string, args: readonly string[]) => (calls.push(`${file} ${args.join(' ')}`), { code: 0, stdout: '', stderr: '' }) };
    const children: ChildProcess[] = [];
    try {
      // The companion drains after its SIGTERM (it notes it) until this test lets it end (SIGUSR2: exit 0); the other process is its tcpdump.
      const noted = path.join(root, 'noted');
      const companion = spawn(process.execPath, ['-e', `process.on('SIGTERM', () => require('fs').writeFileSync(${JSON.stringify(noted)}, 'TERM')); process.on('SIGUSR2', () => process.exit(0)); setInterval(() => {}, 1e6); process.stdout.write('up')`], { stdio: ['ignore', 'pipe', 'inherit'] });
      const tcpdump = spawn(process.execPath, ['-e', `process.on('SIGTERM', () => process.exit(7)); setInterval(() => {}, 1e6); process.stdout.write('up')`], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(companion, tcpdump);
      for (const c of children) await new Promise((r) => c.stdout!.once('data', r));
      const cmdline = async (pid: number, argv: string[]) => {
        await mkdir(path.join(procDir, String(pid)), { recursive: true });
        await writeFile(path.join(procDir, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
      };
      await cmdline(companion.pid!, ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--flags-file', '/run/k2s/capture.flags']);
      await cmdline(tcpdump.pid!, ['/usr/bin/tcpdump', '-i', 'any']);
      await fs.mkdirp('/sys/fs/cgroup/system.slice/k2s-dnsproxy-capture.service', 0o755);
      await fs.writeFileAtomic('/sys/fs/cgroup/system.slice/k2s-dnsproxy-capture.service/cgroup.procs', `${companion.pid}\n${tcpdump.pid}\n`, { mode: 0o644 });
      const exited = new Promise<number | null>((r) => companion.once('exit', (code) => r(code)));
      await systemdCapture(fs, exec, procDir).stop({ stoppedWithProxy: true, after: Promise.resolve() });
      // Returned before the companion's drain ended; the unit's stop queued, not waited for (its
      // TimeoutStopSec= for a companion that would not end), after the SIGTERM.
      expect(companion.exitCode).toBeNull();
      expect(await readFile(noted, 'utf8')).toBe('TERM');
      expect(calls).toEqual(['systemctl stop --no-block k2s-dnsproxy-capture.service']);
      // With an Exec that launches: a detached child, nothing run.
      calls.length = 0;
      const launched: string[] = [];
      await systemdCapture(fs, { ...exec, launch: (file: string, args: readonly string[]) => (launched.push(`${file} ${args.join(' ')}`), true) }, procDir).stop({ stoppedWithProxy: true });
      expect([calls, launched]).toEqual([[], ['systemctl stop --no-block k2s-dnsproxy-capture.service']]);
      companion.kill('SIGUSR2');
      expect(await exited).toBe(0);
      expect(await readFile(noted, 'utf8')).toBe('TERM');
      expect(tcpdump.exitCode).toBeNull();
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    }
  });

  it('a companion still closing when its keeper is killed (stop past its wait: a slow disk) is killed by its pid, though it removed its ready file at its stop', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const ready = fs.real(CAPTURE_READY_FILE);
    const children: ChildProcess[] = [];
    try {
      // The companion: on SIGTERM it removes its ready file (capture-main.ts, at its stop) and goes on closing (never ends by itself).
      const companion = spawn(process.execPath, ['-e', `process.on('SIGTERM', () => require('fs').rmSync(${JSON.stringify(ready)}, { force: true })); setInterval(() => {}, 1e6); process.stdout.write('up')`], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(companion);
      // Its keeper: forwards SIGTERM to it and waits for it (capture-keeper.ts), never ending first.
      const keeper = spawn(process.execPath, ['-e', `process.on('SIGTERM', () => process.kill(${companion.pid}, 'SIGTERM')); setInterval(() => {}, 1e6); process.stdout.write('up')`], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(keeper);
      for (const c of children) await new Promise((r) => c.stdout!.once('data', r));
      const gone = (c: ChildProcess) => new Promise<string | null>((r) => c.once('exit', (_code, sig) => r(sig)));
      const [companionGone, keeperGone] = [gone(companion), gone(keeper)];
      // /proc as stop reads it: each pid's argv.
      const cmdline = async (pid: number, argv: string[]) => {
        await mkdir(path.join(procDir, String(pid)), { recursive: true });
        await writeFile(path.join(procDir, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
      };
      await cmdline(keeper.pid!, keeperArgv('/run/k2s/capture.pid', '/run/k2s/capture-keeper.state', '/run/k2s/capture.go', ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held']));
      await cmdline(companion.pid!, ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held']);
      await fs.writeFileAtomic(CAPTURE_PID_FILE, `${keeper.pid}\n`, { mode: 0o644 });
      await fs.writeFileAtomic(CAPTURE_READY_FILE, `${companion.pid}\n`, { mode: 0o644 });
      await supervisedCapture(fs, procDir, 200).stop();
      expect(await keeperGone).toBe('SIGKILL');
      expect(await companionGone).toBe('SIGKILL');
      expect(await fs.lstat(CAPTURE_READY_FILE)).toBeFalsy();
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    }
  });

  it("sets the tree's autogroup back to nice 0 before its SIGTERM: the drain does not wait for the idle companion's own goNormal in a group at 19", async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    const seen = path.join(root, 'seen');
    // The keeper: runs the companion as its child, forwards SIGTERM, exits with it. The companion
    // notes, at its SIGTERM, its autogroup as /proc (procDir) then says it.
    const companionJs = `process.on('SIGTERM', () => { const f = require('fs'); f.writeFileSync(${JSON.stringify(seen)}, f.readFileSync(require('path').join(${JSON.stringify(procDir)}, String(process.pid), 'autogroup'), 'utf8')); process.exit(0); }); setInterval(() => {}, 1e6); process.stdout.write(process.pid + '\\n');`;
    const keeperJs = `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(companionJs)}], { stdio: ['ignore', 'inherit', 'inherit'] }); process.on('SIGTERM', () => c.kill('SIGTERM')); c.on('exit', () => process.exit(0));`;
    const keeper = spawn(process.execPath, ['-e', keeperJs], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const companionPid = await new Promise<number>((r) => keeper.stdout!.once('data', (b: Buffer) => r(Number(b.toString().trim()))));
      const keeperPid = keeper.pid!;
      const put = async (pid: number, file: string, text: string) => {
        await mkdir(path.join(procDir, String(pid)), { recursive: true });
        await writeFile(path.join(procDir, String(pid), file), text);
      };
      await put(keeperPid, 'cmdline', `${keeperArgv('/run/k2s/capture.pid', '/run/k2s/capture-keeper.state', '/run/k2s/capture.go', ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held']).join('\0')}\0`);
      await put(companionPid, 'cmdline', ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held', ''].join('\0'));
      // In the keeper's session (it leads it), its autogroup at 19 (go-idle.ts).
      await put(companionPid, 'stat', `${companionPid} (node) S ${keeperPid} ${keeperPid} ${keeperPid} 0 -1 4194560\n`);
      await put(companionPid, 'autogroup', '/autogroup-9 nice 19\n');
      // Gone from /proc once it exited (stop's wait reads its cmdline).
      keeper.once('exit', () => rmSync(path.join(procDir, String(keeperPid)), { recursive: true, force: true }));
      await fs.writeFileAtomic(CAPTURE_PID_FILE, `${keeperPid}\n`, { mode: 0o644 });
      await fs.writeFileAtomic(CAPTURE_READY_FILE, `${companionPid}\n`, { mode: 0o644 });
      await supervisedCapture(fs, procDir, 20_000).stop();
      expect(await readFile(seen, 'utf8')).toBe('0\n');
    } finally {
      if (keeper.exitCode === null && keeper.signalCode === null) keeper.kill('SIGKILL');
    }
  });

  it('stop alongside the proxy\'s (`after`): signals the keeper only once that stop fulfilled; after a failed one it leaves the companion and its files as they were', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
    // The keeper stand-in: says its pid, exits at SIGTERM.
    const keeper = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1e6); process.stdout.write('up')"], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ended = new Promise<string | null>((r) => keeper.once('exit', (_c, sig) => r(sig ?? 'exit')));
    try {
      await new Promise((r) => keeper.stdout!.once('data', r));
      const keeperPid = keeper.pid!;
      await mkdir(path.join(procDir, String(keeperPid)), { recursive: true });
      await writeFile(path.join(procDir, String(keeperPid), 'cmdline'), `${keeperArgv('/run/k2s/capture.pid', '/run/k2s/capture-keeper.state', '/run/k2s/capture.go', ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.cjs', 'capture-watch', '--held']).join('\0')}\0`);
      keeper.once('exit', () => rmSync(path.join(procDir, String(keeperPid)), { recursive: true, force: true }));
      await fs.writeFileAtomic(CAPTURE_PID_FILE, `${keeperPid}\n`, { mode: 0o644 });
      await fs.writeFileAtomic(CAPTURE_READY_FILE, '999993\n', { mode: 0o644 });
      const capture = supervisedCapture(fs, procDir, 20_000);
      await capture.stop({ after: Promise.reject(new Error('the proxy did not stop')) });
      expect(keeper.exitCode === null && keeper.signalCode === null).toBe(true);
      expect(await fs.lstat(CAPTURE_READY_FILE)).toBeTruthy();
      expect(await fs.lstat(CAPTURE_PID_FILE)).toBeTruthy();
      // The proxy's stop fulfilled: the keeper is signalled, its files go.
      let proxyStopped: () => void = () => undefined;
      const stopping = capture.stop({ after: new Promise<void>((r) => (proxyStopped = r)) });
      proxyStopped();
      await stopping;
      expect(await ended).toBe('exit');
      expect(await fs.lstat(CAPTURE_READY_FILE)).toBeNull();
    } finally {
      if (keeper.exitCode === null && keeper.signalCode === null) keeper.kill('SIGKILL');
    }
  });
});
