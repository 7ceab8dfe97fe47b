/**
 * Never strand the host on the real kernel, inside the sandbox: stop on a full
 * /var/lib/k2s, a bind mount that appears over /etc/resolv.conf while K2s runs, chattr +a, a
 * lock file naming a live PID, and a temp file a killed write left in /etc.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { K2S_PATHS } from '../shared/k2s-paths';
import type { ResolverSnapshotForTest } from './bed/resolv-layout';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns } from './cli';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: robust e2e runs only inside e2e/bed/sandbox.sh (as root)');

const run = (file: string, args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(file, args, (e, stdout, stderr) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out: `${stdout}${stderr}` })),
  );

describe.skipIf(!inSandbox)('robust: never strand the host', () => {
  let tb: Testbed;
  let start: string[];
  let before: ResolverSnapshotForTest;
  const same = async () => JSON.stringify(await tb.snapshotResolver()) === JSON.stringify(before);

  beforeAll(async () => {
    tb = await startTestbed();
    start = ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
    before = await tb.snapshotResolver();
  });
  afterEach(async () => {
    await k2sDns(['recover', '--force']);
  });
  afterAll(async () => {
    await tb?.stop();
  });

  it('stop with /var/lib/k2s full (a 64 KiB tmpfs, filled) restores the resolver and names the filesystem', async () => {
    await mkdir(K2S_PATHS.stateDir, { recursive: true });
    expect((await run('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', K2S_PATHS.stateDir])).code).toBe(0);
    try {
      expect((await k2sDns(start)).result).toMatchObject({ ok: true });
      // Fill it: the next byte written there gets ENOSPC.
      await writeFile(`${K2S_PATHS.stateDir}/filler`, Buffer.alloc(64 * 1024)).catch(() => undefined);
      await expect(writeFile(`${K2S_PATHS.stateDir}/probe`, 'x')).rejects.toThrow(/ENOSPC/);
      const stop = await k2sDns(['stop', '--json']);
      expect(stop.result).toMatchObject({ ok: true, exitCode: 0 });
      expect(stop.result?.message).toContain('No space left on the tmpfs filesystem mounted at /var/lib/k2s');
      expect(await same()).toBe(true);
      expect(JSON.parse((await k2sDns(['status', '--json'])).stdout).state).toBe('stopped');
    } finally {
      await run('umount', [K2S_PATHS.stateDir]);
    }
  });

  it('a bind mount appears over /etc/resolv.conf while running: stop keeps the saved original; after umount stop restores it', async () => {
    expect((await k2sDns(start)).result).toMatchObject({ ok: true });
    await writeFile('/run/container-resolv.conf', 'nameserver 10.88.0.1\n');
    expect((await run('mount', ['--bind', '/run/container-resolv.conf', '/etc/resolv.conf'])).code).toBe(0);
    let mounted = true;
    try {
      const stop = await k2sDns(['stop', '--json']);
      expect(stop.result).toMatchObject({ ok: false, exitCode: 1, code: 'BIND_MOUNTED' });
      expect(stop.result?.message).toContain('umount /etc/resolv.conf');
      expect((await lstat(K2S_PATHS.stateFile)).isFile()).toBe(true);
      await run('umount', ['/etc/resolv.conf']);
      mounted = false;
      expect((await readFile('/etc/resolv.conf', 'utf8')).split('\n')[0]).toMatch(/^# Managed by K2s/);
      expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
      expect(await same()).toBe(true);
    } finally {
      if (mounted) await run('umount', ['/etc/resolv.conf']);
    }
  });

  it('append-only /etc/resolv.conf (chattr +a) is refused before anything changes', async () => {
    const set = await run('chattr', ['+a', '/etc/resolv.conf']);
    if (set.code !== 0) {
      console.warn(`skipped: chattr +a does not work on this /etc (${set.out.trim()})`);
      return;
    }
    try {
      const r = await k2sDns(start);
      expect(r.result).toMatchObject({ exitCode: 3, code: 'APPEND_ONLY' });
      await expect(lstat(K2S_PATHS.journal)).rejects.toThrow(/ENOENT/);
    } finally {
      await run('chattr', ['-a', '/etc/resolv.conf']);
    }
    expect(await same()).toBe(true);
  });

  it('lock files naming a live PID (reused after a crash) block nothing: only the kernel lock counts', async () => {
    await mkdir(K2S_PATHS.stateDir, { recursive: true });
    await mkdir(K2S_PATHS.runDir, { recursive: true });
    await writeFile(K2S_PATHS.lock, '1\n');
    await writeFile(`${K2S_PATHS.runDir}/dns-lifecycle.lock`, '1\n');
    expect((await k2sDns(start)).result).toMatchObject({ ok: true });
    expect((await k2sDns(['stop', '--json'])).result).toMatchObject({ ok: true });
    expect(await same()).toBe(true);
  });

  it('a temp file a killed write left in /etc is removed by recover --force (only ours, by exact name)', async () => {
    await writeFile('/etc/.resolv.conf.k2s-tmp-0123456789ab', 'nameserver 127.0.0.1\n', { mode: 0o600 });
    await writeFile('/etc/.resolv.conf.k2s-tmp-keepme', 'not ours\n');
    expect((await k2sDns(['recover', '--force'])).code).toBe(0);
    await expect(lstat('/etc/.resolv.conf.k2s-tmp-0123456789ab')).rejects.toThrow(/ENOENT/);
    expect(await readFile('/etc/.resolv.conf.k2s-tmp-keepme', 'utf8')).toBe('not ours\n');
    await run('rm', ['-f', '/etc/.resolv.conf.k2s-tmp-keepme']);
    expect(await same()).toBe(true);
  });
});
