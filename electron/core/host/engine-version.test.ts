/**
 * left28 #3: `k2s-dns status --json` said engineVersion null while AdGuard ran — nothing filled
 * it. Status now asks the running engine's binary (`--version`), or says why it cannot know.
 */
import { describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { chmodSync, copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHostFs } from './host-fs-node';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineVersion, parseEngineVersion, runningEngineVersion } from './engine-version';
import { nodeExec } from './exec';
import { startDns } from '../lifecycle/start';
import { dnsStatus } from '../lifecycle/status';
import { startOptionsOf } from '../lifecycle/options';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

/**
 * A stand-in proxy: sleep copied to `bin` and started from `from` (`bin`, or a symlink to it made
 * here), so argv[0] is `from` and /proc/PID/exe is `bin`; spawned once this resolves.
 */
async function standInProxy(bin: string, from: string) {
  copyFileSync('/bin/sleep', bin);
  chmodSync(bin, 0o755);
  if (from !== bin) await symlink(bin, from);
  const proxy = spawn(from, ['60'], { stdio: 'ignore' });
  await once(proxy, 'spawn');
  return proxy;
}

describe('engine version in status', () => {
  it('parses what each engine prints: dnsproxy v0.83.1 (and older `version: 0.73.2`), dnsmasq 2.90; nothing else', () => {
    expect(parseEngineVersion('adguard', 'dnsproxy version v0.83.1\n')).toBe('v0.83.1');
    expect(parseEngineVersion('adguard', 'dnsproxy version: 0.73.2\n')).toBe('0.73.2');
    expect(parseEngineVersion('dnsmasq', 'Dnsmasq version 2.90  Copyright (c) 2000-2024 Simon Kelley\nCompile time options: IPv6\n')).toBe('2.90');
    expect(parseEngineVersion('dnsmasq', 'dnsproxy version v0.83.1\n')).toBeNull();
    expect(parseEngineVersion('adguard', '')).toBeNull();
  });

  it('takes no token with terminal escapes, control bytes or without end as a version (brk30: dnsmasq\'s pattern took any non-space run)', () => {
    expect(parseEngineVersion('dnsmasq', 'Dnsmasq version 2.90-4+deb13u1  Copyright\n')).toBe('2.90-4+deb13u1');
    expect(parseEngineVersion('dnsmasq', 'Dnsmasq version 2.90\u001b]0;owned\u0007\u001b[2J  Copyright\n')).toBeNull();
    expect(parseEngineVersion('dnsmasq', 'Dnsmasq version 2.90\u0000\u0001\n')).toBeNull();
    expect(parseEngineVersion('dnsmasq', `Dnsmasq version 2.90\ufffd\ufffd\n`)).toBeNull();
    expect(parseEngineVersion('dnsmasq', `Dnsmasq version ${'9'.repeat(60 * 1024)}\n`)).toBeNull();
  });

  it('status of a running AdGuard dnsproxy says its version; of a binary that prints none, null and why; stopped, null and no reason', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n[ "$1" = --version ] && echo "dnsproxy version v0.83.1"\nexit 0\n', { mode: 0o755 });
    const cli = startOptionsOf({}, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli');
    expect(await startDns(h.deps, { ...cli, verifyExternalName: TEST_START_OPTS.verifyExternalName }, () => undefined)).toMatchObject({ ok: true });
    const s = await dnsStatus(h.deps);
    expect(s).toMatchObject({ engine: 'adguard', engineVersion: 'v0.83.1' });
    expect(s.engineVersionUnknown).toBeUndefined();
    // Another binary in place (a new path: asked again): it prints no version.
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy2'), '#!/bin/sh\necho "usage: proxy" >&2\nexit 2\n', { mode: 0o755 });
    const state = JSON.parse((await import('node:fs')).readFileSync(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), 'utf8'));
    (await import('node:fs')).writeFileSync(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), JSON.stringify({ ...state, engineBinary: '/opt/k2s/bin/dnsproxy2' }));
    expect(await dnsStatus(h.deps)).toMatchObject({ engineVersion: null, engineVersionUnknown: `${join(h.root, 'opt/k2s/bin/dnsproxy2')} --version printed no version (usage: proxy)` });
    h.services.running = false;
    const stopped = await dnsStatus(h.deps);
    expect(stopped.engineVersion).toBeNull();
    expect(stopped.engineVersionUnknown).toBeUndefined();
  });
});

describe('engine version of a binary that misbehaves (break28)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'k2s-engine-version-'));
  const script = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  };

  it('one whose --version hangs in a child (a wrapper script): null within the deadline, not after the child', async () => {
    // The shell is killed at 2 s; its `sleep 45` kept the pipe open, and status waited for it.
    const bin = script('hangs', 'sleep 45');
    expect(await engineVersion(nodeExec, 'adguard', bin, 101)).toEqual({ version: null, unknown: `${bin} --version did not finish (ended after 2 s or 64 KiB of output)` });
  }, 30_000);

  it('one that prints without end: null, the output cut (status died with "RangeError: Invalid string length")', async () => {
    const bin = script('endless', 'head -c 1048576 /dev/zero | tr "\\000" x; sleep 45');
    expect(await engineVersion(nodeExec, 'adguard', bin, 102)).toEqual({ version: null, unknown: `${bin} --version did not finish (ended after 2 s or 64 KiB of output)` });
  }, 30_000);

  it('one that prints control characters and bytes that are no UTF-8: quoted with ? in their place', async () => {
    const bin = script('garbage', "printf 'ab\\033[31mc\\377d\\001e\\n'; exit 0");
    expect(await engineVersion(nodeExec, 'adguard', bin, 103)).toEqual({ version: null, unknown: `${bin} --version printed no version (ab?[31mc?d?e)` });
  });
});

describe('engine version of a binary replaced while the proxy runs (break28)', () => {
  it('names no version (the file there is not the one running), and asks a binary that is still the running one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'k2s-engine-replaced-'));
    const bin = join(dir, 'dnsproxy');
    const proxy = await standInProxy(bin, bin);
    try {
      const fs = createHostFs('/');
      // Still the running file: it is asked (sleep prints no dnsproxy version).
      expect((await runningEngineVersion(fs, nodeExec, 'adguard', bin, proxy.pid!)).unknown).toMatch(/^\S+ --version printed no version /);
      // Replaced (an upgrade renames a new file over it): its --version is another binary's.
      writeFileSync(`${bin}.new`, '#!/bin/sh\necho "dnsproxy version v9.9.9"\n', { mode: 0o755 });
      renameSync(`${bin}.new`, bin);
      expect(await runningEngineVersion(fs, nodeExec, 'adguard', bin, proxy.pid!)).toEqual({ version: null, unknown: `${bin} is not the file the running proxy (PID ${proxy.pid}) was started from: it was replaced since, so its --version would not be the running one's` });
      rmSync(bin);
      expect((await runningEngineVersion(fs, nodeExec, 'adguard', bin, proxy.pid!)).unknown).toMatch(/it was removed since/);
      // Another PID (not started from that path): not compared, the file is asked.
      writeFileSync(bin, '#!/bin/sh\necho "dnsproxy version v9.9.9"\n', { mode: 0o755 });
      expect(await runningEngineVersion(fs, nodeExec, 'adguard', bin, process.pid)).toEqual({ version: 'v9.9.9' });
    } finally {
      proxy.kill('SIGKILL');
    }
  });
});

describe('engine version reads /proc through HostFs (tidy29: it read the real /proc beside a fake root)', () => {
  const V0831 = '#!/bin/sh\necho "dnsproxy version v0.83.1"\n';

  it('a running file replaced since (/proc/PID/exe " (deleted)" under the host root): no version, and why', async () => {
    const root = mkdtempSync(join(tmpdir(), 'k2s-engine-proc-'));
    await mkdir(join(root, 'opt/k2s/bin'), { recursive: true });
    writeFileSync(join(root, 'opt/k2s/bin/dnsproxy'), V0831, { mode: 0o755 });
    await mkdir(join(root, 'proc/4343'), { recursive: true });
    await symlink('/opt/k2s/bin/dnsproxy (deleted)', join(root, 'proc/4343/exe'));
    expect(await runningEngineVersion(createHostFs(root), nodeExec, 'adguard', '/opt/k2s/bin/dnsproxy', 4343)).toEqual({ version: null, unknown: '/opt/k2s/bin/dnsproxy is not the file the running proxy (PID 4343) was started from: it was replaced since, so its --version would not be the running one\'s' });
    // The same file (no mark): asked.
    rmSync(join(root, 'proc/4343/exe'));
    await symlink('/opt/k2s/bin/dnsproxy', join(root, 'proc/4343/exe'));
    expect(await runningEngineVersion(createHostFs(root), nodeExec, 'adguard', '/opt/k2s/bin/dnsproxy', 4343)).toEqual({ version: 'v0.83.1' });
  });

  it('without the state\'s binary (a user): argv[0] from /proc/PID/cmdline under the host root is asked', async () => {
    const root = mkdtempSync(join(tmpdir(), 'k2s-engine-proc-'));
    await mkdir(join(root, 'srv/dns'), { recursive: true });
    writeFileSync(join(root, 'srv/dns/dnsproxy'), V0831, { mode: 0o755 });
    await mkdir(join(root, 'proc/4344'), { recursive: true });
    writeFileSync(join(root, 'proc/4344/cmdline'), '/srv/dns/dnsproxy\0--config-path\0/etc/k2s/dnsproxy.yaml\0');
    expect(await runningEngineVersion(createHostFs(root), nodeExec, 'adguard', null, 4344)).toEqual({ version: 'v0.83.1' });
    expect(await runningEngineVersion(createHostFs(root), nodeExec, 'adguard', null, 4345)).toEqual({ version: null, unknown: 'neither the state file nor the proxy process names its binary' });
  });
});

describe('engine version of a proxy started from a symlink (tidy30: /proc/PID/exe is the resolved path, so a state naming the link was never compared)', () => {
  const V0831 = '#!/bin/sh\necho "dnsproxy version v0.83.1"\n';

  it('under a host root: the link\'s file replaced since is said; the link moved to another file (argv[0] the link) too; still the same file, asked', async () => {
    const root = mkdtempSync(join(tmpdir(), 'k2s-engine-link-'));
    await mkdir(join(root, 'opt/dnsproxy-0.83.1'), { recursive: true });
    await mkdir(join(root, 'usr/local/bin'), { recursive: true });
    writeFileSync(join(root, 'opt/dnsproxy-0.83.1/dnsproxy'), V0831, { mode: 0o755 });
    // Relative: the test root's link also leads there for the exec of --version.
    await symlink('../../../opt/dnsproxy-0.83.1/dnsproxy', join(root, 'usr/local/bin/dnsproxy'));
    await mkdir(join(root, 'proc/4346'), { recursive: true });
    writeFileSync(join(root, 'proc/4346/cmdline'), '/usr/local/bin/dnsproxy\0--config-path\0/etc/k2s/dnsproxy.yaml\0');
    const fs = createHostFs(root);
    const link = '/usr/local/bin/dnsproxy';
    const said = (change: string) => ({ version: null, unknown: `${link} is not the file the running proxy (PID 4346) was started from: it was ${change} since, so its --version would not be the running one's` });
    await symlink('/opt/dnsproxy-0.83.1/dnsproxy (deleted)', join(root, 'proc/4346/exe'));
    expect(await runningEngineVersion(fs, nodeExec, 'adguard', link, 4346)).toEqual(said('replaced'));
    // Still the running file: asked through the link.
    rmSync(join(root, 'proc/4346/exe'));
    await symlink('/opt/dnsproxy-0.83.1/dnsproxy', join(root, 'proc/4346/exe'));
    expect(await runningEngineVersion(fs, nodeExec, 'adguard', link, 4346)).toEqual({ version: 'v0.83.1' });
    // An upgrade points the link at a new release; the old file is still there.
    await mkdir(join(root, 'opt/dnsproxy-0.84.0'), { recursive: true });
    writeFileSync(join(root, 'opt/dnsproxy-0.84.0/dnsproxy'), '#!/bin/sh\necho "dnsproxy version v0.84.0"\n', { mode: 0o755 });
    rmSync(join(root, 'usr/local/bin/dnsproxy'));
    await symlink('../../../opt/dnsproxy-0.84.0/dnsproxy', join(root, 'usr/local/bin/dnsproxy'));
    expect(await runningEngineVersion(fs, nodeExec, 'adguard', link, 4346)).toEqual(said('replaced'));
    rmSync(join(root, 'usr/local/bin/dnsproxy'));
    expect(await runningEngineVersion(fs, nodeExec, 'adguard', link, 4346)).toEqual(said('removed'));
    // A process not started from the link (argv[0] another program): not compared, the file asked.
    await symlink('../../../opt/dnsproxy-0.84.0/dnsproxy', join(root, 'usr/local/bin/dnsproxy'));
    await mkdir(join(root, 'proc/4347'), { recursive: true });
    await symlink('/usr/bin/sleep', join(root, 'proc/4347/exe'));
    writeFileSync(join(root, 'proc/4347/cmdline'), '/usr/bin/sleep\x0060\0');
    expect(await runningEngineVersion(fs, nodeExec, 'adguard', link, 4347)).toEqual({ version: 'v0.84.0' });
    rmSync(root, { recursive: true, force: true });
  });

  it('on the real /proc: a proxy started from a link whose file an upgrade renames over is said replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'k2s-engine-link-real-'));
    const bin = join(dir, 'dnsproxy-real');
    const link = join(dir, 'dnsproxy');
    const proxy = await standInProxy(bin, link);
    try {
      const fs = createHostFs('/');
      expect((await runningEngineVersion(fs, nodeExec, 'adguard', link, proxy.pid!)).unknown).toMatch(/^\S+ --version printed no version /);
      writeFileSync(`${bin}.new`, '#!/bin/sh\necho "dnsproxy version v9.9.9"\n', { mode: 0o755 });
      renameSync(`${bin}.new`, bin);
      expect(await runningEngineVersion(fs, nodeExec, 'adguard', link, proxy.pid!)).toEqual({ version: null, unknown: `${link} is not the file the running proxy (PID ${proxy.pid}) was started from: it was replaced since, so its --version would not be the running one's` });
    } finally {
      proxy.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
