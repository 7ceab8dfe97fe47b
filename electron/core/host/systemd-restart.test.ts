/**
 * restart() of the systemd manager (a followed network): `systemctl restart` of the proxy and,
 * when it exists, its KubeSwitch listener, in the job mode that leaves the PartOf= companions
 * running (RESTART_JOB_MODE: the exact query log's capture is not stopped and drained).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { createSystemdManager, RESTART_JOB_MODE } from './systemd-service';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-sd-restart-job-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** An Exec that records every call and answers `systemctl show` with an active unit, MainPID 4321. */
function recording(): { exec: Exec; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    exec: { run: async (file, args) => (calls.push([file, ...args]), { code: 0, stdout: args[0] === 'show' ? 'ActiveState=active\nSubState=running\nNRestarts=0\nMainPID=4321\nResult=success\n' : '', stderr: '' }) },
  };
}

describe('systemd manager restart (a followed network)', () => {
  it('restarts only the proxy, with ignore-requirements: the capture and route companions are not restarted by PartOf=', async () => {
    const { exec, calls } = recording();
    expect(await createSystemdManager(createHostFs(root), exec).restart!()).toEqual({ pid: 4321, running: true });
    expect(RESTART_JOB_MODE).toBe('--job-mode=ignore-requirements');
    expect(calls.filter((c) => c[1] === 'restart')).toEqual([['systemctl', 'restart', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service']]);
  });

  it('names the KubeSwitch listener when its unit exists, so it restarts with the proxy as before', async () => {
    const late = path.join(root, K2S_PATHS.lateUnit);
    mkdirSync(path.dirname(late), { recursive: true });
    writeFileSync(late, '[Unit]\n');
    const { exec, calls } = recording();
    await createSystemdManager(createHostFs(root), exec).restart!();
    expect(calls.filter((c) => c[1] === 'restart')).toEqual([['systemctl', 'restart', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service']]);
  });
});
