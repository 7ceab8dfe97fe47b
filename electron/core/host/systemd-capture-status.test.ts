/**
 * status() of the systemd manager once K2s DNS is stopped: the capture unit's state when it is not
 * inactive (shared/capture-unit-state.ts), from the same `systemctl show` as the proxy's, asked
 * only while its unit file is there. The blocks are systemd 257's for a companion killed
 * (kill -9) during the drain `k2s-dns stop` leaves running.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { createSystemdManager } from './systemd-service';
import { K2S_PATHS } from '../../../shared/k2s-paths';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-sd-capture-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const PROXY = 'Id=k2s-dnsproxy.service\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=inactive\nSubState=dead\nNRestarts=0\nExecMainCode=1\nExecMainStatus=0\nMainPID=0\nResult=success\n';
const KILLED = 'Id=k2s-dnsproxy-capture.service\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=failed\nSubState=failed\nNRestarts=0\nExecMainCode=2\nExecMainStatus=9\nMainPID=0\nResult=signal\n';
const DRAINING = 'Id=k2s-dnsproxy-capture.service\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=deactivating\nSubState=stop-sigterm\nNRestarts=0\nExecMainCode=0\nExecMainStatus=0\nMainPID=812\nResult=success\n';
const DONE = 'Id=k2s-dnsproxy-capture.service\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=inactive\nSubState=dead\nNRestarts=0\nExecMainCode=1\nExecMainStatus=0\nMainPID=0\nResult=success\n';

/** An Exec whose `systemctl show` prints the proxy's block and, when asked for it, `capture`'s; the units each show named. */
function showing(capture: string, asked: string[][]): Exec {
  return {
    run: async (_file, args) => {
      if (args[0] !== 'show') return { code: 0, stdout: '', stderr: '' };
      const units = args.slice(args.indexOf('--') + 1);
      asked.push(units);
      return { code: 0, stdout: units.map((u) => (u === 'k2s-dnsproxy-capture.service' ? capture : PROXY)).join('\n'), stderr: '' };
    },
  };
}

function withCaptureUnit(): void {
  const file = path.join(root, K2S_PATHS.captureUnit);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '[Service]\n');
}

describe('systemd manager status: the capture unit after a stop', () => {
  it('killed mid-drain: failed, Result=signal, how it ended', async () => {
    withCaptureUnit();
    const asked: string[][] = [];
    const s = await createSystemdManager(createHostFs(root), showing(KILLED, asked)).status();
    expect(s).toEqual({ running: false, pid: null, restart: null, captureUnit: { activeState: 'failed', subState: 'failed', result: 'signal', lastExit: 'killed by signal KILL' } });
    expect(asked).toEqual([['k2s-dnsproxy.service', 'k2s-dnsproxy-capture.service']]);
  });

  it('still draining (or hung on SIGTERM): deactivating', async () => {
    withCaptureUnit();
    const s = await createSystemdManager(createHostFs(root), showing(DRAINING, [])).status();
    expect(s.captureUnit).toEqual({ activeState: 'deactivating', subState: 'stop-sigterm', result: 'success', lastExit: null });
  });

  it('inactive: nothing; no unit file: not asked about', async () => {
    withCaptureUnit();
    expect((await createSystemdManager(createHostFs(root), showing(DONE, [])).status()).captureUnit).toBeUndefined();
    rmSync(path.join(root, K2S_PATHS.captureUnit));
    const asked: string[][] = [];
    expect((await createSystemdManager(createHostFs(root), showing(KILLED, asked)).status()).captureUnit).toBeUndefined();
    expect(asked).toEqual([['k2s-dnsproxy.service']]);
  });
});
