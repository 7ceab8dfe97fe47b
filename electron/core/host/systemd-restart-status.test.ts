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

/** An Exec whose `systemctl show` prints `show`. */
const showing = (show: string): Exec => ({ run: async (_file, args) => (args[0] === 'show' ? { code: 0, stdout: show, stderr: '' } : { code: 0, stdout: '', stderr: '' }) });

describe('systemd manager status while systemd restarts the proxy', () => {
  it('waiting RestartSec (auto-restart): the next attempt is NRestarts + 1, with how the last run ended', async () => {
    const svc = createSystemdManager(createHostFs(root), showing('ActiveState=activating\nSubState=auto-restart\nNRestarts=7\nExecMainCode=1\nExecMainStatus=1\nMainPID=0\nResult=exit-code\n'));
    expect(await svc.status()).toEqual({ running: false, pid: null, restart: { attempt: 8, lastExit: 'exited with status 1', reason: null, gaveUp: false } });
  });

  it('the attempt already starting (start-pre): NRestarts counts it, and systemd has reset the exit code (no exit invented)', async () => {
    const svc = createSystemdManager(createHostFs(root), showing('MainPID=0\nResult=success\nNRestarts=3\nExecMainCode=0\nExecMainStatus=0\nActiveState=activating\nSubState=start-pre\n'));
    expect(await svc.status()).toEqual({ running: false, pid: null, restart: { attempt: 3, lastExit: null, reason: null, gaveUp: false } });
  });

  it('gave up (failed after restarts): the count of restarts', async () => {
    const svc = createSystemdManager(createHostFs(root), showing('ActiveState=failed\nSubState=failed\nNRestarts=10\nExecMainCode=1\nExecMainStatus=1\nMainPID=0\nResult=exit-code\n'));
    expect((await svc.status()).restart).toEqual({ attempt: 10, lastExit: 'exited with status 1', reason: null, gaveUp: true });
  });
});
