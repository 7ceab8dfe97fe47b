/**
 * Every directory root writes (/etc/k2s, /run/k2s, /var/log/dnsproxy, /var/lib/k2s)
 * is root's alone before start writes into it; rollback restores the config as it was (a link
 * as a link, a file with its own mode). Temp root; the ownership cases need root (chown).
 */
import { describe, expect, it } from 'vitest';
import { chmod, chown, lstat, mkdir, readFile, readlink, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';
import { ensureRootDir } from '../host/root-dirs';

const isRoot = process.geteuid?.() === 0;
const hosts = trackedHosts();
const sink = () => undefined;

describe('directories root writes into', () => {
  it.skipIf(!isRoot)('a /etc/k2s owned by another user (0777) refuses start: NOT_ROOT_OWNED with the path and ls -ld, nothing written (skipped without root)', async () => {
    const h = await hosts();
    await mkdir(join(h.root, 'etc/k2s'), { mode: 0o777 });
    await chmod(join(h.root, 'etc/k2s'), 0o777);
    await chown(join(h.root, 'etc/k2s'), 12345, 12345);
    const r = await startDns(h.deps, TEST_START_OPTS, sink);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT_OWNED' });
    expect(r.message).toMatch(new RegExp(`^/etc/k2s is owned by uid 12345, not root \\(ls -ld: drwxrwxrwx \\d+ 12345 12345 .* ${join(h.root, 'etc/k2s')}\\)`));
    expect(await readdir(join(h.root, 'etc/k2s'))).toEqual([]);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
    expect((await lstat(join(h.root, 'etc/k2s'))).mode & 0o7777).toBe(0o777); // not K2s's to change
  });

  it('a /run/k2s symlink into a 1777 directory refuses start; no lock or pid file is written there', async () => {
    const h = await hosts();
    const tmp = join(h.root, 'tmp');
    await mkdir(tmp);
    await chmod(tmp, 0o1777);
    await symlink(tmp, join(h.root, 'run/k2s'));
    const r = await startDns(h.deps, TEST_START_OPTS, sink);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT_OWNED' });
    expect(r.message).toContain(`/run/k2s is a symlink (to ${tmp}), not a real directory (ls -ld: lrwxrwxrwx`);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('a root-owned directory K2s made group/other-writable is repaired (chmod go-w), and start goes on', async () => {
    const h = await hosts();
    for (const d of ['etc/k2s', 'var/log/dnsproxy']) {
      await mkdir(join(h.root, d), { recursive: true });
      await chmod(join(h.root, d), 0o777);
    }
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    expect((await lstat(join(h.root, 'etc/k2s'))).mode & 0o7777).toBe(0o755);
    expect((await lstat(join(h.root, 'var/log/dnsproxy'))).mode & 0o7777).toBe(0o755);
    expect(h.services.started.at(-1)?.guardDirs).toEqual(['etc/k2s', 'run/k2s', 'var/log/dnsproxy', 'var/lib/k2s'].map((d) => join(h.root, d)));
  });

  it('ensureRootDir creates a missing directory with its mode, and refuses a file in its place', async () => {
    const h = await hosts();
    await ensureRootDir(h.deps.fs, '/var/lib/k2s', 0o700);
    expect((await lstat(join(h.root, 'var/lib/k2s'))).mode & 0o7777).toBe(0o700);
    await writeFile(join(h.root, 'run/k2s'), 'x');
    await expect(ensureRootDir(h.deps.fs, '/run/k2s', 0o755)).rejects.toMatchObject({ code: 'NOT_ROOT_OWNED', message: expect.stringContaining('/run/k2s is a non-directory, not a real directory (ls -ld: -rw') });
  });
});

describe('rollback of the proxy config', () => {
  it('puts a symlinked config back as the same symlink and never copies the root-only target into /etc/k2s', async () => {
    const h = await hosts();
    await mkdir(join(h.root, 'etc/k2s'), { mode: 0o755 });
    const secret = join(h.root, 'root-only');
    await writeFile(secret, 'ROOT-ONLY-SECRET\n', { mode: 0o600 });
    await symlink(secret, join(h.root, 'etc/k2s/dnsmasq.conf'));
    h.world.systemAnswer = null; // verify fails after the config and service steps: rollback
    const r = await startDns(h.deps, TEST_START_OPTS, sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1 });
    expect(await readlink(join(h.root, 'etc/k2s/dnsmasq.conf'))).toBe(secret);
    expect((await lstat(secret)).mode & 0o7777).toBe(0o600);
    for (const f of await readdir(join(h.root, 'etc/k2s'))) {
      const st = await lstat(join(h.root, 'etc/k2s', f));
      if (st.isFile()) expect(await readFile(join(h.root, 'etc/k2s', f), 'utf8')).not.toContain('ROOT-ONLY-SECRET');
    }
  });

  it('puts a 0600 config back 0600 with its bytes, not 0644', async () => {
    const h = await hosts();
    await mkdir(join(h.root, 'etc/k2s'), { mode: 0o755 });
    const conf = join(h.root, 'etc/k2s/dnsmasq.conf');
    await writeFile(conf, '# mine\n', { mode: 0o600 });
    h.world.systemAnswer = null;
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).exitCode).toBe(1);
    expect(await readFile(conf, 'utf8')).toBe('# mine\n');
    expect((await lstat(conf)).mode & 0o7777).toBe(0o600);
  });
});
