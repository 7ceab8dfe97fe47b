/**
 * kill -9 of `k2s-dns start` once a companion runs, then `k2s-dns status` (its implicit
 * recovery): the rolled-back start leaves neither the capture companion (with its tcpdump and
 * parser) nor the network follower running — asserted by the PIDs their pidfiles named and the
 * companion's own children, read from /proc inside the sandbox (a held companion: this file's
 * alone, e2e/support/bed-procs.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { K2S_PATHS } from '../shared/k2s-paths';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestbed, type Testbed } from './bed/testbed';
import { runCmd } from './bed/run-cmd';
import { k2sDns } from './cli';
import { ownBedProcs } from './support/bed-procs';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: recover-companions e2e runs only inside e2e/bed/sandbox.sh (as root)');
const tcpdump = inSandbox ? await runCmd('sh', ['-c', 'command -v tcpdump || true']).then((s) => s.trim()) : '';
const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));

/** argv of /proc/PID ([] once it is gone or a zombie). */
const cmdline = (pid: number) => readFile(`/proc/${pid}/cmdline`, 'utf8').then((c) => c.split('\0').filter(Boolean), () => [] as string[]);

/** The pid a pidfile names while it runs `verb`, else null. */
async function running(pidFile: string, verb: string): Promise<number | null> {
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  return pid > 1 && (await cmdline(pid)).includes(verb) ? pid : null;
}

/** Live child pids of `parent` (/proc/PID/stat field 4). */
async function children(parent: number): Promise<number[]> {
  const out: number[] = [];
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = await readFile(`/proc/${d}/stat`, 'utf8').catch(() => '');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] !== 'Z' && Number(f[1]) === parent) out.push(Number(d));
  }
  return out;
}

/** Runs `k2s-dns start` and kill -9s it once `pidFile` names a live `verb`; returns that pid. */
async function killStartOnce(tb: Testbed, pidFile: string, verb: string): Promise<number> {
  const child = spawn(process.execPath, [BIN, 'start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'], { stdio: 'ignore', detached: true });
  const exited = new Promise((r) => child.once('exit', r));
  const deadline = Date.now() + 30_000;
  let pid: number | null = null;
  while (pid === null && Date.now() < deadline) {
    pid = await running(pidFile, verb);
    if (pid === null) await new Promise((r) => setTimeout(r, 5));
  }
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
  expect(pid).not.toBeNull();
  return pid!;
}

describe.skipIf(!inSandbox || tcpdump === '')('recovery of a killed start ends both companions', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  /** Runs `status` (its implicit recovery) and asserts the rollback left none of `pids` nor the capture's children. */
  async function statusRollsBack(before: unknown, pids: (number | null)[]): Promise<void> {
    const capture = await running('/run/k2s/capture.pid', 'capture-watch');
    const kids = capture === null ? [] : await children(capture);
    const status = await k2sDns(['status']);
    expect(status.stdout).toMatch(/Recovered an interrupted start \(killed during "[a-z-]+"\): rolled back; the original resolver is back and k2s-dnsproxy is stopped\./);
    expect(status.stdout).toMatch(/K2s DNS: stopped/);
    for (const p of [...pids, capture, await running('/run/k2s/follow.pid', 'follow-watch'), ...kids]) if (p !== null) expect({ pid: p, argv: await cmdline(p) }).toEqual({ pid: p, argv: [] });
    expect(await tb.snapshotResolver()).toEqual(before);
  }

  it('kill -9 of start once the capture companion runs: status rolls it back and no companion, tcpdump or parser is left', async () => {
    const before = await tb.snapshotResolver();
    await statusRollsBack(before, [await killStartOnce(tb, '/run/k2s/capture.pid', 'capture-watch')]);
  }, 90_000);

  it('kill -9 of start while its capture companion is still held (begun under the lock, before preflight): that process ends, nothing of it is left', async () => {
    const before = await tb.snapshotResolver();
    const child = spawn(process.execPath, [BIN, 'start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'], { stdio: 'ignore', detached: true });
    const exited = new Promise((r) => child.once('exit', r));
    // The held companion: `… capture-watch --held` (host/capture-companion.ts prepare), this file's
    // (e2e/support/bed-procs.ts): one another file of the run left running is not this start's.
    const heldPid = async (): Promise<number | null> => (await ownBedProcs()).find((p) => p.role === 'companion' && p.argv.slice(1, 4).join(' ').endsWith('capture-watch --held'))?.pid ?? null;
    const deadline = Date.now() + 30_000;
    let held: number | null = null;
    while (held === null && Date.now() < deadline) {
      held = await heldPid();
      if (held === null) await new Promise((r) => setTimeout(r, 2));
    }
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    expect(held).not.toBeNull();
    // Recovery, should the kill have come after save (then it was let go, and is the companion).
    await k2sDns(['status']);
    await expect.poll(() => cmdline(held!), { timeout: 10_000 }).toEqual([]);
    expect(await running('/run/k2s/capture.pid', 'capture-watch')).toBeNull();
    expect(await heldPid()).toBeNull();
    expect(await tb.snapshotResolver()).toEqual(before);
  }, 90_000);

  it('start killed after the follower started (before its journal was cleared): status ends the follower and the capture too', async () => {
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test'])).code).toBe(0);
    const follower = await running('/run/k2s/follow.pid', 'follow-watch');
    const capture = await running('/run/k2s/capture.pid', 'capture-watch');
    expect(follower).not.toBeNull();
    expect(capture).not.toBeNull();
    // The journal a start killed there leaves: a dead pid, the step it was in.
    const dead = spawnSync('true').pid;
    await writeFile(K2S_PATHS.journal, JSON.stringify({ version: 1, op: 'start', step: 'verify', pid: dead, startedAt: new Date().toISOString(), updatedAt: new Date().toISOString() }));
    await statusRollsBack(before, [follower, capture]);
  }, 90_000);

  it('stop refused BUSY (another holder of the lifecycle lock) changes nothing: the same follower runs, its pidfile stays', async () => {
    const before = await tb.snapshotResolver();
    expect((await k2sDns(['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test'])).code).toBe(0);
    const follower = await running('/run/k2s/follow.pid', 'follow-watch');
    expect(follower).not.toBeNull();
    // `( flock -x 9; sleep 60 ) 9>/run/k2s/dns-lifecycle.lock`, in its own group to kill by its PID.
    const holder = spawn('flock', ['--exclusive', '/run/k2s/dns-lifecycle.lock', 'sh', '-c', 'echo held; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    await new Promise((r) => holder.stdout!.once('data', r));
    const gone = new Promise((r) => holder.once('exit', r));
    try {
      const stop = await k2sDns(['stop', '--json']);
      expect(stop.code).toBe(3);
      expect(stop.result).toMatchObject({ ok: false, code: 'BUSY' });
      expect(await running('/run/k2s/follow.pid', 'follow-watch')).toBe(follower);
    } finally {
      process.kill(-holder.pid!, 'SIGKILL');
    }
    await gone;
    for (let i = 0; i < 100 && (await k2sDns(['stop'])).code === 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await cmdline(follower!)).toEqual([]);
    expect(await tb.snapshotResolver()).toEqual(before);
  }, 90_000);
});
