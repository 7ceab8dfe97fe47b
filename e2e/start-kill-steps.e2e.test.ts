/**
 * kill -9 of `k2s-dns start` at each step boundary, inside the sandbox: the CLI is killed the
 * moment its `--json` stream says a step began or ended (start's journal writes after save's are
 * then often still in flight: teardown.ts journaledReporter), or once its network follower is
 * spawned held (the HOLD_BACK shell, start.ts service step). The next command — status, start or
 * stop in turn — recovers it: /etc/resolv.conf byte-identical to before (a start that had
 * finished is stopped first), no journal, no proxy, and neither a follower nor a held shell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { K2S_PATHS } from '../shared/k2s-paths';
import { FOLLOW_LOG } from '../electron/core/host/follower';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: start-kill-steps e2e runs only inside e2e/bed/sandbox.sh (as root)');
const FOLLOW_PID = '/run/k2s/follow.pid';
const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));

/** argv of /proc/PID ([] once gone). */
const cmdline = (pid: string) => readFile(`/proc/${pid}/cmdline`, 'utf8').then((c) => c.split('\0').filter(Boolean), () => [] as string[]);

/** Pids in this mount namespace whose argv matches `test` (not this process). */
async function pidsWhere(test: (argv: string[]) => boolean): Promise<number[]> {
  const self = await readlink('/proc/self/ns/mnt');
  const out: number[] = [];
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    const argv = await cmdline(d);
    if (argv.length && test(argv) && (await readlink(`/proc/${d}/ns/mnt`).catch(() => '')) === self) out.push(Number(d));
  }
  return out;
}
/** Our proxies (our config path in the argv), followers and held follower shells. */
const proxies = () => pidsWhere((a) => a.some((w) => /\/etc\/k2s\/(dnsmasq\.conf|dnsproxy\.yaml)/.test(w)));
const followers = () => pidsWhere((a) => a.at(-1) === 'follow-watch');
const heldShells = () => pidsWhere((a) => a[0] === '/bin/sh' && a.at(-1) === 'follow-watch');

type KillAt = { event: string } | { held: true } | { pidfile: true };

/** Runs start and kill -9s its process group at `at`; returns what was on disk right after. */
async function killStart(tb: Testbed, at: KillAt): Promise<{ killed: boolean; journalStep: string | null; seen: string[] }> {
  const child = spawn(process.execPath, [BIN, 'start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const exited = new Promise((r) => child.once('close', r));
  const seen: string[] = [];
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  let buf = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.startsWith('{"type":"step"')) continue;
      const e = JSON.parse(line) as { step: string; status: string };
      seen.push(`${e.step}:${e.status}`);
      if ('event' in at && `${e.step}:${e.status}` === at.event) kill();
    }
  });
  if (!('event' in at)) {
    let done = false;
    void exited.then(() => (done = true));
    // The follower's pidfile is written by startHeld (ready), before "go" and the journal's clearing.
    const look = 'held' in at ? async () => (await heldShells()).length > 0 : async () => (await readFile(FOLLOW_PID, 'utf8').catch(() => '')) !== '';
    while (!done && !killed) {
      if (await look()) kill();
      else await new Promise((r) => setImmediate(r));
    }
  }
  await exited;
  const j = await readFile(K2S_PATHS.journal, 'utf8').then((t) => (JSON.parse(t) as { step: string }).step, () => null);
  return { killed, journalStep: j, seen };
}

const KILL_POINTS: KillAt[] = [
  ...['save', 'discover', 'config', 'service', 'activate', 'verify'].flatMap((s) => [{ event: `${s}:running` }, { event: `${s}:done` }]),
  { event: 'ready:done' },
  { held: true },
  { pidfile: true },
];
const NEXT = ['status', 'start', 'stop'] as const;

describe.skipIf(!inSandbox)('kill -9 of start at each step boundary, then status/start/stop', () => {
  let tb: Testbed;
  beforeAll(async () => {
    tb = await startTestbed();
  }, 90_000);
  afterAll(async () => {
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
  }, 60_000);

  // Three rounds, each kill point followed by another of the three commands.
  for (const { round, at, i } of [0, 1, 2].flatMap((round) => KILL_POINTS.map((at, i) => ({ round, at, i })))) {
    const next = NEXT[(i + round) % NEXT.length]!;
    const where = 'event' in at ? `at ${at.event}` : 'held' in at ? 'once the follower is spawned held' : 'once the follower\'s pidfile is written';
    it(`#${round} kill -9 ${where}, then ${next}: the resolver comes back byte-identical, nothing of ours is left`, async () => {
      const before = await tb.snapshotResolver();
      const k = await killStart(tb, at);
      console.log(`kill ${where}: killed=${k.killed} journal=${k.journalStep} seen=${k.seen.join(',')} held=${(await heldShells()).length} followers=${(await followers()).length}`);
      // A held shell reads EOF once its starter is gone, and exits having run nothing.
      await expect.poll(heldShells, { timeout: 10_000 }).toEqual([]);
      const args = next === 'start' ? ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'] : [next, '--json'];
      const r = await k2sDns(args);
      if (next === 'start') {
        expect(r.result).toMatchObject({ ok: true });
        // Polled: the held shell execs the follower after its "go", and a /proc/PID/cmdline read
        // inside that execve (between the new memory map and its argument area) is empty. Said
        // with the result and the follower's own log when it fails: a follower that exited says why there.
        const why = async () => `result ${JSON.stringify(r.result)}; follow.log: ${(await readFile(FOLLOW_LOG, 'utf8').catch(() => '(none)')).slice(-600)}`;
        await expect.poll(followers, { timeout: 10_000, message: await why() }).toHaveLength(1);
        expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
      } else if (next === 'status' && k.journalStep === null && (await proxies()).length > 0) {
        // Killed after the journal was cleared: K2s DNS runs; a stop takes it back.
        expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
      }
      expect(await tb.snapshotResolver()).toEqual(before);
      expect(await readFile(K2S_PATHS.journal, 'utf8').catch(() => 'absent')).toBe('absent');
      expect(await proxies()).toEqual([]);
      expect(await followers()).toEqual([]);
      expect(await heldShells()).toEqual([]);
    }, 120_000);
  }
});
