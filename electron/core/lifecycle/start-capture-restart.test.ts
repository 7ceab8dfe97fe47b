/**
 * The exact query log's companion stopped while K2s DNS runs (killed with its keeper, kill -9
 * both, on a host without systemd): status says to run start, and a start on the running K2s DNS
 * restarts it with the running plan's argv (it said "already running; nothing changed" before).
 * Never for a K2s DNS started with --no-log-queries, nor without tcpdump (status then says so).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { captureArgvFor } from './capture-argv';
import { readState } from '../host/resolver-state';
import { CAPTURE_READY_FILE } from '../capture/capture-args';
import { CAPTURE_KEEPER_STATE } from '../host/capture-keeper';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const BASE = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'capture-watch'];
const FOLLOWER_ARGV = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'follow-watch'];

/** A PID that has exited (a companion killed). */
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** A live process whose argv is a companion's (`; :` keeps sh from exec'ing sleep). */
async function liveCompanion(): Promise<number> {
  const live = spawn('/bin/sh', ['-c', 'sleep 60; :', 'capture-watch'], { stdio: 'ignore' });
  onTestFinished(() => void live.kill('SIGKILL'));
  await new Promise((r) => live.once('spawn', r));
  return live.pid!;
}

/**
 * A started host (supervised: no systemd) with a fake companion whose start records its argv and,
 * unless `fail`, leaves a ready file and keeper state naming a live companion (as the keeper's run does).
 */
async function startedHost(opts: { logQueries?: boolean; tcpdump?: string | null; fail?: string } = {}) {
  const h = await newHost('nameserver 192.0.2.53\n');
  const live = await liveCompanion();
  const starts: string[][] = [];
  let failNow = false;
  h.deps.capture = {
    argv: BASE,
    tcpdump: opts.tcpdump === undefined ? '/usr/bin/tcpdump' : opts.tcpdump,
    manager: {
      start: async (argv) => {
        starts.push(argv);
        if (failNow && opts.fail) throw new Error(opts.fail);
        await mkdir(join(h.root, 'run/k2s'), { recursive: true });
        await writeFile(join(h.root, CAPTURE_READY_FILE), `${live}\n`);
        await writeFile(join(h.root, CAPTURE_KEEPER_STATE), `restarts=0\nstate=running\npid=${live}\n`);
      },
      stop: async () => undefined,
    },
  };
  const started = await startDns(h.deps, { ...TEST_START_OPTS, ...(opts.logQueries === undefined ? {} : { logQueries: opts.logQueries }) }, () => undefined);
  expect(started.ok).toBe(true);
  failNow = true;
  /** kill -9 of the keeper and its companion: both files left naming the dead companion. */
  const killBoth = async () => {
    const dead = deadPid();
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, CAPTURE_READY_FILE), `${dead}\n`);
    await writeFile(join(h.root, CAPTURE_KEEPER_STATE), `restarts=0\nstate=running\npid=${dead}\n`);
    return dead;
  };
  return { h, starts, killBoth };
}

const stopSaid = async (h: Awaited<ReturnType<typeof startedHost>>['h']) => (await dnsStatus(h.deps)).messages.filter((m) => m.startsWith('The exact query log stopped'));

describe('start on a running K2s DNS whose exact query log stopped', () => {
  it('restarts the companion with the running plan\'s argv and says so; status then says nothing of a stop; a start after that changes nothing', async () => {
    const { h, starts, killBoth } = await startedHost();
    const plan = (await readState(h.deps.fs))!.plan!;
    const argv = captureArgvFor(BASE, plan);
    expect(argv.slice(BASE.length)).toEqual(['--listen', '127.0.0.1:53', '--port', '53']);
    expect(starts).toEqual([argv]);
    const dead = await killBoth();
    expect(await stopSaid(h)).toEqual([
      expect.stringMatching(new RegExp(`^The exact query log stopped: its companion \\(capture-watch, PID ${dead}\\) was found dead at \\S+Z, ended without a word \\(killed: kill -9, the OOM killer\\); to restart it, run as root: \`sudo npx k2s-dns start --verify-name www\\.example\\.test\`, or \`su -c 'npx k2s-dns start --verify-name www\\.example\\.test'\` where sudo is not installed\\.$`)),
    ]);
    const events: LifecycleEvent[] = [];
    const again = await startDns(h.deps, TEST_START_OPTS, (e) => void events.push(e));
    expect(again).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; the exact query log was restarted.' });
    expect(events.filter((e) => e.type === 'step' && e.step === 'ready').map((e) => (e as { message: string }).message)).toEqual(['K2s DNS is already running; the exact query log was not, and was restarted.']);
    expect(starts).toEqual([argv, argv]);
    expect(await stopSaid(h)).toEqual([]);
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true, message: 'K2s DNS is already running; nothing changed.' });
    expect(starts).toHaveLength(2);
  });

  it('its keeper killed during its back-off (state "restarting", no keeper runs): the stop is said, not a restart that never comes, and start restarts it', async () => {
    const { h, starts } = await startedHost();
    const dead = deadPid();
    await writeFile(join(h.root, CAPTURE_READY_FILE), `${dead}\n`);
    await writeFile(join(h.root, 'run/k2s/capture.pid'), `${deadPid()}\n`);
    await writeFile(join(h.root, CAPTURE_KEEPER_STATE), `restarts=1\nstate=restarting\nlast-exit=137\nlast-exit-at=1796615103\nlast-pid=${dead}\npid=\n`);
    const messages = (await dnsStatus(h.deps)).messages;
    expect(messages.filter((m) => m.includes('its keeper restarts it'))).toEqual([]);
    expect(await stopSaid(h)).toEqual([expect.stringMatching(/; to restart it, run as root: `sudo npx k2s-dns start /)]);
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true, message: 'K2s DNS is already running; the exact query log was restarted.' });
    expect(starts).toHaveLength(2);
  });

  it('a dead follower and a stopped log: both restarted, both said', async () => {
    const { h, starts, killBoth } = await startedHost();
    let alive = false;
    const followerStarts: string[][] = [];
    h.deps.follower = { argv: FOLLOWER_ARGV, manager: { start: async (a) => void (followerStarts.push(a), (alive = true)), stop: async () => void (alive = false), running: async () => alive } };
    await killBoth();
    const again = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect(again).toMatchObject({ ok: true, message: 'K2s DNS is already running; the network follower and the exact query log were restarted.' });
    expect(followerStarts).toEqual([FOLLOWER_ARGV]);
    expect(starts).toHaveLength(2);
  });

  it('a companion that does not start: a warning, K2s DNS keeps running (exit 0)', async () => {
    const { h, starts, killBoth } = await startedHost({ fail: 'tcpdump: any: You don\'t have permission' });
    await killBoth();
    const again = await startDns(h.deps, TEST_START_OPTS, () => undefined);
    expect(again).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; the exact query log did not start.' });
    expect((again as { warnings?: unknown }).warnings).toEqual([{ code: 'CAPTURE_NOT_STARTED', message: 'The exact query log did not start (tcpdump: any: You don\'t have permission); K2s DNS keeps running without it (the engine logs no queries either): fix the cause, then start again.' }]);
    expect(starts).toHaveLength(2);
  });

  it('started with --no-log-queries: no capture is started, and no stop is said for files left behind', async () => {
    const { h, starts, killBoth } = await startedHost({ logQueries: false });
    expect(starts).toEqual([]);
    await killBoth();
    expect(await stopSaid(h)).toEqual([]);
    expect(await startDns(h.deps, { ...TEST_START_OPTS, logQueries: false }, () => undefined)).toMatchObject({ ok: true, message: 'K2s DNS is already running; nothing changed.' });
    expect(starts).toEqual([]);
  });

  it('a start on a running K2s DNS begins no held companion (dropped unused, its keeper would end the running companion\'s tcpdump and parser)', async () => {
    const { h, starts } = await startedHost();
    const prepared: string[] = [];
    h.deps.capture!.manager.prepare = async (base) => {
      prepared.push('prepare');
      return { base, process: { pid: 4242, exited: () => false, drop: () => void prepared.push('drop'), letGo: () => void prepared.push('go') } };
    };
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true, message: 'K2s DNS is already running; nothing changed.' });
    expect(await startDns(h.deps, { ...TEST_START_OPTS, logQueries: false }, () => undefined)).toMatchObject({ ok: false, code: 'RUNNING_OTHER_OPTIONS' });
    expect(prepared).toEqual([]);
    expect(starts).toHaveLength(1);
  });

  it('tcpdump missing now: no capture is started, and status says to install it before start', async () => {
    const { h, starts, killBoth } = await startedHost();
    h.deps.capture!.tcpdump = null;
    await killBoth();
    expect(await stopSaid(h)).toEqual([expect.stringMatching(/; install tcpdump \(apt-get install tcpdump\), then, to restart it, run as root: `sudo npx k2s-dns start --verify-name www\.example\.test`, or `su -c 'npx k2s-dns start --verify-name www\.example\.test'` where sudo is not installed\.$/)]);
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true, message: 'K2s DNS is already running; nothing changed.' });
    expect(starts).toHaveLength(1);
  });
});
