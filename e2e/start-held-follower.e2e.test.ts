/**
 * The network follower spawned held (the HOLD_BACK shell, start.ts service step) and let go at
 * ready, inside the sandbox: a start that fails verify (kube-dns down) rolls back with no
 * follower and no held shell; `--on-network-change keep` never spawns one; a second start while
 * running keeps the running follower (same pid) and leaves no held shell; a follower killed -9 is
 * replaced by the next start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: start-held-follower e2e runs only inside e2e/bed/sandbox.sh (as root)');
const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));
const FOLLOW_PID = '/run/k2s/follow.pid';

const cmdline = (pid: string) => readFile(`/proc/${pid}/cmdline`, 'utf8').then((c) => c.split('\0').filter(Boolean), () => [] as string[]);
async function pidsWhere(test: (argv: string[]) => boolean): Promise<number[]> {
  const out: number[] = [];
  for (const d of await readdir('/proc')) if (/^\d+$/.test(d) && Number(d) !== process.pid && test(await cmdline(d))) out.push(Number(d));
  return out;
}
/** Followers that run (the program itself) and held shells (`/bin/sh -c HOLD_BACK sh … follow-watch`). */
const followers = () => pidsWhere((a) => a.at(-1) === 'follow-watch' && a[0] !== '/bin/sh');
const heldShells = () => pidsWhere((a) => a[0] === '/bin/sh' && a.at(-1) === 'follow-watch');
const recorded = () => readFile(FOLLOW_PID, 'utf8').then((t) => Number(t.trim()), () => null);

/** Runs `k2s-dns ARGS`, looking at /proc for held shells until it exits; returns its exit and the held pids seen. */
async function runWatchingHeld(args: string[]): Promise<{ code: number | null; held: number[] }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore' });
  let code: number | null | undefined;
  child.once('exit', (c) => (code = c));
  const held = new Set<number>();
  while (code === undefined) {
    for (const p of await heldShells()) held.add(p);
    await new Promise((r) => setImmediate(r));
  }
  return { code, held: [...held] };
}

describe.skipIf(!inSandbox)('the follower spawned held during start', () => {
  let tb: Testbed;
  let start: string[];
  beforeAll(async () => {
    tb = await startTestbed();
    start = ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  it('a start that fails verify (kube-dns down): rolled back, the held shell ends, no follower runs, no pidfile', async () => {
    const before = await tb.snapshotResolver();
    await tb.stopCoreDns();
    try {
      const r = await runWatchingHeld(start);
      expect(r.code).toBe(1);
      // It was spawned held (the proxy answered before verify) and dropped by the rollback.
      expect(r.held.length).toBe(1);
      await expect.poll(heldShells, { timeout: 10_000 }).toEqual([]);
      expect(await followers()).toEqual([]);
      expect(await recorded()).toBeNull();
      expect(await tb.snapshotResolver()).toEqual(before);
    } finally {
      await tb.startCoreDns();
    }
  }, 120_000);

  it('--on-network-change keep: no held shell is ever spawned and no follower runs', async () => {
    const before = await tb.snapshotResolver();
    const r = await runWatchingHeld([...start, '--on-network-change', 'keep']);
    expect(r).toEqual({ code: 0, held: [] });
    expect(await followers()).toEqual([]);
    expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
    expect(await tb.snapshotResolver()).toEqual(before);
  }, 120_000);

  it('a second start while running keeps the running follower (same pid) and spawns no held shell', async () => {
    const before = await tb.snapshotResolver();
    expect((await k2sDns(start)).result).toMatchObject({ ok: true });
    const first = await followers();
    expect(first).toHaveLength(1);
    expect(await recorded()).toBe(first[0]);
    const again = await runWatchingHeld(start);
    expect(again).toEqual({ code: 0, held: [] });
    expect(await followers()).toEqual(first);
    expect(await recorded()).toBe(first[0]);
    // Killed -9, the next start replaces it.
    process.kill(first[0]!, 'SIGKILL');
    await expect.poll(followers, { timeout: 10_000 }).toEqual([]);
    const third = await k2sDns(start);
    expect(third.result).toMatchObject({ ok: true, message: 'K2s DNS is already running; the network follower was restarted.' });
    // Restarted on a running host, the follower's shell execs it once start has written its pidfile
    // and the "go" line (pidfile-process.ts start): start may return while it is still that shell.
    await expect.poll(followers, { timeout: 10_000 }).toHaveLength(1);
    const next = await followers();
    expect(next[0]).not.toBe(first[0]);
    expect(await recorded()).toBe(next[0]);
    expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
    expect(await followers()).toEqual([]);
    expect(await tb.snapshotResolver()).toEqual(before);
  }, 120_000);
});
