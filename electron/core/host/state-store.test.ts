import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, mkdirSync, symlinkSync, writeFileSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolverStateFile } from '../../../shared/state-file';
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
      /is corrupt \(not valid JSON: .*\); run sudo npx k2s-dns stop \(or recover\): it restores your original resolver when the file still holds a readable one and moves \/var\/lib\/k2s\/dns-resolver-state.json aside \(never deletes it\)\./,
    );
    writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), JSON.stringify({ ...STATE, resolvConf: { kind: 'pipe' } }));
    await expect(readState(createHostFs(root))).rejects.toThrow('is corrupt (resolvConf.kind "pipe" is not file, symlink or absent)');
    writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), '{"hello":"world"}');
    await expect(readState(createHostFs(root))).rejects.toThrow('is corrupt (a shape neither k2s-dns nor the k2s CLI writes)');
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

// Regression: main trusted a weak /var/lib/k2s and followed a symlinked state file.
describe('state dir hardening', () => {
  const isRoot = process.geteuid?.() === 0;

  it('repairs a group/other-accessible dir to 0700 and file to 0600', async () => {
    mkdirSync(r('var/lib/k2s'), { recursive: true, mode: 0o777 });
    chmodSync(r('var/lib/k2s'), 0o777);
    const fs = createHostFs(root);
    await writeState(fs, STATE);
    chmodSync(r('var/lib/k2s/dns-resolver-state.json'), 0o644);
    chmodSync(r('var/lib/k2s'), 0o755);
    expect(await readState(fs)).toEqual(STATE);
    expect(statSync(r('var/lib/k2s')).mode & 0o777).toBe(0o700);
    expect(statSync(r('var/lib/k2s/dns-resolver-state.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses a symlinked state file and never reads through it', async () => {
    mkdirSync(r('var/lib/k2s'), { recursive: true, mode: 0o700 });
    writeFileSync(r('secret'), '{"version":1,"root-only":"hunter2"}', { mode: 0o600 });
    symlinkSync(r('secret'), r('var/lib/k2s/dns-resolver-state.json'));
    const fs = createHostFs(root);
    await expect(readState(fs)).rejects.toThrow('/var/lib/k2s/dns-resolver-state.json is a symlink; k2s-dns only reads the regular file it wrote itself');
    await expect(readState(fs)).rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    expect(statSync(r('secret')).mode & 0o777).toBe(0o600);
  });

  it('refuses a symlinked state dir', async () => {
    mkdirSync(r('elsewhere'), { recursive: true });
    mkdirSync(r('var/lib'), { recursive: true });
    symlinkSync(r('elsewhere'), r('var/lib/k2s'));
    await expect(writeState(createHostFs(root), STATE)).rejects.toThrow('/var/lib/k2s is a symlink, not the root-only directory');
  });

  it.skipIf(!isRoot)('as root: refuses a dir or file another user owns, changes nothing (skipped without root)', async () => {
    mkdirSync(r('var/lib/k2s'), { recursive: true, mode: 0o777 });
    chownSync(r('var/lib/k2s'), 1000, 1000);
    const fs = createHostFs(root);
    await expect(writeState(fs, STATE)).rejects.toThrow('/var/lib/k2s is owned by uid 1000, not root');
    expect(statSync(r('var/lib/k2s')).uid).toBe(1000);
    chownSync(r('var/lib/k2s'), 0, 0);
    writeFileSync(r('var/lib/k2s/dns-resolver-state.json'), JSON.stringify(STATE), { mode: 0o666 });
    chownSync(r('var/lib/k2s/dns-resolver-state.json'), 1000, 1000);
    await expect(readState(fs)).rejects.toThrow('/var/lib/k2s/dns-resolver-state.json is owned by uid 1000, not root');
    expect(readFileSync(r('var/lib/k2s/dns-resolver-state.json'), 'utf8')).toBe(JSON.stringify(STATE));
  });
});
