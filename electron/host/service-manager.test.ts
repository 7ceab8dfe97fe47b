import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { K2S_PATHS } from '../../shared/k2s-paths';
import { renderUnit } from '../../shared/systemd-unit';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { detectServiceManager } from './service-manager';
import { createSupervisedManager, isProcessRunning } from './supervised-service';

let root: string;
const r = (p: string) => path.join(root, p);
const started: number[] = [];

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-svc-'));
});
afterEach(() => {
  // End only what this test started, by pid.
  for (const pid of started.splice(0)) spawnSync('kill', ['-KILL', String(pid)]);
  rmSync(root, { recursive: true, force: true });
});

/** Records systemctl calls; `is-active` answers `active`, `show` answers MainPID 4242. */
function recordingExec(calls: string[][]): Exec {
  return {
    run: async (file, args) => {
      calls.push([file, ...args]);
      if (args[0] === 'is-active') return { code: 0, stdout: 'active\n', stderr: '' };
      if (args[0] === 'show') return { code: 0, stdout: '4242\n', stderr: '' };
      return { code: 0, stdout: '', stderr: '' };
    },
  };
}

describe('detectServiceManager', () => {
  it('is systemd only when /run/systemd/system exists under the root', async () => {
    const fs = createHostFs(root);
    expect((await detectServiceManager(fs, recordingExec([]))).kind).toBe('supervised');
    mkdirSync(r('run/systemd/system'), { recursive: true });
    expect((await detectServiceManager(fs, recordingExec([]))).kind).toBe('systemd');
  });
});

describe('systemd manager', () => {
  it('writes the unit and runs daemon-reload, enable, restart; status and stop via systemctl', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const calls: string[][] = [];
    const fs = createHostFs(root);
    const svc = await detectServiceManager(fs, recordingExec(calls));
    const spec = { argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
    expect(await svc.start(spec)).toEqual({ pid: 4242 });
    expect(readFileSync(r(K2S_PATHS.unit), 'utf8')).toBe(renderUnit(spec));
    expect(statSync(r(K2S_PATHS.unit)).mode & 0o777).toBe(0o644);
    expect(existsSync(r(K2S_PATHS.log))).toBe(true);
    expect(await svc.status()).toEqual({ running: true, pid: 4242 });
    await svc.stop();
    expect(calls).toEqual([
      ['systemctl', 'daemon-reload'],
      ['systemctl', 'enable', 'k2s-dnsproxy.service'],
      ['systemctl', 'restart', 'k2s-dnsproxy.service'],
      ['systemctl', 'show', '--property', 'MainPID', '--value', 'k2s-dnsproxy.service'],
      ['systemctl', 'is-active', 'k2s-dnsproxy.service'],
      ['systemctl', 'show', '--property', 'MainPID', '--value', 'k2s-dnsproxy.service'],
      ['systemctl', 'stop', 'k2s-dnsproxy.service'],
      ['systemctl', 'disable', 'k2s-dnsproxy.service'],
    ]);
  });

  it('a failing systemctl names the command and where to look', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const exec: Exec = { run: async () => ({ code: 1, stdout: '', stderr: 'Failed to restart k2s-dnsproxy.service: Unit is masked.' }) };
    const svc = await detectServiceManager(createHostFs(root), exec);
    await expect(svc.start({ argv: ['/usr/sbin/dnsmasq'], logFile: '/var/log/x.log', description: 'd' })).rejects.toThrow(
      'systemctl daemon-reload failed (Failed to restart k2s-dnsproxy.service: Unit is masked.); see "journalctl -u k2s-dnsproxy.service"',
    );
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it.skipIf(!analyze || !existsSync('/usr/sbin/dnsmasq'))(
    'systemd-analyze verify accepts the rendered unit with awkward arguments, with no output at all (skipped: needs systemd-analyze and /usr/sbin/dnsmasq)',
    () => {
      const unitPath = r('k2s-dnsproxy.service');
      writeFileSync(
        unitPath,
        renderUnit({
          argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground', '--conf-file=/etc/k2s/dns masq.conf', 'x"y', 'c:\\d', '100%', '$HOME', ';'],
          logFile: r('dnsproxy 100%.log'),
          description: 'K2s DNS proxy (dnsmasq) 100%',
        }),
      );
      const res = spawnSync('systemd-analyze', ['verify', unitPath], { encoding: 'utf8' });
      expect(res.stderr).toBe('');
      expect(res.stdout).toBe('');
      expect(res.status).toBe(0);
    },
  );
});

describe('supervised manager', () => {
  it('start → pidfile → running → stop → gone and pidfile removed; output appended to the log', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
    mkdirSync(r('var/log/dnsproxy'), { recursive: true });
    writeFileSync(r(K2S_PATHS.log), 'earlier line\n');
    const { pid } = await svc.start({ argv: ['sh', '-c', 'echo started; exec sleep 30'], logFile: K2S_PATHS.log, description: 'test' });
    expect(pid).not.toBeNull();
    started.push(pid as number);
    expect(readFileSync(r(K2S_PATHS.pidFile), 'utf8')).toBe(`${pid}\n`);
    // `exec sleep` replaces sh, so argv[0] changes: the pid-reuse guard must then say "not ours".
    await expect.poll(() => readFileSync(r(K2S_PATHS.log), 'utf8')).toBe('earlier line\nstarted\n');
    expect(await svc.status()).toEqual({ running: false, pid: null });
    await svc.stop();
  });

  it('sleep 30: status running with the pid, stop sends SIGTERM and removes the pidfile', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
    const { pid } = await svc.start({ argv: ['sleep', '30'], logFile: K2S_PATHS.log, description: 'test' });
    started.push(pid as number);
    expect(readFileSync(r(K2S_PATHS.pidFile), 'utf8')).toBe(`${pid}\n`);
    expect(await svc.status()).toEqual({ running: true, pid });
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toBe('sleep\u000030\u0000');
    await svc.stop();
    expect(await isProcessRunning(pid as number, 'sleep')).toBe(false);
    expect(existsSync(r(K2S_PATHS.pidFile))).toBe(false);
    expect(await svc.status()).toEqual({ running: false, pid: null });
  });

  it('a stale pidfile (dead pid, or a live pid running something else) is not running', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs);
    const dead = spawn('true');
    await new Promise((res) => dead.once('exit', res));
    await fs.mkdirp(K2S_PATHS.runDir, 0o755);
    await fs.writeFileAtomic(`${K2S_PATHS.pidFile}.argv0`, 'sleep', { mode: 0o644 });
    await fs.writeFileAtomic(K2S_PATHS.pidFile, `${dead.pid}\n`, { mode: 0o644 });
    expect(await svc.status()).toEqual({ running: false, pid: null });
    // This test process is alive but is not `sleep`: pid reuse must not count as running.
    await fs.writeFileAtomic(K2S_PATHS.pidFile, `${process.pid}\n`, { mode: 0o644 });
    expect(await svc.status()).toEqual({ running: false, pid: null });
    await svc.stop(); // must not signal this process
    expect(existsSync(r(K2S_PATHS.pidFile))).toBe(false);
  });

  it('a missing binary fails start with the fix', async () => {
    const svc = createSupervisedManager(createHostFs(root));
    await expect(svc.start({ argv: [path.join(root, 'no-such-proxy')], logFile: K2S_PATHS.log, description: 'x' })).rejects.toThrow(
      /^Cannot start .*no-such-proxy \(spawn .* ENOENT\); check that the proxy binary exists and is executable\.$/,
    );
  });
});
