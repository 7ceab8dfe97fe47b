/**
 * left28 #3: `k2s-dns status --json` said engineVersion null while AdGuard ran — nothing filled
 * it. Status now asks the running engine's binary (`--version`), or says why it cannot know.
 */
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineVersion, parseEngineVersion } from './engine-version';
import { nodeExec } from './exec';
import { startDns } from '../lifecycle/start';
import { dnsStatus } from '../lifecycle/status';
import { startOptionsOf } from '../lifecycle/options';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

describe('engine version in status', () => {
  it('parses what each engine prints: dnsproxy v0.83.1 (and older `version: 0.73.2`), dnsmasq 2.90; nothing else', () => {
    expect(parseEngineVersion('adguard', 'dnsproxy version v0.83.1\n')).toBe('v0.83.1');
    expect(parseEngineVersion('adguard', 'dnsproxy version: 0.73.2\n')).toBe('0.73.2');
    expect(parseEngineVersion('dnsmasq', 'Dnsmasq version 2.90  Copyright (c) 2000-2024 Simon Kelley\nCompile time options: IPv6\n')).toBe('2.90');
    expect(parseEngineVersion('dnsmasq', 'dnsproxy version v0.83.1\n')).toBeNull();
    expect(parseEngineVersion('adguard', '')).toBeNull();
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
