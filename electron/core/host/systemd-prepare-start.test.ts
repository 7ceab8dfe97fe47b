/**
 * ServiceManager.prepareStart (systemd-service.ts) across starts of one long-running process
 * (`k2s-dns ui`'s backend): each start uses its own early answer, never one a start before it
 * asked for and did not reach its service step with (a failed discover).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { detectServiceManager } from './detect-service-manager';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-prepare-'));
  mkdirSync(path.join(root, 'run/systemd/system'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Records systemctl calls; `show` answers each unit loaded, NeedDaemonReload by `need()`; the proxy's show says it runs. */
function recordingExec(calls: string[][], need: () => boolean): Exec {
  return {
    run: async (file, args) => {
      calls.push([file, ...args]);
      if (args[0] === 'show' && args.includes('NeedDaemonReload')) return { code: 0, stdout: args.slice(args.indexOf('--') + 1).map((u) => `Id=${u}\nLoadState=loaded\nNeedDaemonReload=${need() ? 'yes' : 'no'}\n`).join('\n'), stderr: '' };
      if (args[0] === 'show') return { code: 0, stdout: 'ActiveState=active\nSubState=running\nNRestarts=0\nExecMainCode=0\nExecMainStatus=0\nMainPID=4242\nResult=success\n', stderr: '' };
      return { code: 0, stdout: '', stderr: '' };
    },
  };
}

const SPEC = { argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
const UNIT = 'k2s-dnsproxy.service';
const SHOW = ['systemctl', 'show', '-p', 'Id', '-p', 'LoadState', '-p', 'NeedDaemonReload', '--', UNIT];

describe('prepareStart across starts of one process', () => {
  it("a second start asks again; one whose prepareStart finds no unit file asks in its service step, not with the first start's answer", async () => {
    const fs = createHostFs(root);
    await (await detectServiceManager(fs, recordingExec([], () => false))).start(SPEC); // an earlier run wrote the unit
    const calls: string[][] = [];
    let need = false;
    const svc = await detectServiceManager(fs, recordingExec(calls, () => need));
    // Start 1 asks alongside discover (the manager holds the current file), then fails in discover.
    await svc.prepareStart!();
    expect(calls).toEqual([['systemctl', 'reset-failed', UNIT], SHOW]);
    // Start 2: its own prepareStart asks again, and its service step uses that answer.
    calls.length = 0;
    need = true; // an admin's drop-in meanwhile
    await svc.prepareStart!();
    await svc.start(SPEC);
    expect(calls.slice(0, 4)).toEqual([['systemctl', 'reset-failed', UNIT], SHOW, ['systemctl', 'daemon-reload'], ['systemctl', 'restart', '--job-mode=ignore-requirements', UNIT]]);
    // Start 3 asks (current), fails; start 4 finds no unit file when it prepares (removed
    // meanwhile), and the file is back when its service step runs (the same bytes: not
    // rewritten, so not reloaded for as written). Its service step resets and asks itself.
    need = false;
    await svc.prepareStart!();
    const unitText = await fs.readFile(K2S_PATHS.unit);
    await fs.remove(K2S_PATHS.unit);
    calls.length = 0;
    await svc.prepareStart!();
    expect(calls).toEqual([]);
    await fs.writeFileAtomic(K2S_PATHS.unit, unitText, { mode: 0o644 });
    need = true;
    await svc.start(SPEC);
    expect(calls.slice(0, 4)).toEqual([['systemctl', 'reset-failed', UNIT], SHOW, ['systemctl', 'daemon-reload'], ['systemctl', 'restart', '--job-mode=ignore-requirements', UNIT]]);
  });
});
