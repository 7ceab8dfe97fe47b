/**
 * Never strand the host: kernel lock races, restore on a full /var/lib, drift edges
 * (bind mount appeared, edited K2s file, append-only), temp-file cleanup and forced recovery,
 * on a temp root with the in-memory service manager.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { lstat, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { MANAGED_HEADER, MANAGED_NOTE } from '../../../shared/k2s-paths';
import { startDns } from './start';
import { stopDns, uninstallDns } from './stop';
import { recoverNow } from './recover';
import { makeTestHost } from '../../../e2e/support/test-deps';

const hosts: Array<{ root: string; cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) {
    spawnSync('chattr', ['-a', '-i', join(h.root, 'etc/resolv.conf')]);
    await h.cleanup();
  }
});

async function host(resolv?: string) {
  const h = await makeTestHost(resolv);
  hosts.push(h);
  return h;
}

const sink = (events: LifecycleEvent[] = []) => (e: LifecycleEvent) => events.push(e);
const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';

/** A mountinfo row (proc(5)) for a mount at `mountPoint`. */
const mountRow = (id: number, mountPoint: string, fsType: string, source: string) =>
  `${id} 1 0:${id} / ${mountPoint} rw,relatime - ${fsType} ${source} rw\n`;

describe('kernel lock', () => {
  it('two starts entering together never both enter: one runs, the other is BUSY (10 rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const h = await host(ORIGINAL);
      const [a, b] = await Promise.all([startDns(h.deps, opts, sink()), startDns(h.deps, opts, sink())]);
      const codes = [a.code ?? 'OK', b.code ?? 'OK'].sort();
      expect(codes).toEqual(['BUSY', 'OK']);
      expect(h.services.started.length).toBe(1);
      expect((await stopDns(h.deps, {}, sink())).ok).toBe(true);
      expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    }
  });

  it('the lock lives in /run, so nothing is created under /var/lib by a refused start', async () => {
    const h = await host(ORIGINAL);
    h.world.uid = 0;
    h.world.portHolder = { pid: 1, command: '/usr/sbin/dnsmasq -k' };
    const r = await startDns(h.deps, opts, sink());
    expect(r).toMatchObject({ exitCode: 3, code: 'PORT_IN_USE' });
    // Its cgroup names no system service: only the kill, never `systemctl stop dnsmasq` guessed from the name.
    expect(r.message).toBe('127.0.0.1:53/udp is held by dnsmasq (PID 1); stop it — `sudo kill 1` — then start again.');
    expect(await readdir(join(h.root, 'var/lib'))).toEqual([]);
    expect(await readdir(join(h.root, 'run/k2s'))).toEqual(['dns-lifecycle.lock']);
  });

  it('a port-53 holder whose cgroup names a system service: systemctl stop of that unit', async () => {
    const h = await host(ORIGINAL);
    h.world.portHolder = { pid: 930, command: '/usr/sbin/dnsmasq -x /run/dnsmasq/dnsmasq.pid', unit: 'dnsmasq.service' };
    const r = await startDns(h.deps, opts, sink());
    expect(r).toMatchObject({ exitCode: 3, code: 'PORT_IN_USE' });
    expect(r.message).toBe('127.0.0.1:53/udp is held by dnsmasq (PID 930, system service dnsmasq.service); stop it — `sudo systemctl stop dnsmasq.service` — then start again.');
  });

  it('a port-53 holder that is a K2s DNS proxy is never called "dnsmasq" to stop with systemctl', async () => {
    const h = await host(ORIGINAL);
    h.world.portHolder = { pid: 1, command: '/usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf --pid-file= --user=root' };
    const r = await startDns(h.deps, opts, sink());
    expect(r.code).toBe('PORT_IN_USE');
    expect(r.message).toContain('is held by a K2s DNS proxy (dnsmasq, PID 1)');
    expect(r.message).not.toContain('systemctl stop dnsmasq');
  });
});

describe('restore needs no space', () => {
  it('stop on a full /var/lib restores the resolver, stops the proxy and names the full filesystem', async () => {
    const h = await host(ORIGINAL);
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    const varLib = join(h.root, 'var/lib/k2s');
    h.deps.mountinfo = async () => mountRow(21, '/', 'ext4', '/dev/sda1') + mountRow(40, varLib, 'tmpfs', 'tmpfs');
    const realWrite = h.deps.fs.writeFileAtomic.bind(h.deps.fs);
    h.deps.fs = {
      ...h.deps.fs,
      writeFileAtomic: async (p, data, o) => {
        if (p.startsWith('/var/lib/')) throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
        return realWrite(p, data, o);
      },
    };
    const r = await stopDns(h.deps, {}, sink());
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.message).toContain(`Went on without the crash journal: No space left on the tmpfs filesystem mounted at ${varLib}, so /var/lib/k2s/dns-lifecycle-journal.json cannot be written; free space there (df -h ${varLib})`);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.running).toBe(false);
    await expect(lstat(join(varLib, 'dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('drift edges', () => {
  it('a bind mount over /etc/resolv.conf appeared: stop keeps the saved original and the proxy, and says what to do', async () => {
    const h = await host(ORIGINAL);
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    // What a container runtime's bind mount shows: other bytes at the path, a mount point there.
    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 10.88.0.1\n');
    h.deps.mountinfo = async () => mountRow(55, join(h.root, 'etc/resolv.conf'), 'ext4', '/dev/sda1');
    const r = await stopDns(h.deps, {}, sink());
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'BIND_MOUNTED' });
    expect(r.message).toContain('the saved original is kept in /var/lib/k2s/dns-resolver-state.json');
    expect(r.message).toContain('umount /etc/resolv.conf');
    const state = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
    expect(Buffer.from(state.resolvConf.contentBase64, 'base64').toString()).toBe(ORIGINAL);
    expect(h.services.running).toBe(true);
    // After the unmount, stop puts the original back.
    h.deps.mountinfo = async () => '';
    await writeFile(join(h.root, 'etc/resolv.conf'), `${MANAGED_HEADER}\n${MANAGED_NOTE}\nnameserver 127.0.0.1\n`);
    expect((await stopDns(h.deps, {}, sink())).ok).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('an edited K2s file (header kept) is drift: stop restores the original and names the dropped edit', async () => {
    const h = await host(ORIGINAL);
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    const ours = await readFile(join(h.root, 'etc/resolv.conf'), 'utf8');
    await writeFile(join(h.root, 'etc/resolv.conf'), `${ours}nameserver 192.0.2.99\n`);
    const r = await stopDns(h.deps, {}, sink());
    expect(r.ok).toBe(true);
    expect(r.message).toMatch(/The K2s-owned \/etc\/resolv.conf had been edited while K2s ran \(content changed: [^(]+\(\d+ bytes → \d+ bytes\) against the original/);
    expect(r.message).toContain('dropped that edit');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  const chattrWorks = (() => {
    if (process.getuid?.() !== 0) return false;
    const probe = join(process.env.TMPDIR ?? '/tmp', `k2s-chattr-probe-${process.pid}`);
    spawnSync('touch', [probe]);
    const ok = spawnSync('chattr', ['+a', probe]).status === 0;
    spawnSync('chattr', ['-a', probe]);
    spawnSync('rm', ['-f', probe]);
    return ok;
  })();

  it.skipIf(!chattrWorks)('append-only resolv.conf (chattr +a) is refused by preflight, nothing saved (skipped: needs root and a filesystem with attributes)', async () => {
    const h = await host(ORIGINAL);
    expect(spawnSync('chattr', ['+a', join(h.root, 'etc/resolv.conf')]).status).toBe(0);
    const r = await startDns(h.deps, opts, sink());
    expect(r).toMatchObject({ exitCode: 3, code: 'APPEND_ONLY' });
    expect(r.message).toContain('chattr -a /etc/resolv.conf');
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-lifecycle-journal.json'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });
});

describe('temp files and forced recovery', () => {
  it('stop removes exactly our killed-write temp files in /etc and /etc/k2s', async () => {
    const h = await host(ORIGINAL);
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    const ours = ['etc/.resolv.conf.k2s-tmp-0123456789ab', 'etc/k2s/.dnsmasq.conf.k2s-tmp-a1b2c3d4e5f6'];
    const theirs = ['etc/.resolv.conf.k2s-tmp-xyz', 'etc/resolv.conf.k2sdns-testbed-7', 'etc/.hosts.k2s-tmp-0123456789ab'];
    for (const f of [...ours, ...theirs]) await writeFile(join(h.root, f), 'nameserver 127.0.0.1\n', { mode: 0o600 });
    const r = await stopDns(h.deps, {}, sink());
    expect(r.ok).toBe(true);
    expect(r.message).toContain('Removed temp files a killed write had left: /etc/.resolv.conf.k2s-tmp-0123456789ab, /etc/k2s/.dnsmasq.conf.k2s-tmp-a1b2c3d4e5f6.');
    for (const f of ours) await expect(lstat(join(h.root, f))).rejects.toThrow(/ENOENT/);
    for (const f of theirs) expect((await lstat(join(h.root, f))).isFile()).toBe(true);
  });

  it('uninstall removes the watchdog files and the PID lock of older versions', async () => {
    const h = await host(ORIGINAL);
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    await writeFile(join(h.root, 'run/k2s/dnsproxy-watchdog.state'), 'restarts=0\nstate=running\n');
    await writeFile(join(h.root, 'var/lib/k2s/dns-lifecycle.lock'), '1\n');
    expect((await uninstallDns(h.deps, {}, sink())).ok).toBe(true);
    await expect(lstat(join(h.root, 'run/k2s/dnsproxy-watchdog.state'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-lifecycle.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('recover --force restores a K2s-owned host that has no journal; plain recover leaves it', async () => {
    const h = await host(ORIGINAL);
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    expect(await recoverNow(h.deps, sink())).toBeNull();
    expect((await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).split('\n')[0]).toBe(MANAGED_HEADER);
    const done = await recoverNow(h.deps, sink(), { force: true });
    expect(done).toBe('Forced recovery: the saved original resolver is back and k2s-dnsproxy is stopped.');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.running).toBe(false);
  });

  it('recover --force asks the systemd manager to read the links its teardown removed (settle), as stop does', async () => {
    const h = await host(ORIGINAL);
    const calls: string[] = [];
    h.deps.services.reload = {
      current: async () => false,
      ask: async () => null,
      linksChanged: () => void calls.push('linksChanged'),
      unitWritten: () => void calls.push('unitWritten'),
      reloadNow: async () => void calls.push('reloadNow'),
      settle: async () => void calls.push('settle'),
    };
    expect((await startDns(h.deps, opts, sink())).ok).toBe(true);
    expect(calls).toEqual(['settle']);
    expect(await recoverNow(h.deps, sink(), { force: true })).toBe('Forced recovery: the saved original resolver is back and k2s-dnsproxy is stopped.');
    expect(calls).toEqual(['settle', 'settle']);
  });
});
