import { afterEach, describe, expect, it } from 'vitest';
import { lstat, readFile, readlink, symlink, unlink, writeFile, stat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { MANAGED_HEADER } from '../../../shared/k2s-paths';
import { startDns } from './start';
import { stopDns, uninstallDns } from './stop';
import { dnsStatus } from './status';
import { resolverDiff } from './diff';
import { makeTestHost } from '../../../e2e/support/test-deps';
import { printEvent } from '../../cli/print';

const hosts: Array<{ cleanup: () => Promise<unknown> }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.cleanup();
});

async function host(resolv?: string) {
  const h = await makeTestHost(resolv);
  hosts.push(h);
  return h;
}

function collect() {
  const events: LifecycleEvent[] = [];
  return { events, sink: (e: LifecycleEvent) => events.push(e) };
}

/** Holds an flock on `path` from a child (`flock FILE sleep 60`, own process group); resolves the group id once held. */
async function holdLock(path: string): Promise<number> {
  const { spawn } = await import('node:child_process');
  await mkdir(join(path, '..'), { recursive: true });
  const child = spawn('flock', ['--exclusive', path, 'sh', '-c', 'echo held; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return child.pid!;
}

const opts = { kubeconfigPath: '/etc/kubernetes/admin.conf', verifyExternalName: 'www.example.test' };

describe('start → stop on a temp root', () => {
  it('runs every step in order, writes the K2s-owned resolver and restores the exact bytes on stop', async () => {
    const original = 'nameserver 192.0.2.53\r\nsearch corp.example\r\n# keep me';
    const h = await host(original);
    const { events, sink } = collect();
    const r = await startDns(h.deps, opts, sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    const done = events.filter((e) => e.type === 'step' && e.status === 'done').map((e) => (e.type === 'step' ? e.step : ''));
    expect(done).toEqual(['preflight', 'save', 'discover', 'config', 'service', 'activate', 'verify', 'ready']);

    const active = await readFile(join(h.root, 'etc/resolv.conf'), 'utf8');
    expect(active.split('\n')[0]).toBe(MANAGED_HEADER);
    expect(active).toContain('nameserver 127.0.0.1\n');
    expect(active).toContain('search corp.example');
    const state = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
    expect(Buffer.from(state.resolvConf.contentBase64, 'base64').toString('utf8')).toBe(original);
    expect(state.upstreams).toEqual(['192.0.2.53']);
    expect(state.kubeconfigPath).toBe('/etc/kubernetes/admin.conf');
    expect((await stat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(h.root, 'var/lib/k2s'))).mode & 0o777).toBe(0o700);
    const conf = await readFile(join(h.root, 'etc/k2s/dnsmasq.conf'), 'utf8');
    expect(conf).toContain('server=/cluster.local/172.21.0.10');
    expect(conf).toContain('server=192.0.2.53');
    expect(h.services.started[0]!.argv[0]).toBe(join(h.root, 'usr/sbin/dnsmasq'));
    // The listener is on the command line, not in the file (lateListenersFor splits two units
    // on systemd; this host's only listener is loopback, so one unit: systemd-late-unit.test.ts).
    expect(conf).not.toMatch(/^listen-address/m);
    const spec = h.services.started[0]!;
    expect(spec.argv.filter((w) => w.startsWith('--listen-address='))).toEqual(['--listen-address=127.0.0.1']);
    expect(spec.lateListeners).toBeUndefined();

    const status = await dnsStatus(h.deps);
    expect(status).toMatchObject({ state: 'running', resolverOwner: 'k2s', engine: 'dnsmasq', clusterDomain: 'cluster.local', kubeDnsIp: '172.21.0.10' });

    const stop = await stopDns(h.deps, {}, collect().sink);
    expect(stop).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(original);
    expect(h.services.running).toBe(false);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
    expect((await dnsStatus(h.deps)).state).toBe('stopped');
  });

  it('keeps the saved original on a second start and answers "already running"', async () => {
    const h = await host();
    await startDns(h.deps, opts, collect().sink);
    const before = await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8');
    const seen = collect();
    const again = await startDns(h.deps, opts, seen.sink);
    expect(again).toMatchObject({ ok: true, exitCode: 0 });
    expect(again.message).toMatch(/already running/);
    // Every step it did not run is said as skipped (a window following it must not show them done).
    const last = new Map(seen.events.flatMap((e) => (e.type === 'step' ? [[e.step, e.status] as const] : [])));
    expect(Object.fromEntries(last)).toEqual({ preflight: 'done', save: 'skipped', discover: 'skipped', config: 'skipped', service: 'skipped', activate: 'skipped', verify: 'skipped', ready: 'done' });
    expect(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8')).toBe(before);
    expect(h.services.started).toHaveLength(1);
  });

  it('restores a relative symlink into /run with the exact target string', async () => {
    const h = await host();
    await mkdir(join(h.root, 'run/systemd/resolve'), { recursive: true });
    await writeFile(join(h.root, 'run/systemd/resolve/resolv.conf'), 'nameserver 192.0.2.53\n');
    await unlink(join(h.root, 'etc/resolv.conf'));
    await symlink('../run/systemd/resolve/resolv.conf', join(h.root, 'etc/resolv.conf'));
    expect((await startDns(h.deps, opts, collect().sink)).ok).toBe(true);
    expect((await lstat(join(h.root, 'etc/resolv.conf'))).isSymbolicLink()).toBe(false);
    // The link's target file was never written through.
    expect(await readFile(join(h.root, 'run/systemd/resolve/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
    expect((await stopDns(h.deps, {}, collect().sink)).ok).toBe(true);
    expect(await readlink(join(h.root, 'etc/resolv.conf'))).toBe('../run/systemd/resolve/resolv.conf');
  });
});

describe('rollback and refusals', () => {
  it('leaves a search domain the K2s-owned file cannot hold out of it and says so, instead of failing', async () => {
    const h = await host('nameserver 192.0.2.53\nsearch exämple.test corp.example\n');
    const { events, sink } = collect();
    expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
    const pre = events.find((e) => e.type === 'step' && e.step === 'preflight' && e.status === 'done');
    expect(pre?.type === 'step' && pre.message).toContain('left out of the K2s-owned resolv.conf: search domain "exämple.test"');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toContain('search corp.example\n');
  });

  it('forwards only to the first 3 nameservers as glibc does and names the 4th and a %2 scope id in the plain output and the diff', async () => {
    const h = await host('nameserver 192.0.2.53\nnameserver fe80::1%2\nnameserver 192.0.2.54\nnameserver 192.0.2.55\n');
    const { events, sink } = collect();
    expect((await startDns(h.deps, opts, sink)).ok).toBe(true);
    const state = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
    expect(state.upstreams).toEqual(['192.0.2.53', '192.0.2.54']);
    const conf = await readFile(join(h.root, 'etc/k2s/dnsmasq.conf'), 'utf8');
    expect(conf.match(/^server=[^/].*$/gm)).toEqual(['server=192.0.2.53', 'server=192.0.2.54']);
    const lines: string[] = [];
    for (const e of events) printEvent(e, false, (l) => lines.push(l));
    const pre = lines.find((l) => l.includes(' preflight '));
    expect(pre).toContain('fe80::1%2: its scope id %2 is a number; write the interface name (e.g. %eth0)');
    expect(pre).toContain('192.0.2.55: nameserver line 4 of 4: glibc reads only the first 3 (resolv.conf(5) MAXNS)');
    const diff = await resolverDiff(h.deps);
    expect(diff.changes).toContain('nameserver 192.0.2.55 of the saved original is not an upstream: glibc reads only the first 3 of its 4 nameservers (resolv.conf(5) MAXNS), so the host never asked it');
  });

  it('refuses an unreadable kubeconfig before saving anything (exit 3)', async () => {
    const h = await host();
    h.deps.checkKubeconfig = async (p) => {
      throw new Error(`The kubeconfig ${p} is not a regular file; pass the kubeconfig file itself with --kubeconfig.`);
    };
    const r = await startDns(h.deps, { ...opts, kubeconfigPath: '/dev/zero' }, collect().sink);
    expect(r).toMatchObject({ exitCode: 3, code: 'BAD_KUBECONFIG' });
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
  });

  it('rolls back everything when discovery fails (exit 1, resolver byte-identical, no state)', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    h.world.discovery = new Error('The Kubernetes API server at http://127.0.0.1:6443 did not answer within 5000 ms.');
    const { events, sink } = collect();
    const r = await startDns(h.deps, opts, sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(r.message).toMatch(/did not answer.*rolled back/s);
    expect(events.some((e) => e.type === 'step' && e.step === 'rollback' && e.status === 'done')).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
  });

  it('rolls back after activate when the system resolver does not resolve the cluster name', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    h.world.systemAnswer = null;
    const r = await startDns(h.deps, opts, collect().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'VERIFY_SYSTEM' });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
    expect(h.services.running).toBe(false);
    await expect(lstat(join(h.root, 'etc/k2s/dnsmasq.conf'))).rejects.toThrow(/ENOENT/);
  });

  it('fails and rolls back when the proxy exits right after start', async () => {
    const h = await host();
    h.services.exitsImmediately = true;
    const r = await startDns(h.deps, opts, collect().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'SERVICE_EXITED' });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  });

  it('a refused start leaves no state directory behind', async () => {
    const h = await host('nameserver 127.0.0.1\n');
    expect((await startDns(h.deps, opts, collect().sink)).exitCode).toBe(3);
    await expect(lstat(join(h.root, 'var/lib/k2s'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses without root (exit 3) and changes nothing', async () => {
    const h = await host();
    h.world.uid = 1000;
    const r = await startDns(h.deps, opts, collect().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT' });
    // sudo and `su -c` (a minimal Debian has no sudo; new-user walk).
    expect(r.message).toBe("Starting K2s DNS changes /etc/resolv.conf and binds port 53: run it as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c 'npx k2s-dns start --verify-name www.example.test'` where sudo is not installed; or use the desktop app.");
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
    const stopped = await stopDns(h.deps, {}, collect().sink);
    expect(stopped).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT', message: "k2s-dns stop restores /etc/resolv.conf: run it as root: `sudo npx k2s-dns stop`, or `su -c 'npx k2s-dns stop'` where sudo is not installed; or use the desktop app." });
  });

  it('refuses when 127.0.0.1:53 is held, naming the holder and its PID', async () => {
    const h = await host();
    h.world.portHolder = { pid: 777, command: 'systemd-resolved' };
    const r = await startDns(h.deps, opts, collect().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'PORT_IN_USE' });
    expect(r.message).toContain('systemd-resolved (PID 777)');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  });

  it('refuses when the only nameserver is our own listener (a loop)', async () => {
    const h = await host('nameserver 127.0.0.1\n');
    const r = await startDns(h.deps, opts, collect().sink);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'UPSTREAM_LOOP' });
    expect(r.message).toContain('127.0.0.1');
    // Walk 7 M4: the --upstream value in prose, never `--upstream IP`.
    expect(r.message).toBe("The original resolver lists 127.0.0.1, which reaches k2s-dnsproxy itself: forwarding there would loop. Point /etc/resolv.conf at your real nameserver first, or start with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with your nameserver's IP address).");
  });

  it('refuses without a kubeconfig, listing what it tried', async () => {
    const h = await host();
    const r = await startDns(h.deps, { kubeconfigPath: null, kubeconfigLookup: { tried: ['/etc/kubernetes/admin.conf'], explicit: false } }, collect().sink);
    expect(r).toMatchObject({ exitCode: 3, code: 'NO_KUBECONFIG' });
    expect(r.message).toContain('/etc/kubernetes/admin.conf');
  });

  it('skips the KubeSwitch listener when its address is not assigned, and says so', async () => {
    const h = await host();
    const { events, sink } = collect();
    await startDns(h.deps, opts, sink);
    const pre = events.find((e) => e.type === 'step' && e.step === 'preflight' && e.status === 'done');
    expect(pre && pre.type === 'step' ? pre.detail?.skippedListeners : null).toEqual([
      expect.objectContaining({ address: '172.19.1.1', reason: expect.stringMatching(/not assigned/) }),
    ]);
    h.world.hostAddresses = ['127.0.0.1', '172.19.1.1'];
  });
});

it('refuses WSL\'s generated resolv.conf (exit 3) and changes nothing', async () => {
  const wsl = '# This file was automatically generated by WSL. To stop automatic generation of this file, add the following entry to /etc/wsl.conf:\n# [network]\n# generateResolvConf = false\nnameserver 172.29.64.1\n';
  const h = await host(wsl);
  const r = await startDns(h.deps, opts, collect().sink);
  expect(r).toMatchObject({ exitCode: 3, code: 'WSL_RESOLV_CONF' });
  expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(wsl);
});

it('refuses a WSL file whose header is on line 7, and starts on it once wsl.conf says generateResolvConf = false', async () => {
  const line7 = await readFile(new URL('../../../fixtures/wsl/resolv-header-line7.conf', import.meta.url), 'utf8');
  const h = await host(line7);
  const r = await startDns(h.deps, opts, collect().sink);
  expect(r).toMatchObject({ exitCode: 3, code: 'WSL_RESOLV_CONF' });
  expect(r.message).toContain('its header is on line 7');
  expect(r.message).toContain('because /etc/wsl.conf does not exist');
  expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(line7);
  await writeFile(join(h.root, 'etc/wsl.conf'), '[boot]\nsystemd=true\n\n[network]\ngenerateResolvConf = false\n');
  expect(await startDns(h.deps, opts, collect().sink)).toMatchObject({ ok: true, exitCode: 0 });
  const state = JSON.parse(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
  expect(state.upstreams).toEqual(['10.8.0.1', '172.29.64.1']);
  expect((await stopDns(h.deps, {}, collect().sink)).ok).toBe(true);
  expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(line7);
});

describe('crash recovery (journal)', () => {
  /** A pid that certainly belongs to no running process: a child that already exited. */
  async function deadPid(): Promise<number> {
    const { spawn } = await import('node:child_process');
    const child = spawn('true');
    await new Promise((resolve) => child.on('close', resolve));
    return child.pid!;
  }

  it('rolls back a start killed after activate at the next stop, and says so in status', async () => {
    const original = 'nameserver 192.0.2.53\n';
    const h = await host(original);
    await startDns(h.deps, opts, collect().sink);
    // Simulate kill -9 during verify: the journal names a dead pid and the step it was in.
    await writeFile(join(h.root, 'var/lib/k2s/dns-lifecycle-journal.json'), JSON.stringify({ version: 1, op: 'start', step: 'verify', pid: await deadPid(), startedAt: '2026-11-29T15:00:00.000Z', updatedAt: '2026-11-29T15:00:01.000Z' }));
    const before = await dnsStatus(h.deps);
    expect(before.state).toBe('degraded');
    expect(before.messages.join(' ')).toMatch(/start \(PID \d+\) was interrupted during "verify"/);
    const { events, sink } = collect();
    const r = await stopDns(h.deps, {}, sink);
    expect(r.ok).toBe(true);
    expect(r.message).toMatch(/Recovered an interrupted start \(killed during "verify"\): rolled back/);
    expect(events.some((e) => e.type === 'step' && e.step === 'recover' && e.status === 'done')).toBe(true);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(original);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-lifecycle-journal.json'))).rejects.toThrow(/ENOENT/);
  });

  it('leaves the journal of a live operation alone and refuses a second operation (BUSY)', async () => {
    const h = await host();
    // Another process holds the kernel lock (flock(1) on the lock file, as k2s-dns does).
    const holder = await holdLock(join(h.root, 'run/k2s/dns-lifecycle.lock'));
    try {
      const r = await startDns(h.deps, opts, collect().sink);
      expect(r).toMatchObject({ exitCode: 3, code: 'BUSY' });
      expect(r.message).toContain('Another k2s-dns operation');
    } finally {
      process.kill(-holder, 'SIGKILL'); // flock and the sleep that inherited the locked fd
    }
  });

  it('a stop that fails (state file deleted) does not leave a journal that jams later calls', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    await startDns(h.deps, opts, collect().sink);
    await unlink(join(h.root, 'var/lib/k2s/dns-resolver-state.json'));
    const stop = await stopDns(h.deps, {}, collect().sink);
    expect(stop).toMatchObject({ ok: false, exitCode: 1, code: 'NO_SAVED_ORIGINAL' });
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-lifecycle-journal.json'))).rejects.toThrow(/ENOENT/);
    expect((await dnsStatus(h.deps)).messages.join(' ')).not.toMatch(/interrupted/);
    // Once the user puts their own file back, stop finishes and stops the proxy.
    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 192.0.2.53\n');
    const again = await stopDns(h.deps, {}, collect().sink);
    expect(again).toMatchObject({ ok: true, exitCode: 0 });
    expect(h.services.running).toBe(false);
  });

  it.each(['0.0.0.0', '::ffff:127.0.0.1', '127.0.0.1:53'])('refuses --upstream %s: it loops into the proxy (exit 3)', async (upstream) => {
    const h = await host();
    const r = await startDns(h.deps, { ...opts, upstreams: [upstream] }, collect().sink);
    expect(r).toMatchObject({ exitCode: 3, code: 'UPSTREAM_LOOP' });
    expect(r.message).toContain(upstream);
  });

  it('a lock file naming a live PID (reused after a crash) never blocks: only the kernel lock counts', async () => {
    const h = await host();
    await mkdir(join(h.root, 'var/lib/k2s'), { recursive: true });
    await mkdir(join(h.root, 'run/k2s'), { recursive: true });
    // The PID lock of older versions and a crash-left note, both naming a live process.
    await writeFile(join(h.root, 'var/lib/k2s/dns-lifecycle.lock'), `${process.ppid}\n`);
    await writeFile(join(h.root, 'run/k2s/dns-lifecycle.lock'), `${process.ppid}\n`);
    expect((await startDns(h.deps, opts, collect().sink)).ok).toBe(true);
  });
});

describe('stop, drift and uninstall', () => {
  it('stop without start is a no-op that says so', async () => {
    const h = await host();
    const r = await stopDns(h.deps, {}, collect().sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.message).toMatch(/not running/);
  });

  it('keeps a resolver someone else wrote while running, unless --on-drift restore', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    await startDns(h.deps, opts, collect().sink);
    await writeFile(join(h.root, 'etc/resolv.conf'), '# Generated by NetworkManager\nnameserver 192.0.2.99\n');
    expect((await dnsStatus(h.deps)).resolverOwner).toBe('foreign');
    const diff = await resolverDiff(h.deps);
    expect(diff.identical).toBe(false);
    expect(diff.currentText).toContain('192.0.2.99');
    const kept = await stopDns(h.deps, {}, collect().sink);
    expect(kept.message).toMatch(/Kept the \/etc\/resolv.conf someone else wrote/);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toContain('192.0.2.99');

    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 192.0.2.53\n');
    await startDns(h.deps, opts, collect().sink);
    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 192.0.2.99\n');
    await stopDns(h.deps, { onDrift: 'restore' }, collect().sink);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
  });

  it('start during drift is refused (DRIFTED, exit 3) until stop has made the choice: the saved original is never replaced silently', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    await startDns(h.deps, opts, collect().sink);
    const stateBefore = await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8');
    const theirs = '# Generated by NetworkManager\nnameserver 192.0.2.99\n';
    await writeFile(join(h.root, 'etc/resolv.conf'), theirs);
    // Our own proxy (FakeServices PID 4242) holds 127.0.0.1:53.
    h.world.portHolder = { pid: 4242, command: '/usr/sbin/dnsmasq --conf-file=/etc/k2s/dnsmasq.conf' };
    const again = await startDns(h.deps, opts, collect().sink);
    expect(again).toMatchObject({ ok: false, exitCode: 3, code: 'DRIFTED' });
    expect(again.message).toContain('sudo npx k2s-dns stop --on-drift restore');
    // Nothing changed: their file stays, the saved original (192.0.2.53) is byte-identical.
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(theirs);
    expect(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8')).toBe(stateBefore);
    h.world.portHolder = null;
    await stopDns(h.deps, { onDrift: 'restore' }, collect().sink);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe('nameserver 192.0.2.53\n');
    // After the choice, start works again and saves the original it finds.
    expect(await startDns(h.deps, opts, collect().sink)).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('uninstall never deletes through a symlinked log directory: the file there is left and named', async () => {
    const h = await host();
    await startDns(h.deps, opts, collect().sink);
    await mkdir(join(h.root, 'root/logdir'), { recursive: true });
    await writeFile(join(h.root, 'root/logdir/dnsproxy.log'), 'someone else\'s file\n');
    await mkdir(join(h.root, 'var/log'), { recursive: true });
    await import('node:fs/promises').then((f) => f.rm(join(h.root, 'var/log/dnsproxy'), { recursive: true, force: true }));
    await symlink(join(h.root, 'root/logdir'), join(h.root, 'var/log/dnsproxy'));
    const events = collect();
    const r = await uninstallDns(h.deps, {}, events.sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'root/logdir/dnsproxy.log'), 'utf8')).toBe('someone else\'s file\n');
    expect(JSON.stringify(events.events)).toContain('Left /var/log/dnsproxy/dnsproxy.log: its directory is a symlink');
  });

  // Regression: main kept the query log (and every user's queries in it) after uninstall.
  it('uninstall removes exactly the K2s-owned files, the query log and its rotated copy included', async () => {
    const h = await host();
    await startDns(h.deps, opts, collect().sink);
    await mkdir(join(h.root, 'var/log/dnsproxy'), { recursive: true });
    await writeFile(join(h.root, 'var/log/dnsproxy/dnsproxy.log'), 'line\n');
    await writeFile(join(h.root, 'var/log/dnsproxy/dnsproxy.log.1'), 'older\n');
    await writeFile(join(h.root, 'var/log/dnsproxy/other.log'), 'not ours\n');
    await writeFile(join(h.root, 'etc/k2s/user-notes.txt'), 'not ours\n');
    const events = collect();
    const r = await uninstallDns(h.deps, {}, events.sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    await expect(lstat(join(h.root, 'etc/k2s/dnsmasq.conf'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(h.root, 'etc/k2s/user-notes.txt'), 'utf8')).toBe('not ours\n');
    await expect(lstat(join(h.root, 'var/log/dnsproxy/dnsproxy.log'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(h.root, 'var/log/dnsproxy/dnsproxy.log.1'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(h.root, 'var/log/dnsproxy/other.log'), 'utf8')).toBe('not ours\n');
    expect(JSON.stringify(events.events)).toContain('/var/log/dnsproxy/dnsproxy.log, /var/log/dnsproxy/dnsproxy.log.1');
  });
  it('status.proxyFilesLeft: kept by stop, gone after uninstall — how a window tells an outside uninstall from a stop (walk 5 L9)', async () => {
    const h = await host();
    await startDns(h.deps, opts, collect().sink);
    expect((await dnsStatus(h.deps)).proxyFilesLeft).toBe(true);
    await stopDns(h.deps, {}, collect().sink);
    expect((await dnsStatus(h.deps)).proxyFilesLeft).toBe(true);
    await uninstallDns(h.deps, {}, collect().sink);
    expect((await dnsStatus(h.deps)).proxyFilesLeft).toBe(false);
  });
  it('status.ownedFilesLeft: false on a host K2s DNS never ran on and after uninstall (the window\'s Uninstall has nothing to do), true after a stop, absent while it runs', async () => {
    const h = await host();
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(false);
    await startDns(h.deps, opts, collect().sink);
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBeUndefined();
    await stopDns(h.deps, {}, collect().sink);
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(true);
    await uninstallDns(h.deps, {}, collect().sink);
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(false);
    // Any one file uninstall removes is enough: a unit left alone (not the proxy's config or log).
    await mkdir(join(h.root, 'etc/systemd/system'), { recursive: true });
    await writeFile(join(h.root, 'etc/systemd/system/k2s-dnsproxy.service'), '[Unit]\n');
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(true);
  });
  // Regression: a temp file a killed write left (which stop and uninstall remove) read as nothing left, so the window's Uninstall was off.
  it('status.ownedFilesLeft: true when only a temp file a killed write left is there, false again once uninstall removed it', async () => {
    const h = await host();
    await startDns(h.deps, opts, collect().sink);
    await uninstallDns(h.deps, {}, collect().sink);
    await writeFile(join(h.root, 'etc/.resolv.conf.k2s-tmp-nothex-name'), 'not a name of ours\n');
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(false);
    await writeFile(join(h.root, 'etc/.resolv.conf.k2s-tmp-0123456789ab'), 'nameserver 127.0.0.1\n');
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(true);
    const events = collect();
    expect(await uninstallDns(h.deps, {}, events.sink)).toMatchObject({ ok: true, exitCode: 0 });
    expect(JSON.stringify(events.events)).toContain('Removed temp files a killed write had left: /etc/.resolv.conf.k2s-tmp-0123456789ab.');
    await expect(lstat(join(h.root, 'etc/.resolv.conf.k2s-tmp-0123456789ab'))).rejects.toThrow(/ENOENT/);
    expect((await dnsStatus(h.deps)).ownedFilesLeft).toBe(false);
  });
});
