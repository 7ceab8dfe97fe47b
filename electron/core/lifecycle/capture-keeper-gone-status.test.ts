/**
 * Status when the capture companion's keeper (host/capture-keeper.ts, hosts without systemd) was
 * killed while the companion runs on (host/capture-keeper-gone.ts): the query log still fills,
 * but a crash of the companion would not be restarted; said with stop, then start as the fix (a
 * running start alone changes nothing), and K2s DNS stays `running`, as with a dead network
 * follower. Not said while the keeper runs, nor once the companion is gone (its stop is said).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

/** A PID that has exited (a keeper killed). */
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** A live process whose /proc cmdline is `/bin/sh -c 'sleep 30; :' NAME` (`; :` keeps sh from exec'ing sleep). */
async function standIn(name: string): Promise<number> {
  const p = spawn('/bin/sh', ['-c', 'sleep 30; :', name], { stdio: 'ignore' });
  onTestFinished(() => void p.kill('SIGKILL'));
  await new Promise((r) => p.once('spawn', r));
  return p.pid!;
}

/** A started host whose companion's ready file names `companion` and whose capture pidfile names `keeper`. */
async function hostWith(companion: number, keeper: number) {
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  await mkdir(join(h.root, 'run/k2s'), { recursive: true });
  await writeFile(join(h.root, 'run/k2s/capture.ready'), `${companion}\n`);
  await writeFile(join(h.root, 'run/k2s/capture.pid'), `${keeper}\n`);
  return h;
}

const said = (messages: string[]) => messages.filter((m) => m.startsWith('The exact query log is no longer supervised'));

describe('status with the capture keeper gone', () => {
  it('killed while its companion runs: "no longer supervised", with both PIDs and stop, then start; K2s DNS still running', async () => {
    const companion = await standIn('capture-watch');
    const keeper = deadPid();
    const h = await hostWith(companion, keeper);
    const s = await dnsStatus(h.deps);
    expect(s.state).toBe('running');
    expect(said(s.messages)).toEqual([
      `The exact query log is no longer supervised: its keeper (PID ${keeper}) is not running, so a crash of its companion (PID ${companion}, still capturing) will not be restarted; to run it under a keeper again, run as root: \`sudo npx k2s-dns stop\`, then \`sudo npx k2s-dns start --verify-name www.example.test\`, or \`su -c 'npx k2s-dns stop && npx k2s-dns start --verify-name www.example.test'\` where sudo is not installed.`,
    ]);
    // The window's words (the Host DNS card shows status's messages).
    expect(said((await dnsStatus(h.deps, 'gui')).messages)).toEqual([`The exact query log is no longer supervised: its keeper (PID ${keeper}) is not running, so a crash of its companion (PID ${companion}, still capturing) will not be restarted; press Stop, then Start to run it under a keeper again.`]);
    expect(s.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([]);
  });

  it('its pid taken by another program counts as gone; a live keeper, or a companion that is gone too, is not said', async () => {
    const companion = await standIn('capture-watch');
    const other = await standIn('not-a-keeper');
    expect(said((await dnsStatus((await hostWith(companion, other)).deps)).messages)).toHaveLength(1);
    const keeper = await standIn('k2s-dns-capture-keeper');
    expect(said((await dnsStatus((await hostWith(companion, keeper)).deps)).messages)).toEqual([]);
    const gone = await dnsStatus((await hostWith(deadPid(), deadPid())).deps);
    expect(said(gone.messages)).toEqual([]);
    expect(gone.messages.filter((m) => m.startsWith('The exact query log stopped'))).toHaveLength(1);
  });
});
