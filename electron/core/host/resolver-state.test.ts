import { mkdtempSync, rmSync, mkdirSync, writeFileSync, symlinkSync, lstatSync, readlinkSync, readFileSync, chownSync, chmodSync, lchownSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANAGED_HEADER, MANAGED_NOTE } from '../../../shared/k2s-paths';
import type { ResolverEntry } from '../../../shared/types';
import type { Exec } from './exec';
import { execFile } from 'node:child_process';
import { createHostFs } from './host-fs-node';
import {
  captureResolver,
  captureResolverWithNotes,
  describeResolverChanges,
  isManagedResolvConf,
  NotResolverEntryError,
  parseLsattrImmutable,
  restoreResolver,
  sameResolver,
} from './resolver-state';

const isRoot = process.getuid?.() === 0;
const K2S_FILE = `${MANAGED_HEADER}\n${MANAGED_NOTE}\nnameserver 127.0.0.1\n`;
let root: string;
const r = (p: string) => path.join(root, p);

/** An Exec whose lsattr reports the given flags for every path. */
/**
 * Real commands via execFile. (nodeExec in exec.ts writes stdin with no 'error' handler, so a
 * child that exits before reading it, like lsattr, can raise an uncaught EPIPE; reported to the lead.)
 */
const nodeExec: Exec = {
  run: (file, args) =>
    new Promise((resolve, reject) =>
      execFile(file, [...args], (err, stdout, stderr) => {
        if (err && typeof err.code === 'string') return reject(err);
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
      }),
    ),
};

const lsattrSays = (flags: string): Exec => ({
  run: async (_file, args) => ({ code: 0, stdout: `${flags} ${args[1]}\n`, stderr: '' }),
});

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'k2s-resolver-'));
  mkdirSync(r('etc'));
  mkdirSync(r('run/systemd/resolve'), { recursive: true });
  mkdirSync(r('run/NetworkManager'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Facts of /etc/resolv.conf on disk, read with plain node:fs. */
function onDisk() {
  const st = lstatSync(r('etc/resolv.conf'));
  return {
    kind: st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : 'other',
    link: st.isSymbolicLink() ? readlinkSync(r('etc/resolv.conf')) : null,
    bytes: st.isFile() ? readFileSync(r('etc/resolv.conf')).toString('hex') : null,
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
  };
}

/** capture → replace with the K2s-owned file → restore → identical lstat, link, bytes, mode, owner. */
async function roundTrip(): Promise<ResolverEntry> {
  const fs = createHostFs(root);
  const before = onDisk();
  const saved = await captureResolver(fs, nodeExec);
  await fs.writeFileAtomic('/etc/resolv.conf', K2S_FILE, { mode: 0o644, uid: 0, gid: 0 });
  expect(onDisk().kind).toBe('file');
  await restoreResolver(fs, saved);
  expect(onDisk()).toEqual(before);
  expect(sameResolver(saved, await captureResolver(fs, nodeExec))).toBe(true);
  return saved;
}

describe('parseLsattrImmutable', () => {
  it('reads the i flag from real lsattr output', () => {
    expect(parseLsattrImmutable('----i---------e------- /etc/resolv.conf\n')).toBe(true);
    expect(parseLsattrImmutable('--------------e------- /etc/resolv.conf\n')).toBe(false);
    expect(parseLsattrImmutable('')).toBeNull();
  });
});

describe('captureResolver / restoreResolver on a temp root', () => {
  it('regular file: exact bytes, mode, owner, immutable from lsattr', async () => {
    writeFileSync(r('etc/resolv.conf'), 'nameserver 192.168.1.1\nsearch lan\n');
    chmodSync(r('etc/resolv.conf'), 0o644);
    const entry = await captureResolver(createHostFs(root), lsattrSays('----i---------e-------'));
    expect(entry).toEqual({
      kind: 'file',
      contentBase64: Buffer.from('nameserver 192.168.1.1\nsearch lan\n').toString('base64'),
      mode: 0o644,
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      immutable: true,
    });
    await roundTrip();
  });

  it('lsattr failing (e.g. tmpfs) means not immutable, with a note', async () => {
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.0.0.1\n');
    const failing: Exec = { run: async () => ({ code: 1, stdout: '', stderr: 'lsattr: Operation not supported' }) };
    const { entry, notes } = await captureResolverWithNotes(createHostFs(root), failing);
    expect(entry.kind === 'file' && entry.immutable).toBe(false);
    expect(notes).toEqual(['lsattr -d /etc/resolv.conf gave no flags (lsattr: Operation not supported); assumed not immutable.']);
    const missing: Exec = { run: async () => Promise.reject(new Error('spawn lsattr ENOENT')) };
    expect((await captureResolverWithNotes(createHostFs(root), missing)).notes[0]).toContain('lsattr could not run');
  });

  it('immutableFlag false: no lsattr, immutable false, the rest of the entry as read', async () => {
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.0.0.5\n');
    const asked: string[] = [];
    const counting: Exec = { run: async (_file, args) => (asked.push(args[1]!), { code: 0, stdout: `----i---------e------- ${args[1]}\n`, stderr: '' }) };
    const fs = createHostFs(root);
    const entry = await captureResolver(fs, counting, { immutableFlag: false });
    expect(asked).toEqual([]);
    expect(entry).toMatchObject({ kind: 'file', contentBase64: Buffer.from('nameserver 10.0.0.5\n').toString('base64'), immutable: false });
    expect(sameResolver(entry, await captureResolver(fs, counting))).toBe(true);
  });

  it('lsattr runs once per file version: same dev/inode/ctime reuses the answer, a replaced file asks again', async () => {
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.0.0.3\n');
    const asked: string[] = [];
    let flags = '----i---------e-------';
    const counting: Exec = { run: async (_file, args) => (asked.push(args[1]!), { code: 0, stdout: `${flags} ${args[1]}\n`, stderr: '' }) };
    const fs = createHostFs(root);
    const first = await captureResolver(fs, counting);
    expect(first).toMatchObject({ kind: 'file', immutable: true });
    expect(await captureResolver(fs, counting)).toEqual(first);
    expect(asked).toEqual([r('etc/resolv.conf')]);
    // A new inode (rename over it, as an editor or NetworkManager writes): a new version.
    writeFileSync(r('etc/resolv.conf.new'), 'nameserver 10.0.0.4\n');
    renameSync(r('etc/resolv.conf.new'), r('etc/resolv.conf'));
    flags = '----------------------';
    expect(await captureResolver(fs, counting)).toMatchObject({ kind: 'file', immutable: false });
    expect(asked).toEqual([r('etc/resolv.conf'), r('etc/resolv.conf')]);
  });

  it('CRLF content without a trailing newline survives byte for byte', async () => {
    const bytes = Buffer.from('# odd\r\nnameserver 10.0.0.2\r\noptions edns0', 'utf8');
    writeFileSync(r('etc/resolv.conf'), bytes);
    const saved = await roundTrip();
    expect(saved.kind === 'file' && Buffer.from(saved.contentBase64, 'base64').equals(bytes)).toBe(true);
  });

  it.skipIf(!isRoot)('mode 0640 owned by 1000:1000 is restored exactly (skipped: chown needs root)', async () => {
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.1.1.1\n');
    chmodSync(r('etc/resolv.conf'), 0o640);
    chownSync(r('etc/resolv.conf'), 1000, 1000);
    const saved = await roundTrip();
    expect(saved).toMatchObject({ kind: 'file', mode: 0o640, uid: 1000, gid: 1000 });
  });

  it('absolute symlink to /run/NetworkManager/resolv.conf', async () => {
    writeFileSync(r('run/NetworkManager/resolv.conf'), 'nameserver 192.168.0.1\n');
    symlinkSync('/run/NetworkManager/resolv.conf', r('etc/resolv.conf'));
    const saved = await roundTrip();
    expect(saved).toMatchObject({
      kind: 'symlink',
      target: '/run/NetworkManager/resolv.conf',
      dangling: false,
      targetContentBase64: Buffer.from('nameserver 192.168.0.1\n').toString('base64'),
    });
  });

  it('relative symlink into /run resolves against /etc inside the root', async () => {
    writeFileSync(r('run/systemd/resolve/stub-resolv.conf'), 'nameserver 127.0.0.53\noptions edns0 trust-ad\n');
    symlinkSync('../run/systemd/resolve/stub-resolv.conf', r('etc/resolv.conf'));
    const saved = await roundTrip();
    expect(saved).toMatchObject({ kind: 'symlink', target: '../run/systemd/resolve/stub-resolv.conf', dangling: false });
    expect(saved.kind === 'symlink' && Buffer.from(saved.targetContentBase64 ?? '', 'base64').toString()).toBe(
      'nameserver 127.0.0.53\noptions edns0 trust-ad\n',
    );
  });

  it('dangling symlink is saved and restored as dangling', async () => {
    symlinkSync('../run/resolvconf/resolv.conf', r('etc/resolv.conf'));
    const saved = await roundTrip();
    expect(saved).toEqual({
      kind: 'symlink',
      target: '../run/resolvconf/resolv.conf',
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      dangling: true,
      targetContentBase64: null,
    });
  });

  it.skipIf(!isRoot)('symlink owner is restored with lchown (skipped: needs root)', async () => {
    symlinkSync('/run/NetworkManager/resolv.conf', r('etc/resolv.conf'));
    lchownSync(r('etc/resolv.conf'), 1000, 1000);
    expect(await roundTrip()).toMatchObject({ uid: 1000, gid: 1000 });
  });

  it('absent is restored by removing the K2s-owned file', async () => {
    const fs = createHostFs(root);
    const saved = await captureResolver(fs, nodeExec);
    expect(saved).toEqual({ kind: 'absent' });
    await fs.writeFileAtomic('/etc/resolv.conf', K2S_FILE, { mode: 0o644 });
    await restoreResolver(fs, saved);
    expect(await fs.lstat('/etc/resolv.conf')).toBeNull();
  });

  it('restoring over a current symlink replaces the link and leaves its target file unchanged', async () => {
    const fs = createHostFs(root);
    const stub = 'nameserver 127.0.0.53\n';
    writeFileSync(r('run/systemd/resolve/stub-resolv.conf'), stub);
    writeFileSync(r('etc/resolv.conf'), 'nameserver 10.9.9.9\n');
    const saved = await captureResolver(fs, nodeExec);
    rmSync(r('etc/resolv.conf'));
    symlinkSync('../run/systemd/resolve/stub-resolv.conf', r('etc/resolv.conf'));
    await restoreResolver(fs, saved);
    expect(readFileSync(r('run/systemd/resolve/stub-resolv.conf'), 'utf8')).toBe(stub);
    expect(onDisk()).toMatchObject({ kind: 'file', bytes: Buffer.from('nameserver 10.9.9.9\n').toString('hex') });
  });

  it('refuses a directory at /etc/resolv.conf with the fix', async () => {
    mkdirSync(r('etc/resolv.conf'));
    await expect(captureResolver(createHostFs(root), nodeExec)).rejects.toThrow(
      '/etc/resolv.conf is a directory, not a resolver file or a symlink to one; replace it with a regular resolv.conf and retry.',
    );
    // Typed, so start refuses it as NOT_RESOLVER_FILE (exit 3) instead of an INTERNAL failure.
    const err = await captureResolver(createHostFs(root), nodeExec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotResolverEntryError);
    expect((err as NotResolverEntryError).what).toEqual({ kind: 'dir' });
  });
});

describe('sameResolver / describeResolverChanges', () => {
  const file = (text: string, mode = 0o644, uid = 0, gid = 0): ResolverEntry => ({
    kind: 'file',
    contentBase64: Buffer.from(text).toString('base64'),
    mode,
    uid,
    gid,
    immutable: false,
  });
  const link = (target: string): ResolverEntry => ({ kind: 'symlink', target, uid: 0, gid: 0, dangling: false, targetContentBase64: null });

  it('names each change', () => {
    expect(describeResolverChanges(file('a\n'), file('a\n', 0o640, 1000, 1000))).toEqual(['mode 0644 → 0640', 'owner 0:0 → 1000:1000']);
    expect(describeResolverChanges(link('../run/x'), file('a'))).toEqual(['symlink → regular file']);
    expect(describeResolverChanges(link('../run/x'), link('/run/y'))).toEqual(['link target "../run/x" → "/run/y"']);
    expect(describeResolverChanges(file('nameserver 1.1.1.1\n'), file(K2S_FILE))).toEqual([
      `content changed: nameserver 1.1.1.1 → 127.0.0.1 (19 bytes → ${Buffer.byteLength(K2S_FILE)} bytes)`,
    ]);
    // In the directives' words (the Diff panel said only "content changed").
    expect(describeResolverChanges(file('search lan\nnameserver 192.0.2.53\n'), file('# NM\nnameserver 192.0.2.53\noptions ndots:2\n'))).toEqual(['content changed: search lan → (none); options (none) → ndots:2 (33 bytes → 43 bytes)']);
    expect(describeResolverChanges(file('nameserver 192.0.2.53\n'), file('# edited\nnameserver 192.0.2.53\n'))).toEqual(['content changed: only comments or spacing (22 bytes → 31 bytes)']);
    expect(describeResolverChanges({ kind: 'absent' }, file('x'))).toEqual(['absent → regular file']);
    expect(sameResolver(link('/run/y'), link('/run/y'))).toBe(true);
    expect(sameResolver(file('a'), file('a', 0o600))).toBe(false);
  });
});

describe('isManagedResolvConf', () => {
  it('matches the exact first line, with LF or CRLF', () => {
    expect(isManagedResolvConf(Buffer.from(K2S_FILE))).toBe(true);
    expect(isManagedResolvConf(Buffer.from(`${MANAGED_HEADER}\r\nnameserver 127.0.0.1\r\n`))).toBe(true);
    expect(isManagedResolvConf(Buffer.from(MANAGED_HEADER))).toBe(true);
    expect(isManagedResolvConf(Buffer.from(`nameserver 127.0.0.1\n${MANAGED_HEADER}\n`))).toBe(false);
    expect(isManagedResolvConf(Buffer.from(`${MANAGED_HEADER} extra\n`))).toBe(false);
  });
});
