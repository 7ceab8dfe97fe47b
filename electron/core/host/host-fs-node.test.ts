import { mkdtempSync, rmSync, mkdirSync, writeFileSync, symlinkSync, lstatSync, readlinkSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHostFs } from './host-fs-node';

const isRoot = process.getuid?.() === 0;
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-hostfs-'));
  mkdirSync(path.join(root, 'etc'));
  mkdirSync(path.join(root, 'run/systemd/resolve'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('createHostFs', () => {
  it('maps host paths under the root and rejects relative paths', () => {
    const fs = createHostFs(root);
    expect(fs.real('/etc/resolv.conf')).toBe(path.join(root, 'etc/resolv.conf'));
    expect(createHostFs('/').real('/etc/resolv.conf')).toBe('/etc/resolv.conf');
    expect(() => fs.real('etc/resolv.conf')).toThrow('not absolute');
  });

  it('writeFileAtomic fsyncs the file and its directory, except with sync: false (same bytes, mode, no temp file)', async () => {
    const fs = createHostFs(root);
    const probe = await fsp.open(path.join(root, 'etc'), 'r');
    const FileHandle = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const sync = vi.spyOn(FileHandle, 'sync');
    try {
      await fs.writeFileAtomic('/etc/a', 'a\n', { mode: 0o640 });
      expect(sync).toHaveBeenCalledTimes(2);
      sync.mockClear();
      await fs.writeFileAtomic('/etc/b', 'b\n', { mode: 0o600, sync: false });
      expect(sync).not.toHaveBeenCalled();
    } finally {
      sync.mockRestore();
    }
    expect(readFileSync(path.join(root, 'etc/b'), 'utf8')).toBe('b\n');
    expect(statSync(path.join(root, 'etc/b')).mode & 0o7777).toBe(0o600);
    expect(readdirSync(path.join(root, 'etc')).sort()).toEqual(['a', 'b']);
  });

  it('writeFileAtomic writes exact bytes and mode, and leaves no temp file behind', async () => {
    const fs = createHostFs(root);
    const bytes = Buffer.from('nameserver 10.0.0.1\r\n# no newline', 'utf8');
    await fs.writeFileAtomic('/etc/resolv.conf', bytes, { mode: 0o640 });
    const real = path.join(root, 'etc/resolv.conf');
    expect(readFileSync(real).equals(bytes)).toBe(true);
    expect(statSync(real).mode & 0o7777).toBe(0o640);
    expect(readdirSync(path.join(root, 'etc'))).toEqual(['resolv.conf']);
  });

  it.skipIf(!isRoot)('writeFileAtomic chowns to uid/gid (skipped: needs root)', async () => {
    const fs = createHostFs(root);
    await fs.writeFileAtomic('/etc/x', 'x', { mode: 0o600, uid: 1000, gid: 1001 });
    const st = await fs.lstat('/etc/x');
    expect([st?.uid, st?.gid, st?.mode]).toEqual([1000, 1001, 0o600]);
  });

  it('writeFileAtomic replaces a symlink itself and never writes through it', async () => {
    const fs = createHostFs(root);
    const stub = path.join(root, 'run/systemd/resolve/stub-resolv.conf');
    writeFileSync(stub, 'nameserver 127.0.0.53\n');
    symlinkSync('../run/systemd/resolve/stub-resolv.conf', path.join(root, 'etc/resolv.conf'));
    await fs.writeFileAtomic('/etc/resolv.conf', 'nameserver 127.0.0.1\n', { mode: 0o644 });
    expect(lstatSync(path.join(root, 'etc/resolv.conf')).isFile()).toBe(true);
    expect(readFileSync(stub, 'utf8')).toBe('nameserver 127.0.0.53\n');
  });

  it('symlinkAtomic replaces a regular file with a link holding the exact target string', async () => {
    const fs = createHostFs(root);
    writeFileSync(path.join(root, 'etc/resolv.conf'), 'nameserver 1.1.1.1\n');
    await fs.symlinkAtomic('/etc/resolv.conf', '/run/NetworkManager/resolv.conf');
    expect(readlinkSync(path.join(root, 'etc/resolv.conf'))).toBe('/run/NetworkManager/resolv.conf');
    expect(readdirSync(path.join(root, 'etc'))).toEqual(['resolv.conf']);
    expect((await fs.lstat('/etc/resolv.conf'))?.kind).toBe('symlink');
    // dangling inside the root, even though the machine may have that path
    expect(await fs.stat('/etc/resolv.conf')).toBeNull();
  });

  it('follows absolute and relative links inside the root, not on the machine', async () => {
    const fs = createHostFs(root);
    writeFileSync(path.join(root, 'run/systemd/resolve/stub-resolv.conf'), 'nameserver 127.0.0.53\n');
    symlinkSync('/run/systemd/resolve/stub-resolv.conf', path.join(root, 'etc/abs'));
    symlinkSync('../run/systemd/resolve/stub-resolv.conf', path.join(root, 'etc/rel'));
    symlinkSync('abs', path.join(root, 'etc/chain'));
    for (const p of ['/etc/abs', '/etc/rel', '/etc/chain']) {
      expect((await fs.readFile(p)).toString()).toBe('nameserver 127.0.0.53\n');
      expect((await fs.stat(p))?.kind).toBe('file');
    }
    symlinkSync('loop2', path.join(root, 'etc/loop1'));
    symlinkSync('loop1', path.join(root, 'etc/loop2'));
    expect(await fs.stat('/etc/loop1')).toBeNull();
    await expect(fs.readFile('/etc/missing')).rejects.toThrow('ENOENT');
    // realpath: the host path each leads to (inside the root); a missing rest kept as given; ELOOP for a loop.
    for (const p of ['/etc/abs', '/etc/rel', '/etc/chain']) expect(await fs.realpath(p)).toBe('/run/systemd/resolve/stub-resolv.conf');
    symlinkSync('../run/systemd', path.join(root, 'etc/sd'));
    expect(await fs.realpath('/etc/sd/resolve/../resolve/x/y')).toBe('/run/systemd/resolve/x/y');
    await expect(fs.realpath('/etc/loop1')).rejects.toThrow('ELOOP');
  });

  it('mkdirp sets mode on created dirs only; remove and readdir tolerate missing paths', async () => {
    const fs = createHostFs(root);
    await fs.mkdirp('/var/lib/k2s', 0o700);
    expect(statSync(path.join(root, 'var/lib/k2s')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(root, 'etc')).mode & 0o777).not.toBe(0o700);
    await fs.remove('/var/lib/k2s/none');
    expect(await fs.readdir('/var/lib/none')).toEqual([]);
    expect(await fs.readdir('/var/lib')).toEqual(['k2s']);
  });

  it('mkdirp of an existing directory (or a link to one) makes no mkdir and changes no mode; a file in the way still fails', async () => {
    const fs = createHostFs(root);
    mkdirSync(path.join(root, 'var/lib/k2s'), { recursive: true, mode: 0o750 });
    symlinkSync('k2s', path.join(root, 'var/lib/link'));
    const mkdirs = vi.spyOn(fsp, 'mkdir');
    try {
      await fs.mkdirp('/var/lib/k2s', 0o700);
      await fs.mkdirp('/var/lib/link', 0o700);
      expect(mkdirs).not.toHaveBeenCalled();
      expect(statSync(path.join(root, 'var/lib/k2s')).mode & 0o777).toBe(0o750);
      await fs.mkdirp('/var/lib/k2s/new', 0o700);
      expect(mkdirs).toHaveBeenCalled();
      expect(statSync(path.join(root, 'var/lib/k2s/new')).mode & 0o777).toBe(0o700);
    } finally {
      mkdirs.mockRestore();
    }
    writeFileSync(path.join(root, 'var/lib/file'), 'x');
    await expect(fs.mkdirp('/var/lib/file/sub', 0o700)).rejects.toThrow(/ENOTDIR/);
  });

  it('append creates with the exact mode and appends', async () => {
    const fs = createHostFs(root);
    await fs.mkdirp('/var/log/dnsproxy', 0o755);
    await fs.append('/var/log/dnsproxy/dnsproxy.log', 'a\n', 0o640);
    await fs.append('/var/log/dnsproxy/dnsproxy.log', 'b\n');
    const real = path.join(root, 'var/log/dnsproxy/dnsproxy.log');
    expect(readFileSync(real, 'utf8')).toBe('a\nb\n');
    expect(statSync(real).mode & 0o777).toBe(0o640);
  });

  it('readFile and readFileNoFollow with maxBytes: the first maxBytes bytes of a longer file, the whole of a shorter one', async () => {
    const fs = createHostFs(root);
    const long = Buffer.alloc(300_000, 'nameserver 192.0.2.1\n');
    writeFileSync(path.join(root, 'etc/long.conf'), long);
    writeFileSync(path.join(root, 'etc/short.conf'), 'search example.test\n');
    for (const read of [fs.readFile, fs.readFileNoFollow]) {
      expect((await read('/etc/long.conf', { maxBytes: 200_001 })).equals(long.subarray(0, 200_001))).toBe(true);
      expect((await read('/etc/short.conf', { maxBytes: 4096 })).toString()).toBe('search example.test\n');
      expect((await read('/etc/short.conf', { maxBytes: 6 })).toString()).toBe('search');
      expect((await read('/etc/long.conf')).length).toBe(300_000);
    }
  });
});
