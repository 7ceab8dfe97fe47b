import { mkdtempSync, rmSync, mkdirSync, writeFileSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolverStateFile } from '../../shared/state-file';
import { createHostFs } from './host-fs-node';
import { readState, removeState, writeState } from './state-store';

let root: string;
const r = (p: string) => path.join(root, p);

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-state-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const STATE: ResolverStateFile = {
  version: 1,
  writtenBy: 'k2s-dns',
  savedAt: '2026-11-29T15:00:00.000Z',
  resolvConf: { kind: 'symlink', target: '../run/systemd/resolve/stub-resolv.conf', uid: 0, gid: 0, dangling: false, targetContentBase64: 'bmFtZXNlcnZlciAxMjcuMC4wLjUzCg==' },
  upstreams: ['192.168.1.1', 'fe80::1%2'],
  resolvedDropIn: true,
  engine: 'adguard',
  listeners: [{ address: '127.0.0.1', port: 53 }],
  skippedListeners: [{ address: '172.19.1.1', reason: 'KubeSwitch address not assigned on this host' }],
  clusterDomain: 'cluster.local',
  kubeDnsIp: '172.21.0.10',
  kubernetesServiceIp: '172.21.0.1',
  managedResolvConfSha256: 'ab'.repeat(32),
};

/** Writes a K2s CLI state file with a known mtime. */
function writeCliState(json: unknown): void {
  mkdirSync(r('var/lib/k2s'), { recursive: true });
  writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), JSON.stringify(json));
  const t = new Date('2026-11-01T10:00:00.000Z');
  utimesSync(r('var/lib/k2s/dns-resolver-state.json'), t, t);
}

describe('state file', () => {
  it('is null when absent, round-trips, and is private (dir 0700, file 0600)', async () => {
    const fs = createHostFs(root);
    expect(await readState(fs)).toBeNull();
    await writeState(fs, STATE);
    expect(await readState(fs)).toEqual(STATE);
    expect(statSync(r('var/lib/k2s')).mode & 0o777).toBe(0o700);
    expect(statSync(r('var/lib/k2s/dns-resolver-state.json')).mode & 0o777).toBe(0o600);
    await removeState(fs);
    expect(await readState(fs)).toBeNull();
    await removeState(fs);
  });

  it('refuses to write an invalid state', async () => {
    await expect(writeState(createHostFs(root), { ...STATE, upstreams: [1] } as unknown as ResolverStateFile)).rejects.toThrow(
      'refusing to save an invalid resolver state (upstreams is not a list of strings)',
    );
  });

  it('a corrupt file gives an error that says how to recover', async () => {
    mkdirSync(r('var/lib/k2s'), { recursive: true });
    writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), '{"version":1,');
    await expect(readState(createHostFs(root))).rejects.toThrow(
      /is not valid JSON .*then delete \/var\/lib\/k2s\/dns-resolver-state.json and start again\./,
    );
    writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), JSON.stringify({ ...STATE, resolvConf: { kind: 'pipe' } }));
    await expect(readState(createHostFs(root))).rejects.toThrow('is corrupt (resolvConf.kind "pipe" is not file, symlink or absent)');
    writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), '{"hello":"world"}');
    await expect(readState(createHostFs(root))).rejects.toThrow('has a shape neither k2s-dns nor the k2s CLI writes');
  });

  it('reads the K2s Go CLI shape (os.FileMode, base64 content, wasImmutable)', async () => {
    const content = Buffer.from('nameserver 192.168.1.1\r\n');
    writeCliState({ mode: 0o640, content: content.toString('base64'), wasImmutable: true });
    const state = await readState(createHostFs(root));
    expect(state).toMatchObject({
      writtenBy: 'k2s-cli',
      savedAt: '2026-11-01T10:00:00.000Z',
      engine: 'adguard',
      resolvConf: { kind: 'file', contentBase64: content.toString('base64'), mode: 0o640, uid: 0, gid: 0, immutable: true },
    });
    // Go: ModeSymlink (1<<27) | 0777, linkTarget kept exactly
    writeCliState({ mode: 2 ** 27 + 0o777, linkTarget: '../run/systemd/resolve/stub-resolv.conf', wasImmutable: false });
    expect((await readState(createHostFs(root)))?.resolvConf).toEqual({
      kind: 'symlink',
      target: '../run/systemd/resolve/stub-resolv.conf',
      uid: 0,
      gid: 0,
      dangling: false,
      targetContentBase64: null,
    });
    // omitempty: an empty regular file has no content field
    writeCliState({ mode: 0o644, wasImmutable: false });
    expect((await readState(createHostFs(root)))?.resolvConf).toMatchObject({ kind: 'file', contentBase64: '', mode: 0o644 });
  });

  it('reads the K2s shell (jq) shape', async () => {
    writeCliState({ type: 'file', content: 'nameserver 10.0.0.1\n', mode: '600', immutable: false });
    expect((await readState(createHostFs(root)))?.resolvConf).toEqual({
      kind: 'file',
      contentBase64: Buffer.from('nameserver 10.0.0.1\n').toString('base64'),
      mode: 0o600,
      uid: 0,
      gid: 0,
      immutable: false,
    });
    writeCliState({ type: 'symlink', target: '/run/NetworkManager/resolv.conf' });
    expect((await readState(createHostFs(root)))?.resolvConf).toMatchObject({ kind: 'symlink', target: '/run/NetworkManager/resolv.conf' });
  });
});
