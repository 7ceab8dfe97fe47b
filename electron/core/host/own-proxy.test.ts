import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { createHostFs } from './host-fs-node';
import { findOwnProxies, inOtherMountNamespace } from './own-proxy';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-own-proxy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fake /proc entry: argv as cmdline (NUL-separated) and the mount namespace link, as proc(5). */
function proc(procDir: string, pid: string, argv: string[] | null, mntNs: string): void {
  mkdirSync(path.join(procDir, pid, 'ns'), { recursive: true });
  if (argv) writeFileSync(path.join(procDir, pid, 'cmdline'), argv.map((a) => `${a}\0`).join(''));
  symlinkSync(mntNs, path.join(procDir, pid, 'ns', 'mnt'));
}

describe('findOwnProxies over a fake /proc', () => {
  it('finds exactly the processes with our config argument in our mount namespace', async () => {
    const root = path.join(dir, 'root');
    const procDir = path.join(dir, 'proc');
    const fs = createHostFs(root);
    const dnsproxy = `--config-path=${fs.real(K2S_PATHS.proxyConfig)}`;
    const dnsmasq = `--conf-file=${fs.real(K2S_PATHS.dnsmasqConfig)}`;
    proc(procDir, 'self', null, 'mnt:[4026531841]');
    proc(procDir, '120', ['/usr/bin/dnsproxy', dnsproxy], 'mnt:[4026531841]');
    proc(procDir, '121', ['/usr/sbin/dnsmasq', '-k', dnsmasq], 'mnt:[4026531841]');
    proc(procDir, '122', ['/usr/bin/dnsproxy', dnsproxy], 'mnt:[4026532999]'); // another mount namespace
    proc(procDir, '123', ['/usr/bin/dnsproxy', `${dnsproxy}.bak`], 'mnt:[4026531841]'); // substring only
    proc(procDir, '124', [dnsproxy], 'mnt:[4026531841]'); // the marker as argv[0] is not an argument
    proc(procDir, '125', null, 'mnt:[4026531841]'); // no cmdline (gone, or a kernel thread)
    mkdirSync(path.join(procDir, 'net'));
    expect(await findOwnProxies(fs, procDir)).toEqual([120, 121]);
  });

  it('an unreadable /proc finds none', async () => {
    expect(await findOwnProxies(createHostFs(dir), path.join(dir, 'absent'))).toEqual([]);
  });
});

describe('inOtherMountNamespace over a fake /proc', () => {
  it('true only when both links are read and differ', async () => {
    const procDir = path.join(dir, 'proc');
    proc(procDir, 'self', null, 'mnt:[4026531841]');
    proc(procDir, '120', null, 'mnt:[4026531841]');
    proc(procDir, '122', null, 'mnt:[4026532999]');
    expect(await inOtherMountNamespace(120, procDir)).toBe(false);
    expect(await inOtherMountNamespace(122, procDir)).toBe(true);
    // Gone (or not readable as this user): not provably elsewhere.
    expect(await inOtherMountNamespace(123, procDir)).toBe(false);
  });
});
