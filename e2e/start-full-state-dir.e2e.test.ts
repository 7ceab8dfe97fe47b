/**
 * start on an almost full /var/lib/k2s (a small tmpfs, filled to leave 0, 1, 2 … pages), inside
 * the sandbox: each of start's writes there (journal, state file) in turn meets ENOSPC, the
 * journal writes after save's while they are not waited for by their own step (teardown.ts
 * journaledReporter). Every start either refuses with nothing changed (NO_SPACE), fails rolled
 * back, or runs; none leaves a journal behind, the resolver is byte-identical afterwards, and
 * once there is room again the next command recovers nothing (a left journal would roll back a
 * running K2s DNS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { K2S_PATHS } from '../shared/k2s-paths';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: start-full-state-dir e2e runs only inside e2e/bed/sandbox.sh (as root)');

const run = (file: string, args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(file, args, (e, stdout, stderr) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out: `${stdout}${stderr}` })),
  );

/** Size of the tmpfs, pages of 4 KiB (tmpfs counts whole pages). */
const PAGES = 16;
const FILLER = `${K2S_PATHS.stateDir}/filler`;

describe.skipIf(!inSandbox)('start on an almost full /var/lib/k2s', () => {
  let tb: Testbed;
  let start: string[];
  beforeAll(async () => {
    tb = await startTestbed();
    start = ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
    await mkdir(K2S_PATHS.stateDir, { recursive: true });
    expect((await run('mount', ['-t', 'tmpfs', '-o', `size=${PAGES * 4}k,mode=0700`, 'tmpfs', K2S_PATHS.stateDir])).code).toBe(0);
  }, 90_000);
  afterAll(async () => {
    await rm(FILLER, { force: true });
    await k2sDns(['recover', '--force']);
    await run('umount', [K2S_PATHS.stateDir]);
    await tb?.stop();
  }, 60_000);

  for (let free = 0; free <= 6; free++) {
    it(`${free} free page(s): refused, rolled back or running; never a journal left, the resolver byte-identical`, async () => {
      const before = await tb.snapshotResolver();
      await rm(FILLER, { force: true });
      // What else is in the directory (a last-recovery record) counts too: fill to `free` pages left.
      const used = Number((await run('df', ['--output=used', '-B4096', K2S_PATHS.stateDir])).out.trim().split('\n')[1]);
      await writeFile(FILLER, Buffer.alloc((PAGES - used - free) * 4096)).catch(() => undefined);
      const r = await k2sDns(start);
      const steps = r.events.filter((e) => e.type === 'step' && e.status === 'failed').map((e) => ('step' in e ? e.step : ''));
      console.log(`free=${free} used-before=${used}: exit ${r.code} ${r.result?.code ?? 'ok'} failed steps [${steps.join(', ')}]: ${r.result?.message.slice(0, 300)}`);
      expect([0, 1, 3]).toContain(r.code);
      if (r.code === 3) expect(r.result).toMatchObject({ code: 'NO_SPACE' });
      if (r.code === 1) {
        // A journal write after save's, surfacing one step later: named, not a bare ENOSPC.
        expect(r.result).toMatchObject({ code: 'NO_SPACE' });
        expect(r.result?.message).toBe('No space left on the tmpfs filesystem mounted at /var/lib/k2s, so /var/lib/k2s/dns-lifecycle-journal.json cannot be written; free space there (df -h /var/lib/k2s), then start again. Every change was rolled back; the host resolver is as before.');
      }
      expect(await readFile(K2S_PATHS.journal, 'utf8').catch(() => 'absent')).toBe('absent');
      if (r.code !== 0) expect(await tb.snapshotResolver()).toEqual(before);
      // Room again: a running K2s DNS stays running (nothing recovered), then stops byte for byte.
      await rm(FILLER, { force: true });
      const status = await k2sDns(['status']);
      expect(status.stdout).not.toContain('Recovered an interrupted');
      expect(status.stdout).toMatch(r.code === 0 ? /K2s DNS: running/ : /K2s DNS: stopped/);
      if (r.code === 0) expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
      expect(await tb.snapshotResolver()).toEqual(before);
    }, 120_000);
  }
});
