/**
 * Real-kernel refusals: an immutable (chattr +i) resolv.conf, and one bind-mounted over inside a
 * private mount namespace this test creates (unshare -m), as containers do. Temp root only.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Exec } from './exec';
import { createHostFs } from './host-fs-node';
import { captureResolver, readAppendOnly, restoreResolver } from './resolver-state';

const realExec: Exec = {
  run: (file, args) =>
    new Promise((resolve, reject) =>
      execFile(file, [...args], (err, stdout, stderr) => {
        if (err && typeof err.code === 'string') return reject(err);
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
      }),
    ),
};

const isRoot = process.getuid?.() === 0;
/** chattr works only as root on filesystems with attributes (ext4, xfs; not tmpfs/overlayfs). */
function chattrWorks(): boolean {
  if (!isRoot) return false;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-chattr-probe-'));
  const f = path.join(dir, 'probe');
  writeFileSync(f, '');
  const ok = spawnSync('chattr', ['+i', f]).status === 0;
  spawnSync('chattr', ['-i', f]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
}
const unshareWorks = isRoot && spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']).status === 0;

let root: string;
const r = (p: string) => path.join(root, p);
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-refusal-'));
  mkdirSync(r('etc'));
});
afterEach(() => {
  if (existsSync(r('etc/resolv.conf'))) spawnSync('chattr', ['-i', '-a', r('etc/resolv.conf')]);
  rmSync(root, { recursive: true, force: true });
});

describe('refusals on a real kernel', () => {
  it.skipIf(!chattrWorks())('immutable file: lsattr reports it, restore fails with the chattr fix and changes nothing (skipped: needs root and a filesystem with attributes)', async () => {
    const fs = createHostFs(root);
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.0.0.1\n');
    const saved = await captureResolver(fs, realExec);
    expect(saved).toMatchObject({ kind: 'file', immutable: false });
    expect(spawnSync('chattr', ['+i', r('etc/resolv.conf')]).status).toBe(0);
    expect(await captureResolver(fs, realExec)).toMatchObject({ kind: 'file', immutable: true });
    await expect(restoreResolver(fs, { kind: 'symlink', target: '/run/x', uid: 0, gid: 0, dangling: true, targetContentBase64: null })).rejects.toThrow(
      /^\/etc\/resolv.conf cannot be replaced \(EPERM: immutable or append-only flag, or not root\); run as root, check it with "lsattr -d \/etc\/resolv.conf" and clear the flag with "chattr -i -a \/etc\/resolv.conf", then retry\.$/,
    );
    expect(readFileSync(r('etc/resolv.conf'), 'utf8')).toBe('nameserver 10.0.0.1\n');
    expect(readFileSync(r('etc/resolv.conf')).length).toBe(20);
  });

  it.skipIf(!chattrWorks())('append-only file (chattr +a): lsattr reports it, rename over it fails, restoring the same entry is a no-op (skipped: needs root and a filesystem with attributes)', async () => {
    const fs = createHostFs(root);
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.0.0.1\n');
    const saved = await captureResolver(fs, realExec);
    expect(spawnSync('chattr', ['+a', r('etc/resolv.conf')]).status).toBe(0);
    expect(await readAppendOnly(fs, realExec, '/etc/resolv.conf')).toBe(true);
    await expect(restoreResolver(fs, { kind: 'absent' })).rejects.toThrow(/EPERM: immutable or append-only flag/);
    // Nothing changed, so "restoring" the saved entry writes nothing and succeeds.
    await expect(restoreResolver(fs, saved)).resolves.toBeUndefined();
    expect(readFileSync(r('etc/resolv.conf'), 'utf8')).toBe('nameserver 10.0.0.1\n');
    spawnSync('chattr', ['-a', r('etc/resolv.conf')]);
    expect(await readAppendOnly(fs, realExec, '/etc/resolv.conf')).toBe(false);
  });

  it.skipIf(!unshareWorks)('bind-mounted file (private mount namespace): restore fails with EBUSY and the container hint (needs root and unshare; skipped without them)', () => {
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.0.0.1\n');
    writeFileSync(r('container-resolv.conf'), 'nameserver 10.99.0.1\n');
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'resolver-refusals.fixture.ts');
    // The bind mount exists only inside the namespace unshare creates; it vanishes with it.
    const res = spawnSync(
      'unshare',
      ['--mount', '--propagation', 'private', '--', 'sh', '-c', 'mount --bind "$1" "$2" && exec "$3" --import tsx "$4" "$5"', 'sh',
        r('container-resolv.conf'), r('etc/resolv.conf'), process.execPath, script, root],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(res.stderr).toBe('');
    expect(res.stdout.trim()).toBe(
      '/etc/resolv.conf is a mount point (bind mount, e.g. a container) and cannot be replaced; restore it from the host that mounts it.',
    );
    expect(readFileSync(r('etc/resolv.conf'), 'utf8')).toBe('nameserver 10.0.0.1\n');
  });
});
