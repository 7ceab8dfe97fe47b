/**
 * left28 #3: `k2s-dns status --json` said engineVersion null while AdGuard ran — nothing filled
 * it. Status now asks the running engine's binary (`--version`), or says why it cannot know.
 */
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEngineVersion } from './engine-version';
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
