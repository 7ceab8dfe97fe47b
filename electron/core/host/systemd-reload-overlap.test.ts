/**
 * Two reloads' worth of work side by side, as `k2s-dns start` now runs them on systemd hosts: the
 * capture unit's start (right after save) may be in its `daemon-reload` while the proxy's start
 * writes k2s-dnsproxy.service (systemd-service.ts). A unit written while a reload runs may or may
 * not have been read by it; ManagerReload.current must then still reload for it, without relying
 * on NeedDaemonReload (which misses a changed file whose mtime is not newer: systemd-reload.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Exec } from './exec';
import { systemdReload } from './systemd-reload';

describe('systemdReload: a unit written while a reload runs', () => {
  it('is still reloaded for by the next current(), even where NeedDaemonReload says no', async () => {
    const calls: string[] = [];
    let reloadDone!: () => void;
    const firstReload = new Promise<void>((r) => (reloadDone = r));
    let reloads = 0;
    const exec: Exec = {
      run: async (file, args) => {
        calls.push(`${file} ${args.join(' ')}`);
        if (args[0] === 'daemon-reload' && ++reloads === 1) await firstReload;
        // The manager's answer for a file whose mtime is not newer than the one it loaded.
        const stdout = args[0] === 'show' ? args.slice(args.indexOf('--') + 1).map((u) => `Id=${u}\nLoadState=loaded\nNeedDaemonReload=no\n`).join('\n') : '';
        return { code: 0, stdout, stderr: '' };
      },
    };
    const reload = systemdReload(exec);
    // The capture's start: its unit written, its reload begun.
    reload.unitWritten('k2s-dnsproxy-capture.service');
    const capture = reload.current(['k2s-dnsproxy-capture.service']);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['systemctl daemon-reload']);
    // The proxy's start writes its unit while that reload runs; then the reload ends.
    reload.unitWritten('k2s-dnsproxy.service');
    reloadDone();
    expect(await capture).toBe(true);
    // The proxy's own question: the manager may hold its old file, so it reloads.
    expect(await reload.current(['k2s-dnsproxy.service'])).toBe(true);
    expect(calls.filter((c) => c === 'systemctl daemon-reload')).toHaveLength(2);
  });

  it("a unit written before that reload began (start.ts writes the proxy's units before the capture's start): the next current() waits for the reload in flight and reloads no second time", async () => {
    const calls: string[] = [];
    let reloadDone!: () => void;
    const firstReload = new Promise<void>((r) => (reloadDone = r));
    const exec: Exec = {
      run: async (file, args) => {
        calls.push(`${file} ${args.join(' ')}`);
        if (args[0] === 'daemon-reload') await firstReload;
        return { code: 0, stdout: '', stderr: '' };
      },
    };
    const reload = systemdReload(exec);
    reload.unitWritten('k2s-dnsproxy.service');
    reload.unitWritten('k2s-dnsproxy-capture.service');
    const capture = reload.current(['k2s-dnsproxy-capture.service']);
    await new Promise((r) => setImmediate(r));
    // The service step asks while the capture's reload runs.
    let proxyDone = false;
    const proxy = reload.current(['k2s-dnsproxy.service']).then((r) => ((proxyDone = true), r));
    await new Promise((r) => setImmediate(r));
    expect(proxyDone).toBe(false);
    reloadDone();
    expect(await capture).toBe(true);
    expect(await proxy).toBe(false);
    expect(calls).toEqual(['systemctl daemon-reload']);
  });
});
