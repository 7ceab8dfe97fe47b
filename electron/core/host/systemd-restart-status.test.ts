/**
 * status() of the systemd manager while systemd restarts k2s-dnsproxy (Restart=on-failure): the
 * `systemctl show` texts are the ones measured on Debian 13 (systemd 257) with port 53 held by
 * another program (e2e/debian-host-resolved.e2e.test.ts prints them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { createSystemdManager } from './systemd-service';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-sd-restart-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** An Exec whose `systemctl show` prints `show` and `journalctl` prints `journal` (exit 1 when null: not readable). */
const showing = (show: string, journal: string | null = ''): Exec => ({
  run: async (file, args) => {
    if (file === 'journalctl') return journal === null ? { code: 1, stdout: '', stderr: 'No journal files were opened due to insufficient permissions.' } : { code: 0, stdout: journal, stderr: '' };
    return args[0] === 'show' ? { code: 0, stdout: show, stderr: '' } : { code: 0, stdout: '', stderr: '' };
  },
});
/** systemd 257's journal entries (fields as unit_log_process_exit writes them) of an ExecStartPre= and a main process exit. */
const entry = (command: string, code: string, status: string) => JSON.stringify({ MESSAGE_ID: '98e322203f7a4ed290d09fe03c09fe15', UNIT: 'k2s-dnsproxy.service', COMMAND: command, EXIT_CODE: code, EXIT_STATUS: status, MESSAGE: `k2s-dnsproxy.service: Main process exited, code=${code}, status=${status}` });

describe('systemd manager status while systemd restarts the proxy', () => {
  it('waiting RestartSec (auto-restart): the next attempt is NRestarts + 1, with how the last run ended', async () => {
    const svc = createSystemdManager(createHostFs(root), showing('ActiveState=activating\nSubState=auto-restart\nNRestarts=7\nExecMainCode=1\nExecMainStatus=1\nMainPID=0\nResult=exit-code\n'));
    expect(await svc.status()).toEqual({ running: false, pid: null, restart: { attempt: 8, lastExit: 'exited with status 1', reason: null, gaveUp: false } });
  });

  const START_PRE = 'MainPID=0\nResult=success\nNRestarts=3\nExecMainCode=0\nExecMainStatus=0\nActiveState=activating\nSubState=start-pre\n';
  it('the attempt already starting (start-pre): NRestarts counts it; systemd reset the exit code, the journal still has the last main exit', async () => {
    const journal = [entry('ExecStart', 'exited', '2'), entry('ExecStart', 'killed', '9'), entry('ExecStart', 'exited', '1'), entry('ExecStartPre', 'exited', '0'), ''].join('\n');
    const svc = createSystemdManager(createHostFs(root), showing(START_PRE, journal));
    expect(await svc.status()).toEqual({ running: false, pid: null, restart: { attempt: 3, lastExit: 'exited with status 1', reason: null, gaveUp: false } });
    expect((await createSystemdManager(createHostFs(root), showing(START_PRE, `${entry('ExecStart', 'killed', '9')}\n`)).status()).restart?.lastExit).toBe('killed by signal KILL');
  });
  it('a lagging journal (the exit entry not stored yet): status asks journald to sync first, then reads this exit, not the previous one', async () => {
    const calls: string[] = [];
    let synced = false;
    const lagging: Exec = {
      run: async (file, args) => {
        calls.push(`${file} ${args[0]}`);
        if (file === 'journalctl' && args[0] === '--sync') {
          synced = true;
          return { code: 0, stdout: '', stderr: '' };
        }
        if (file === 'journalctl') return { code: 0, stdout: [entry('ExecStart', 'killed', '9'), ...(synced ? [entry('ExecStart', 'exited', '2')] : []), ''].join('\n'), stderr: '' };
        return args[0] === 'show' ? { code: 0, stdout: START_PRE, stderr: '' } : { code: 0, stdout: '', stderr: '' };
      },
    };
    expect((await createSystemdManager(createHostFs(root), lagging).status()).restart).toEqual({ attempt: 3, lastExit: 'exited with status 2', reason: null, gaveUp: false });
    expect(calls.filter((c) => c.startsWith('journalctl'))).toEqual(['journalctl --sync', 'journalctl --no-pager']);
  });
  it('start-pre with a journal the user cannot read: no exit invented', async () => {
    const svc = createSystemdManager(createHostFs(root), showing(START_PRE, null));
    expect((await svc.status()).restart).toEqual({ attempt: 3, lastExit: null, reason: null, gaveUp: false });
  });

  it('gave up (failed after restarts): the count of restarts', async () => {
    const svc = createSystemdManager(createHostFs(root), showing('ActiveState=failed\nSubState=failed\nNRestarts=10\nExecMainCode=1\nExecMainStatus=1\nMainPID=0\nResult=exit-code\n'));
    expect((await svc.status()).restart).toEqual({ attempt: 10, lastExit: 'exited with status 1', reason: null, gaveUp: true });
  });

  it('running again after systemd restarted it: how and when the run before ended, from the journal', async () => {
    const killed = JSON.stringify({ ...JSON.parse(entry('ExecStart', 'killed', '9')), __REALTIME_TIMESTAMP: '1764615012345678' });
    const asked: string[] = [];
    const exec: Exec = { run: async (file, args) => (asked.push(file), showing('ActiveState=active\nSubState=running\nNRestarts=1\nExecMainCode=0\nExecMainStatus=0\nMainPID=1240\nResult=success\n', `${entry('ExecStartPre', 'exited', '0')}\n${killed}\n`).run(file, args)) };
    const s = await createSystemdManager(createHostFs(root), exec).status();
    expect(s).toEqual({ running: true, pid: 1240, restart: null, restarted: { how: 'killed by signal KILL', at: 1764615012345, restarts: 1 } });
    expect(asked).toContain('journalctl');
    // Never restarted by systemd: no journal read at all.
    asked.length = 0;
    const calm: Exec = { run: async (file, args) => (asked.push(file), showing('ActiveState=active\nSubState=running\nNRestarts=0\nExecMainCode=0\nExecMainStatus=0\nMainPID=1234\nResult=success\n').run(file, args)) };
    expect(await createSystemdManager(createHostFs(root), calm).status()).toEqual({ running: true, pid: 1234, restart: null });
    expect(asked).not.toContain('journalctl');
  });
});

