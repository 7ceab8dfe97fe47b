/**
 * /run/k2s full. On main, stop wrote its lock record first and died
 * with a raw ENOSPC before the restore: the host stayed on nameserver 127.0.0.1. Stop and
 * recover must restore the resolver first and then report what they could not write.
 */
import { describe, expect, it } from 'vitest';
import { lstat, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import type { HostFs } from '../host/host-fs';
import { startDns } from './start';
import { stopDns } from './stop';
import { recoverNow } from './recover';
import { acquireLock } from './lock';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
const opts = TEST_START_OPTS;

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
/** `fs` whose every write under /run fails with ENOSPC (mkdir, append, atomic writes). */
function runDirFull(fs: HostFs): HostFs {
  const full = (p: string) => p === '/run' || p.startsWith('/run/');
  return {
    ...fs,
    real: fs.real.bind(fs),
    mkdirp: async (p, mode) => (full(p) && !(await fs.lstat(p)) ? Promise.reject(enospc()) : fs.mkdirp(p, mode)),
    append: async (p, d, mode) => (full(p) ? Promise.reject(enospc()) : fs.append(p, d, mode)),
    writeFileAtomic: async (p, d, o) => (full(p) ? Promise.reject(enospc()) : fs.writeFileAtomic(p, d, o)),
  };
}
const row = (id: number, mp: string, type: string) => `${id} 1 0:${id} / ${mp} rw,relatime - ${type} ${type} rw\n`;

async function running() {
  const h = await newHost(ORIGINAL);
  expect((await startDns(h.deps, opts, () => undefined)).ok).toBe(true);
  h.deps.mountinfo = async () => row(21, '/', 'ext4') + row(30, join(h.root, 'run'), 'tmpfs');
  return h;
}

describe('a full /run', () => {
  it('stop with no room for the lock file: restores the resolver, stops the proxy, warns RUN_DIR_FULL naming /run and df', async () => {
    const h = await running();
    await rm(join(h.root, 'run/k2s'), { recursive: true }); // the lock file must be created anew
    h.deps.fs = runDirFull(h.deps.fs);
    const events: LifecycleEvent[] = [];
    const r = await stopDns(h.deps, {}, (e) => events.push(e));
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.running).toBe(false);
    await expect(lstat(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).rejects.toThrow(/ENOENT/);
    const want = `Went on without the lifecycle lock: No space left on the tmpfs filesystem mounted at ${join(h.root, 'run')}, so /run/k2s/dns-lifecycle.lock cannot be written; free space there (df -h ${join(h.root, 'run')}), then run k2s-dns stop again.`;
    expect(r.warnings).toEqual([{ code: 'RUN_DIR_FULL', message: want }]);
    expect(r.message).toContain(want);
    // The restore ran before any failing write was retried: the step order is restore, stop-service.
    expect(events.filter((e) => e.type === 'step' && e.status === 'done').map((e) => (e as { step: string }).step)).toEqual(['restore', 'stop-service']);
  });

  it('systemd stop with no room for the lock file ends the follower before the restore (no lock keeps its look out then)', async () => {
    const h = await running();
    await rm(join(h.root, 'run/k2s'), { recursive: true });
    h.deps.fs = runDirFull(h.deps.fs);
    const seen: string[] = [];
    const resolver = async () => ((await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')) === ORIGINAL ? 'restored' : 'proxy');
    Object.assign(h.deps.services, { kind: 'systemd' });
    h.deps.follower = { argv: ['node', 'k2s-dns.mjs', 'follow-watch'], manager: { start: async () => undefined, stop: async () => void seen.push(`follower stop: ${await resolver()}`) } };
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings?.map((w) => w.code)).toEqual(['RUN_DIR_FULL']);
    expect(seen).toEqual(['follower stop: proxy']);
  });

  it('stop when the lock file exists but its PID record cannot be written: takes the lock, restores, no warning', async () => {
    const h = await running();
    h.deps.fs = runDirFull(h.deps.fs);
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toBeUndefined();
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('recover --force with no room for the lock file restores and says it went on without the lock', async () => {
    const h = await running();
    await rm(join(h.root, 'run/k2s'), { recursive: true });
    h.deps.fs = runDirFull(h.deps.fs);
    const done = await recoverNow(h.deps, () => undefined, { force: true });
    expect(done).toMatch(/^Forced recovery: the saved original resolver is back and k2s-dnsproxy is stopped\. Went on without the lifecycle lock: No space left on the tmpfs filesystem/);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });

  it('start never goes on without the lock: a full /run refuses it with the cause, nothing changed', async () => {
    const h = await newHost(ORIGINAL);
    h.deps.fs = runDirFull(h.deps.fs);
    h.deps.mountinfo = async () => row(21, '/', 'ext4') + row(30, join(h.root, 'run'), 'tmpfs');
    const r = await startDns(h.deps, opts, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NO_SPACE' });
    expect(r.message).toBe(`No space left on the tmpfs filesystem mounted at ${join(h.root, 'run')}, so /run/k2s/dns-lifecycle.lock cannot be written; free space there (df -h ${join(h.root, 'run')}), then start again. Nothing was changed.`);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    expect(h.services.started).toEqual([]);
    await expect(acquireLock(h.deps.fs)).rejects.toThrow(/ENOSPC/);
  });
});
