/**
 * ServiceManager.prepareStart and status (systemd-service.ts) across starts of one long-running
 * process (`k2s-dns ui`'s backend): each start uses its own early answer (its preflight's status),
 * never one a start before it asked for and did not reach its service step with (a failed discover).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { detectServiceManager } from './detect-service-manager';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { SHOW_PROPERTIES } from '../../../shared/systemd-show';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-prepare-'));
  mkdirSync(path.join(root, 'run/systemd/system'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/**
 * Records systemctl calls; `show` answers each unit with a file under the root as loaded
 * (NeedDaemonReload by `need()`), one without as not-found, with the proxy's state (it runs)
 * when asked for it, as status() asks.
 */
function recordingExec(calls: string[][], need: () => boolean): Exec {
  return {
    run: async (file, args) => {
      calls.push([file, ...args]);
      if (args[0] === 'show') {
        const state = args.includes('ActiveState') ? 'ActiveState=active\nSubState=running\nNRestarts=0\nExecMainCode=0\nExecMainStatus=0\nMainPID=4242\nResult=success\n' : '';
        return { code: 0, stdout: args.slice(args.indexOf('--') + 1).map((u) => `Id=${u}\nLoadState=${existsSync(path.join(root, 'etc/systemd/system', u)) ? 'loaded' : 'not-found'}\nNeedDaemonReload=${need() ? 'yes' : 'no'}\n${state}`).join('\n'), stderr: '' };
      }
      return { code: 0, stdout: '', stderr: '' };
    },
  };
}

const SPEC = { argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
const UNIT = 'k2s-dnsproxy.service';
/** status()'s one show: the proxy's state, with the reload question for its unit. */
const STATUS = ['systemctl', 'show', '-p', 'Id', '-p', 'LoadState', '-p', 'NeedDaemonReload', ...SHOW_PROPERTIES.flatMap((p) => ['-p', p]), '--', UNIT];
const RESTART = ['systemctl', 'restart', '--job-mode=ignore-requirements', UNIT];

describe('prepareStart across starts of one process', () => {
  it("each start's service step uses what its own preflight's status heard, never an earlier start's; a start whose prepareStart finds no unit file resets in its service step", async () => {
    const fs = createHostFs(root);
    await (await detectServiceManager(fs, recordingExec([], () => false))).start(SPEC); // an earlier run wrote the unit
    const calls: string[][] = [];
    let need = false;
    const svc = await detectServiceManager(fs, recordingExec(calls, () => need));
    // Start 1: preflight's status asks, prepareStart resets alongside discover (the manager holds the current file); it fails in discover.
    await svc.status();
    await svc.prepareStart!();
    expect(calls).toEqual([STATUS, ['systemctl', 'reset-failed', UNIT]]);
    // Start 2: its own status asks again (an admin's drop-in meanwhile), and its service step uses that answer: a reload, no second question.
    calls.length = 0;
    need = true;
    await svc.status();
    await svc.prepareStart!();
    await svc.start(SPEC);
    expect(calls.slice(0, 4)).toEqual([STATUS, ['systemctl', 'reset-failed', UNIT], ['systemctl', 'daemon-reload'], RESTART]);
    // Start 3: the unit file is gone when its status asks (not-found) and prepareStart looks, and
    // back when its service step runs (the same bytes: not rewritten, so not reloaded for as
    // written): reset there, and reloaded for as status heard it.
    need = false;
    const unitText = await fs.readFile(K2S_PATHS.unit);
    await fs.remove(K2S_PATHS.unit);
    calls.length = 0;
    await svc.status();
    await svc.prepareStart!();
    expect(calls).toEqual([STATUS]);
    await fs.writeFileAtomic(K2S_PATHS.unit, unitText, { mode: 0o644 });
    await svc.start(SPEC);
    expect(calls.slice(1, 4)).toEqual([['systemctl', 'reset-failed', UNIT], ['systemctl', 'daemon-reload'], RESTART]);
  });
});
