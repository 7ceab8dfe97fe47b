import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, promises as fsp, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { renderFollowUnit, renderUnit } from '../../../shared/systemd-unit';
import { renderRouteUnit } from '../../../shared/resolved-route-unit';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { detectServiceManager } from './detect-service-manager';
import { createSupervisedManager, isProcessRunning, readWatchdogState, waitForExec } from './supervised-service';
import { FOLLOW_UNIT_PATH, FOLLOW_WANTS_LINK, systemdFollower } from './follower';
import { UNIT_CGROUP_PROCS } from './systemd-service';
import { processInService, systemdReload } from './systemd-reload';

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

/**
 * Records systemctl calls; `is-active` answers `active`, `show` answers an active unit with
 * MainPID 4242, and every unit as loaded from its current file except those in `needReload`
 * (one block per unit, with the unit's state when asked for it, as status() asks).
 */
function recordingExec(calls: string[][], needReload: ReadonlySet<string> = new Set()): Exec {
  return {
    run: async (file, args) => {
      calls.push([file, ...args]);
      if (args[0] === 'is-active') return { code: 0, stdout: 'active\n', stderr: '' };
      const state = 'ActiveState=active\nSubState=running\nNRestarts=0\nExecMainCode=0\nExecMainStatus=0\nMainPID=4242\nResult=success\n';
      if (args[0] === 'show' && args.includes('NeedDaemonReload')) return { code: 0, stdout: args.slice(args.indexOf('--') + 1).map((u) => `Id=${u}\nLoadState=loaded\nNeedDaemonReload=${needReload.has(u) ? 'yes' : 'no'}\n${args.includes('ActiveState') ? state : ''}`).join('\n'), stderr: '' };
      if (args[0] === 'show' && args.includes('ActiveState')) return { code: 0, stdout: state, stderr: '' };
      if (args[0] === 'show') return { code: 0, stdout: '4242\n', stderr: '' };
      return { code: 0, stdout: '', stderr: '' };
    },
    launch: (file, args) => {
      calls.push(['launch', file, ...args]);
      return true;
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

/** status()'s one `systemctl show`: the proxy's state, with the reload question for its unit. */
const STATUS_SHOW = ['systemctl', 'show', '-p', 'Id', '-p', 'LoadState', '-p', 'NeedDaemonReload', '-p', 'ActiveState', '-p', 'SubState', '-p', 'NRestarts', '-p', 'ExecMainCode', '-p', 'ExecMainStatus', '-p', 'MainPID', '-p', 'Result', '--', 'k2s-dnsproxy.service'];
/** askUnits()'s one show: the reload question for every K2s unit, the proxy's state and systemd-resolved's, in one process. */
const ASK_UNITS = [...STATUS_SHOW, 'k2s-dnsproxy-kubeswitch.service', 'k2s-dnsproxy-resolved.service', 'k2s-dnsproxy-follow.service', 'k2s-dnsproxy-capture.service', 'systemd-resolved.service'];

describe('systemd manager', () => {
  it('writes the unit, links it on disk only, restarts it without a reload when the manager holds its current file; status and stop via systemctl; settle has PID 1 run the reload without waiting', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const calls: string[][] = [];
    const fs = createHostFs(root);
    const svc = await detectServiceManager(fs, recordingExec(calls));
    const spec = { argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
    expect(await svc.start(spec)).toEqual({ pid: 4242, running: true });
    expect(readFileSync(r(K2S_PATHS.unit), 'utf8')).toBe(renderUnit(spec));
    expect(statSync(r(K2S_PATHS.unit)).mode & 0o777).toBe(0o644);
    expect(existsSync(r(K2S_PATHS.log))).toBe(true);
    // No adm group under this root: the log is 0600, and logrotate bounds it.
    expect(statSync(r(K2S_PATHS.log)).mode & 0o777).toBe(0o600);
    expect(readFileSync(r('etc/logrotate.d/k2s-dnsproxy'), 'utf8')).toContain('/var/log/dnsproxy/dnsproxy.log {\n  maxsize 10M\n  rotate 1\n  copytruncate');
    expect(await svc.status()).toEqual({ running: true, pid: 4242, restart: null });
    await svc.stop();
    await svc.reload!.settle();
    // Settled: a second settle asks for nothing.
    await svc.reload!.settle();
    expect(calls).toEqual([
      // The unit file is new: reloaded for it, whatever the manager says (systemd-reload.ts).
      // The links are made in-process (unit-links.ts) before it; the start limit's reset alongside it.
      ['systemctl', 'reset-failed', 'k2s-dnsproxy.service'],
      ['systemctl', 'daemon-reload'],
      ['systemctl', 'restart', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service'],
      // One read after the restart: its MainPID, and that it runs (the first listener poll reads no status then).
      ['systemctl', 'show', '-p', 'ActiveState', '-p', 'SubState', '-p', 'NRestarts', '-p', 'ExecMainCode', '-p', 'ExecMainStatus', '-p', 'MainPID', '-p', 'Result', 'k2s-dnsproxy.service'],
      // status: the proxy's state, and the manager's question for its unit in the same process (ManagerReload.ask).
      STATUS_SHOW,
      ['systemctl', 'stop', 'k2s-dnsproxy.service'],
      // The link removed in-process (unit-links.ts unlinkUnits); the reload as a unit of its own, not waited for (systemd-reload.ts RELOAD_UNIT),
      // when this process runs in a service; else launched as a detached child (settle).
      (await processInService()) ? ['systemd-run', '--no-block', '--quiet', '--collect', '--description=K2s DNS: the manager reads the changed unit links', '--', 'systemctl', 'daemon-reload'] : ['launch', 'systemctl', 'daemon-reload'],
    ]);
  });

  it('start reads the main process from the unit\'s cgroup when it holds one process, else asks the manager', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    const spec = { argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
    await fs.mkdirp(path.posix.dirname(UNIT_CGROUP_PROCS), 0o755);
    await fs.writeFileAtomic(UNIT_CGROUP_PROCS, '5151\n', { mode: 0o644 });
    const calls: string[][] = [];
    expect(await (await detectServiceManager(fs, recordingExec(calls))).start(spec)).toEqual({ pid: 5151, running: true });
    expect(calls.at(-1)).toEqual(['systemctl', 'restart', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service']);
    // Two processes (not only the main one), or none: the manager says which is the main one.
    for (const text of ['5151\n5152\n', '']) {
      await fs.writeFileAtomic(UNIT_CGROUP_PROCS, text, { mode: 0o644 });
      calls.length = 0;
      expect(await (await detectServiceManager(fs, recordingExec(calls))).start(spec)).toEqual({ pid: 4242, running: true });
      expect(calls.at(-1)?.slice(0, 2)).toEqual(['systemctl', 'show']);
    }
  });

  it('start restarts the proxy in the job mode that ignores requirements: a capture unit started before it keeps running (PartOf= would restart it), one linked from before is not pulled in', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    await fs.mkdirp(path.posix.dirname(K2S_PATHS.captureUnit), 0o755);
    await fs.writeFileAtomic(K2S_PATHS.captureUnit, '[Unit]\n', { mode: 0o644 });
    const spec = { argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
    const calls: string[][] = [];
    await (await detectServiceManager(fs, recordingExec(calls))).start(spec);
    // The capture unit is neither linked nor restarted here: its own start did both (capture-companion.ts).
    expect(calls.filter((c) => c.includes('reenable') || c.includes('restart'))).toEqual([
      ['systemctl', 'restart', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service'],
    ]);
    expect(await fs.readlink('/etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service')).toBe(K2S_PATHS.unit);
    expect(await fs.lstat('/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-capture.service')).toBeNull();
  });

  it('start links the follower\'s unit left from an earlier start in the proxy\'s own reenable (linkFollower); the follower\'s start then only restarts it, unless it rewrote the file', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    const argv = ['/usr/bin/node', '/usr/lib/k2s-dns/dist/k2s-dns.mjs', 'follow-watch'];
    await fs.mkdirp(path.posix.dirname(FOLLOW_UNIT_PATH), 0o755);
    await fs.writeFileAtomic(FOLLOW_UNIT_PATH, renderFollowUnit(argv), { mode: 0o644 });
    const spec = { argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
    for (const linkFollower of [false, true]) {
      const calls: string[][] = [];
      await (await detectServiceManager(fs, recordingExec(calls))).start({ ...spec, linkFollower });
      expect(calls.filter((c) => c.includes('reenable') || c.includes('enable'))).toEqual([]);
      expect(await fs.lstat(FOLLOW_WANTS_LINK).then((st) => st?.kind ?? null)).toBe(linkFollower ? 'symlink' : null);
    }
    expect(await fs.readlink(FOLLOW_WANTS_LINK)).toBe(FOLLOW_UNIT_PATH);
    const linked: string[][] = [];
    await systemdFollower(fs, recordingExec(linked)).start(argv);
    expect(linked.filter((c) => c[1] !== 'show')).toEqual([['systemctl', 'restart', 'k2s-dnsproxy-follow.service']]);
    // Another program: the file is rewritten, linked in-process (unit-links.ts: no systemctl) and
    // reloaded for, then restarted; a link it left elsewhere goes, as `reenable` removes it.
    await fs.remove(FOLLOW_WANTS_LINK);
    const stray = '/etc/systemd/system/graphical.target.wants/k2s-dnsproxy-follow.service';
    await fs.mkdirp(path.posix.dirname(stray), 0o755);
    await fs.symlinkAtomic(stray, FOLLOW_UNIT_PATH);
    const rewritten: string[][] = [];
    const reload = systemdReload(recordingExec(rewritten));
    await systemdFollower(fs, recordingExec(rewritten), reload).start(['/usr/local/bin/node', ...argv.slice(1)]);
    expect(rewritten).toEqual([['systemctl', 'daemon-reload'], ['systemctl', 'restart', 'k2s-dnsproxy-follow.service']]);
    expect(await fs.readlink(FOLLOW_WANTS_LINK)).toBe(FOLLOW_UNIT_PATH);
    expect(await fs.lstat(stray)).toBeNull();
    // That reload began after the link was made: settle asks for nothing more.
    await reload.settle();
    expect(rewritten).toHaveLength(2);
  });

  it('stop names the capture and follower units in the proxy\'s one stop job and unlinks them with the proxy in one disable', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    for (const unit of [K2S_PATHS.unit, K2S_PATHS.captureUnit, FOLLOW_UNIT_PATH]) {
      await fs.mkdirp(path.posix.dirname(unit), 0o755);
      await fs.writeFileAtomic(unit, '[Unit]\n', { mode: 0o644 });
    }
    const calls: string[][] = [];
    const svc = await detectServiceManager(fs, recordingExec(calls));
    await svc.stop();
    expect(calls).toEqual([
      ['systemctl', 'stop', 'k2s-dnsproxy.service', 'k2s-dnsproxy-capture.service', 'k2s-dnsproxy-follow.service'],
    ]);
    // captureAfter (stop): the capture left out of the job, and PartOf= kept from pulling it in
    // (ignore-requirements): the proxy's stop does not wait for the capture's drain.
    calls.length = 0;
    await svc.stop({ captureAfter: true });
    expect(calls[0]).toEqual(['systemctl', 'stop', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service', 'k2s-dnsproxy-follow.service']);
    // The follower, which uninstall ends before the restore: with unlinkWithProxy only its unit stops (the disable above unlinks it); without, it is unlinked too (recover).
    calls.length = 0;
    await systemdFollower(fs, recordingExec(calls)).stop({ unlinkWithProxy: true });
    expect(calls).toEqual([['systemctl', 'stop', 'k2s-dnsproxy-follow.service']]);
    // Without: its link removed in-process, as `systemctl --root=/ disable` removes it (unit-links.ts), and the manager asked to read it (settle).
    await fs.mkdirp(path.posix.dirname(FOLLOW_WANTS_LINK), 0o755);
    await fs.symlinkAtomic(FOLLOW_WANTS_LINK, FOLLOW_UNIT_PATH);
    calls.length = 0;
    const reload = systemdReload(recordingExec(calls));
    await systemdFollower(fs, recordingExec(calls), reload).stop();
    expect(calls).toEqual([['systemctl', 'stop', 'k2s-dnsproxy-follow.service']]);
    expect(await fs.lstat(FOLLOW_WANTS_LINK)).toBeNull();
    await reload.settle();
    expect(calls.at(-1)?.slice(0, 2)).toEqual((await processInService()) ? ['systemd-run', '--no-block'] : ['launch', 'systemctl']);
  });

  it('reloads before the restart for a unit file it rewrote, or one the manager holds from an older file, and only then; an unchanged unit file is not rewritten', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    const spec = { argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy', lateListeners: { mainArgv: ['/usr/sbin/dnsmasq', '--keep-in-foreground', '--listen-address=127.0.0.1'], argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground', '--listen-address=172.19.1.1'], addresses: ['172.19.1.1'] } };
    const first: string[][] = [];
    const svcFirst = await detectServiceManager(fs, recordingExec(first));
    await svcFirst.start(spec);
    // Files it wrote: a reload, no question asked (an mtime can lie: a clock stepped back).
    expect(first.filter((c) => c[1] !== 'reset-failed').slice(0, 1)).toEqual([
      ['systemctl', 'daemon-reload'],
    ]);
    expect(await fs.readlink('/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-kubeswitch.service')).toBe(K2S_PATHS.lateUnit);
    // That reload read the new links too: nothing left to ask for.
    first.length = 0;
    await svcFirst.reload!.settle();
    expect(first).toEqual([]);
    // The same units again: the files keep their mtimes (NeedDaemonReload compares mtimes), and
    // with the manager holding them current there is no reload.
    const before = [K2S_PATHS.unit, K2S_PATHS.lateUnit].map((f) => statSync(r(f), { bigint: true }).mtimeNs);
    const current: string[][] = [];
    await (await detectServiceManager(fs, recordingExec(current))).start(spec);
    expect([K2S_PATHS.unit, K2S_PATHS.lateUnit].map((f) => statSync(r(f), { bigint: true }).mtimeNs)).toEqual(before);
    expect(current.slice(0, 2)).toEqual([
      ['systemctl', 'reset-failed', 'k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'],
      ['systemctl', 'show', '-p', 'Id', '-p', 'LoadState', '-p', 'NeedDaemonReload', '--', 'k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'],
    ]);
    expect(current[2]).toEqual(['systemctl', 'restart', '--job-mode=ignore-requirements', 'k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service']);
    // Unchanged files, but the manager holds one from an older file (someone edited it): a reload.
    const stale: string[][] = [];
    await (await detectServiceManager(fs, recordingExec(stale, new Set(['k2s-dnsproxy-kubeswitch.service'])))).start(spec);
    expect(stale.slice(1, 3)).toEqual([
      ['systemctl', 'show', '-p', 'Id', '-p', 'LoadState', '-p', 'NeedDaemonReload', '--', 'k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'],
      ['systemctl', 'daemon-reload'],
    ]);
  });

  it("preflight's status and askUnits ask the reload question for every K2s unit and prepareStart the reset, before start, which then only links and restarts; a unit they heard stale is reloaded for without a second question, one rewritten since whatever they heard", async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    const spec = { argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy', lateListeners: { mainArgv: ['/usr/sbin/dnsmasq', '--keep-in-foreground', '--listen-address=127.0.0.1'], argv: ['/usr/sbin/dnsmasq', '--keep-in-foreground', '--listen-address=172.19.1.1'], addresses: ['172.19.1.1'] } };
    // The first start after install: no unit file yet, prepareStart asks nothing.
    const first: string[][] = [];
    const svcFirst = await detectServiceManager(fs, recordingExec(first));
    await svcFirst.prepareStart!();
    expect(first).toEqual([]);
    await svcFirst.start(spec);
    const calls: string[][] = [];
    const svc = await detectServiceManager(fs, recordingExec(calls));
    svc.askUnits!();
    // Preflight's reads are answered by askUnits' one show: no process of their own.
    expect(await svc.status()).toMatchObject({ running: true, pid: 4242 });
    expect(await svc.resolvedActive!()).toBe(true);
    await svc.prepareStart!();
    const units = ['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'];
    expect(calls).toEqual([ASK_UNITS, ['systemctl', 'reset-failed', ...units]]);
    calls.length = 0;
    await svc.start(spec);
    expect(calls[0]).toEqual(['systemctl', 'restart', '--job-mode=ignore-requirements', ...units]);
    // Status heard the kubeswitch unit loaded from an older file: a reload, no second question.
    const stale: string[][] = [];
    const svcStale = await detectServiceManager(fs, recordingExec(stale, new Set(['k2s-dnsproxy-kubeswitch.service'])));
    svcStale.askUnits!();
    await svcStale.status();
    await svcStale.prepareStart!();
    stale.length = 0;
    await svcStale.start(spec);
    expect(stale.slice(0, 2)).toEqual([['systemctl', 'daemon-reload'], ['systemctl', 'restart', '--job-mode=ignore-requirements', ...units]]);
    // Asked, then the unit changed (another description): reloaded for, not trusted to the answer.
    const changed: string[][] = [];
    const svc2 = await detectServiceManager(fs, recordingExec(changed));
    svc2.askUnits!();
    await svc2.status();
    await svc2.prepareStart!();
    changed.length = 0;
    await svc2.start({ ...spec, description: 'K2s DNS proxy (dnsmasq)' });
    expect(changed.slice(0, 2)).toEqual([['systemctl', 'daemon-reload'], ['systemctl', 'restart', '--job-mode=ignore-requirements', ...units]]);
  });

  it("askUnits' one show answers status() and resolvedActive() until the manager changes a unit; then, or when that show failed, each asks its own", async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    const calls: string[][] = [];
    let showFails = false;
    const block = (id: string, active: string, pid: number) => `Id=${id}\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=${active}\nSubState=${active === 'active' ? 'running' : 'dead'}\nNRestarts=0\nExecMainCode=0\nExecMainStatus=0\nMainPID=${pid}\nResult=success\n`;
    const exec: Exec = {
      run: async (file, args) => {
        calls.push([file, ...args]);
        if (args[0] === 'show' && showFails && args.length > 25) return { code: 1, stdout: '', stderr: 'Failed to connect to bus' };
        if (args[0] === 'show') return { code: 0, stdout: args.slice(args.indexOf('--') + 1).map((u) => block(u, u === 'systemd-resolved.service' ? 'inactive' : 'active', u === 'k2s-dnsproxy.service' ? 777 : 0)).join('\n'), stderr: '' };
        if (args[0] === 'is-active') return { code: 3, stdout: 'inactive\n', stderr: '' };
        return { code: 0, stdout: '', stderr: '' };
      },
    };
    const svc = await detectServiceManager(fs, exec);
    svc.askUnits!();
    expect(await svc.status()).toMatchObject({ running: true, pid: 777 });
    expect(await svc.resolvedActive!()).toBe(false);
    expect(await svc.status()).toMatchObject({ running: true, pid: 777 });
    expect(calls).toEqual([ASK_UNITS]);
    // A change by this manager (prepareStart's reset): the answer no longer stands.
    await svc.prepareStart!();
    calls.length = 0;
    expect(await svc.status()).toMatchObject({ running: true, pid: 777 });
    expect(await svc.resolvedActive!()).toBe(false);
    expect(calls).toEqual([STATUS_SHOW, ['systemctl', 'is-active', 'systemd-resolved.service']]);
    // The one show failed: each read asks its own, as without it.
    showFails = true;
    const svc2 = await detectServiceManager(fs, exec);
    calls.length = 0;
    svc2.askUnits!();
    expect(await svc2.status()).toMatchObject({ running: true, pid: 777 });
    expect(await svc2.resolvedActive!()).toBe(false);
    expect(calls).toEqual([ASK_UNITS, STATUS_SHOW, ['systemctl', 'is-active', 'systemd-resolved.service']]);
  });

  it('start makes the links while the proxy restarts, and they are on disk when start returns or throws (a rollback\'s stop then finds every one)', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const fs = createHostFs(root);
    const spec = { argv: ['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml'], logFile: K2S_PATHS.log, description: 'K2s DNS proxy' };
    const link = '/etc/systemd/system/multi-user.target.wants/k2s-dnsproxy.service';
    for (const failing of ['restart', 'daemon-reload']) {
      await fs.remove(link);
      await fs.remove(K2S_PATHS.unit);
      const exec: Exec = { run: async (_file, args) => (args[0] === failing ? { code: 1, stdout: '', stderr: `${failing} refused` } : { code: 0, stdout: '', stderr: '' }) };
      await expect((await detectServiceManager(fs, exec)).start(spec)).rejects.toThrow(`${failing} refused`);
      expect(await fs.readlink(link)).toBe(K2S_PATHS.unit);
    }
  });

  it('installRouteUnit: writes k2s-dnsproxy-resolved.service for the route file, reenables and restarts only it (the running proxy is left alone)', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const calls: string[][] = [];
    const svc = await detectServiceManager(createHostFs(root), recordingExec(calls));
    await svc.installRouteUnit?.('/var/lib/k2s/dns-resolved-route.conf');
    expect(readFileSync(r(K2S_PATHS.routeUnit), 'utf8')).toBe(renderRouteUnit('/var/lib/k2s/dns-resolved-route.conf'));
    expect(statSync(r(K2S_PATHS.routeUnit)).mode & 0o777).toBe(0o644);
    // Its link made in-process, as `systemctl --root=/ reenable` makes it (unit-links.ts): no systemctl for it.
    expect(calls).toEqual([
      ['systemctl', 'daemon-reload'],
      ['systemctl', 'restart', 'k2s-dnsproxy-resolved.service'],
    ]);
    expect(await createHostFs(root).readlink('/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-resolved.service')).toBe(K2S_PATHS.routeUnit);
  });

  it('a failing systemctl names the command and where to look', async () => {
    mkdirSync(r('run/systemd/system'), { recursive: true });
    const exec: Exec = { run: async (_file, args) => (args[0] === 'show' ? { code: 0, stdout: 'Id=k2s-dnsproxy.service\nLoadState=loaded\nNeedDaemonReload=no\n', stderr: '' } : args[0] === 'restart' ? { code: 1, stdout: '', stderr: 'Failed to restart k2s-dnsproxy.service: Unit is masked.' } : { code: 0, stdout: '', stderr: '' }) };
    const svc = await detectServiceManager(createHostFs(root), exec);
    await expect(svc.start({ argv: ['/usr/sbin/dnsmasq'], logFile: '/var/log/x.log', description: 'd' })).rejects.toThrow(
      'systemctl restart --job-mode=ignore-requirements k2s-dnsproxy.service failed (Failed to restart k2s-dnsproxy.service: Unit is masked.); see "journalctl -u k2s-dnsproxy.service"',
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
      // --man=no (systemd-analyze(1)): Documentation= names man:k2s-dns(1), which the packages
      // install (scripts/package/layout.test.ts) and a build machine's checkout does not.
      const res = spawnSync('systemd-analyze', ['verify', '--man=no', unitPath], { encoding: 'utf8' });
      expect(res.stderr).toBe('');
      expect(res.stdout).toBe('');
      expect(res.status).toBe(0);
    },
  );
});

/** A long-running fake proxy whose argv carries `marker` (node keeps every argv entry). */
function fakeProxyArgv(marker: string): string[] {
  return [process.execPath, '-e', 'setTimeout(() => {}, 30000)', '--', marker];
}

describe('supervised manager', () => {
  it('the pid is on disk before the proxy runs (its shell writes it before exec); output appended to the log', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
    mkdirSync(r('var/log/dnsproxy'), { recursive: true });
    mkdirSync(r('etc'), { recursive: true });
    writeFileSync(r('etc/group'), 'root:x:0:\nadm:x:4:\n');
    // Older versions left it world-readable: start repairs it to root:adm 0640.
    writeFileSync(r(K2S_PATHS.log), 'earlier line\n', { mode: 0o644 });
    const marker = `--conf-file=${r(K2S_PATHS.dnsmasqConfig)}`;
    const { pid } = await svc.start({ argv: fakeProxyArgv(marker), logFile: K2S_PATHS.log, description: 'test' });
    expect(pid).toBeGreaterThan(1);
    started.push(pid as number);
    expect(statSync(r(K2S_PATHS.log)).mode & 0o777).toBe(0o640);
    if (process.geteuid?.() === 0) expect(statSync(r(K2S_PATHS.log)).gid).toBe(4);
    expect(readFileSync(r(K2S_PATHS.pidFile), 'utf8')).toBe(`${pid}\n`);
    // The recorded pid IS the proxy (exec kept the shell's pid): its argv is exactly ours.
    // start returns only after the exec: the first status read already sees the proxy, never its shell.
    expect(await svc.status()).toEqual({ running: true, pid });
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toBe([...fakeProxyArgv(marker), ''].join('\0'));
    await svc.stop();
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(readFileSync(r(K2S_PATHS.log), 'utf8')).toBe('earlier line\n');
  });

  it('sleep 30: status running with the pid, stop sends SIGTERM, stops the watchdog and removes the pidfile', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
    const { pid } = await svc.start({ argv: ['sleep', '30'], logFile: K2S_PATHS.log, description: 'test' });
    started.push(pid as number);
    const watchdog = Number(readFileSync(r('run/k2s/dnsproxy-watchdog.pid'), 'utf8'));
    started.push(watchdog);
    expect(readFileSync(r(K2S_PATHS.pidFile), 'utf8')).toBe(`${pid}\n`);
    expect(await svc.status()).toEqual({ running: true, pid });
    await expect.poll(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toBe('sleep\u000030\u0000');
    await svc.stop();
    expect(await isProcessRunning(pid as number, 'sleep')).toBe(false);
    expect(existsSync(`/proc/${watchdog}/cmdline`) && readFileSync(`/proc/${watchdog}/cmdline`).length > 0).toBe(false);
    expect(existsSync(r(K2S_PATHS.pidFile))).toBe(false);
    expect(await svc.status()).toEqual({ running: false, pid: null });
  });

  it('stop looks for the watchdog\'s end again after 1, 2, 4 … ms, never a whole poll period after the SIGTERM', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000, pollMs: 10 });
    const { pid } = await svc.start({ argv: ['sleep', '30'], logFile: K2S_PATHS.log, description: 'test' });
    started.push(pid as number, Number(readFileSync(r('run/k2s/dnsproxy-watchdog.pid'), 'utf8')));
    await expect.poll(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toBe('sleep\u000030\u0000');
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await svc.stop();
      // The waits stop slept, in order: each wait (the watchdog's, then the proxy's) a backoff
      // from 1 ms, doubled up to pollMs (its first wait was 10 ms).
      const waits = timers.mock.calls.map(([, ms]) => ms as number);
      expect(waits.length).toBeGreaterThan(0);
      expect(waits[0]).toBe(1);
      waits.forEach((w, i) => expect(i === 0 || w === 1 || w === Math.min(10, waits[i - 1]! * 2), `waits ${waits.join(', ')}`).toBe(true));
    } finally {
      timers.mockRestore();
    }
    expect(await isProcessRunning(pid as number, 'sleep')).toBe(false);
    expect(await svc.status()).toEqual({ running: false, pid: null });
  });

  it('watchdog: a proxy killed with SIGKILL is restarted (new pid recorded, restart counted and logged)', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
    const { pid } = await svc.start({ argv: ['sleep', '30'], logFile: K2S_PATHS.log, description: 'test' });
    started.push(pid as number, Number(readFileSync(r('run/k2s/dnsproxy-watchdog.pid'), 'utf8')));
    process.kill(pid as number, 'SIGKILL');
    // Backoff is 1 s for the first restart; allow a busy host 10 s.
    await expect.poll(async () => { const st = await svc.status(); return st.running && st.pid !== pid; }, { timeout: 10_000, interval: 100 }).toBe(true);
    const after = await svc.status();
    expect(after.running).toBe(true);
    started.push(after.pid as number);
    const dog = await readWatchdogState(fs);
    expect(dog).toMatchObject({ restarts: 1, state: 'running', lastExit: 137, lastPid: pid });
    // When it ended: within this test's run (whole seconds, as the watchdog's date +%s).
    expect(dog!.lastExitAt).toBeGreaterThan(Date.now() - 15_000);
    expect(dog!.lastExitAt).toBeLessThanOrEqual(Date.now());
    expect(readFileSync(r(K2S_PATHS.log), 'utf8')).toContain('k2s-dns watchdog: the proxy exited with status 137; restart 1 of 6 in 1s.');
    await svc.stop();
    expect(await svc.status()).toEqual({ running: false, pid: null });
  });

  it('an orphan with our exact config argument (no pidfile) counts as running and is stopped; a substring does not count', async () => {
    const fs = createHostFs(root);
    const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
    const orphan = spawn(process.execPath, fakeProxyArgv(`--conf-file=${r(K2S_PATHS.dnsmasqConfig)}`), { stdio: 'ignore' });
    const foreign = spawn(process.execPath, fakeProxyArgv(`--conf-file=${r(K2S_PATHS.dnsmasqConfig)}.other`), { stdio: 'ignore' });
    started.push(orphan.pid as number, foreign.pid as number);
    await expect.poll(async () => (await svc.status()).pid).toBe(orphan.pid);
    const exited = new Promise((res) => orphan.once('exit', (_c, sig) => res(sig)));
    await svc.stop();
    expect(await exited).toBe('SIGTERM');
    expect(foreign.exitCode).toBeNull();
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

  it('stop walks /proc once when no watchdog runs (nothing can have started a proxy meanwhile), twice after stopping one', async () => {
    const fs = createHostFs(root);
    const procDir = path.join(root, 'proc');
    mkdirSync(path.join(procDir, '4242'), { recursive: true });
    writeFileSync(path.join(procDir, '4242', 'cmdline'), 'sleep\u000030\u0000');
    const walks = vi.spyOn(fsp, 'readdir');
    const walksOfProc = () => walks.mock.calls.filter(([dir]) => dir === procDir).length;
    try {
      await createSupervisedManager(fs, { stopTimeoutMs: 3000, procDir }).stop();
      expect(walksOfProc()).toBe(1);
      // A live watchdog (this host's /proc): stopped, then /proc is walked again for a proxy it started meanwhile.
      const svc = createSupervisedManager(fs, { stopTimeoutMs: 3000 });
      const { pid } = await svc.start({ argv: ['sleep', '30'], logFile: K2S_PATHS.log, description: 'test' });
      started.push(pid as number, Number(readFileSync(r('run/k2s/dnsproxy-watchdog.pid'), 'utf8')));
      walks.mockClear();
      await svc.stop();
      expect(walks.mock.calls.filter(([dir]) => dir === '/proc').length).toBe(2);
      expect(await isProcessRunning(pid as number, 'sleep')).toBe(false);
    } finally {
      walks.mockRestore();
    }
  });

  it('a missing binary fails start with the fix', async () => {
    const svc = createSupervisedManager(createHostFs(root));
    await expect(svc.start({ argv: [path.join(root, 'no-such-proxy')], logFile: K2S_PATHS.log, description: 'x' })).rejects.toThrow(
      /^Cannot start .*no-such-proxy \(spawn .* ENOENT\); check that the proxy binary exists and is executable\.$/,
    );
  });
});

describe('waitForExec (the gap between the pid write and the exec)', () => {
  /** A fake /proc whose entry for this (live) process shows `argv` as its cmdline. */
  function fakeProc(argv: string[]): string {
    const dir = r(`proc/${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'cmdline'), `${argv.join('\0')}\0`);
    return r('proc');
  }

  it('waits while the pid still runs the shell or setpriv, and returns true once the proxy is exec\'d', async () => {
    const procDir = fakeProc(['sh', '-c', 'printf ...; exec "$@"']);
    expect(await isProcessRunning(process.pid, '/opt/k2s/bin/dnsproxy', procDir)).toBe(false); // what status() saw in the gap
    setTimeout(() => fakeProc(['setpriv', '--reuid=nobody', '--', '/opt/k2s/bin/dnsproxy']), 100);
    setTimeout(() => fakeProc(['/opt/k2s/bin/dnsproxy', '--config-path=/etc/k2s/dnsproxy.yaml']), 300);
    const t0 = Date.now();
    expect(await waitForExec(process.pid, '/opt/k2s/bin/dnsproxy', 10_000, procDir, 10)).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  it('returns false at the deadline when the exec never comes, and at once for a pid that is gone', async () => {
    const procDir = fakeProc(['sh', '-c', 'x']);
    expect(await waitForExec(process.pid, '/opt/k2s/bin/dnsproxy', 200, procDir, 10)).toBe(false);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const t0 = Date.now();
    expect(await waitForExec(Number(gone), '/opt/k2s/bin/dnsproxy', 10_000, procDir, 10)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
