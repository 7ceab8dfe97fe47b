import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStatusWatch, type StatusWatchDeps } from './status-watch';
import type { HostDnsStatus } from '../../../shared/types';

const base: HostDnsStatus = { state: 'stopped', engine: null, engineVersion: null, listeners: [], skippedListeners: [], resolverOwner: 'original', upstreams: [], clusterDomain: null, kubeDnsIp: null, savedAt: null, savedBy: null, pid: null, messages: [], operation: null };
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A watch over a temp "etc" and a not-yet-existing "state" dir, with a fake clock and /proc. */
function setUp(status: () => HostDnsStatus) {
  const root = mkdtempSync(join(tmpdir(), 'status-watch-'));
  dirs.push(root);
  mkdirSync(join(root, 'etc'));
  const clock = { now: 0 };
  const alive = new Set<number>();
  const deps: StatusWatchDeps = {
    read: vi.fn(async () => status()),
    dirs: () => [{ dir: join(root, 'etc'), names: ['resolv.conf'] }, { dir: join(root, 'var/lib/k2s') }],
    watch: (dir, onEvent) => {
      const w = watch(dir, { persistent: false }, (_e, f) => onEvent(f === null ? null : String(f)));
      return () => w.close();
    },
    exists: (d) => existsSync(d),
    pidAlive: (pid) => alive.has(pid),
    now: () => clock.now,
    maxAgeMs: 30_000,
  };
  return { root, clock, alive, deps, w: createStatusWatch(deps) };
}

describe('status watch', () => {
  it('answers polls from the kept status until a watched file changes, then reads once', async () => {
    const { root, w } = setUp(() => base);
    await w.get();
    for (let i = 0; i < 5; i++) await w.get();
    expect(w.reads).toBe(1);
    writeFileSync(join(root, 'etc', 'other.conf'), 'x'); // not resolv.conf: no re-read
    writeFileSync(join(root, 'etc', 'resolv.conf'), 'nameserver 127.0.0.1\n');
    await vi.waitFor(async () => {
      await w.get();
      expect(w.reads).toBe(2);
    });
    w.close();
  });

  it('sees a state directory created after the watch started (through its parent)', async () => {
    const { root, w } = setUp(() => base);
    mkdirSync(join(root, 'var'));
    await w.get(); // watches <root>/var for "lib"
    mkdirSync(join(root, 'var/lib/k2s'), { recursive: true });
    await vi.waitFor(async () => {
      await w.get();
      expect(w.reads).toBe(2);
    });
    writeFileSync(join(root, 'var/lib/k2s/dns-resolver-state.json'), '{}'); // now watched itself
    await vi.waitFor(async () => {
      await w.get();
      expect(w.reads).toBe(3);
    });
    w.close();
  });

  it('reads again when the proxy PID is gone, during an operation, after invalidate, and at the safety age', async () => {
    let s: HostDnsStatus = { ...base, state: 'running', pid: 4242 };
    const { alive, clock, w } = setUp(() => s);
    alive.add(4242);
    await w.get();
    await w.get();
    expect(w.reads).toBe(1);
    alive.delete(4242);
    await w.get();
    expect(w.reads).toBe(2);
    s = { ...base, state: 'starting', operation: { op: 'start', step: 'service', pid: 7, startedAt: 'x' } };
    w.invalidate();
    await w.get();
    await w.get();
    expect(w.reads).toBe(4); // starting: never kept
    s = base;
    await w.get();
    await w.get();
    expect(w.reads).toBe(5);
    clock.now = 30_000;
    await w.get();
    expect(w.reads).toBe(6);
    w.close();
  });

  it('never keeps a status while the watchdog or systemd restarts the proxy: the new proxy\'s exec changes no watched file (walk 12 M1)', async () => {
    let s: HostDnsStatus = { ...base, state: 'degraded', pid: null, watchdogRestart: { restarts: 1, max: 6 } };
    const { alive, w } = setUp(() => s);
    await w.get();
    await w.get();
    expect(w.reads).toBe(2);
    s = { ...base, state: 'degraded', pid: null, serviceRestart: { attempt: 1, lastExit: null, reason: null, gaveUp: false } };
    await w.get();
    await w.get();
    expect(w.reads).toBe(4);
    // Running again (its PID watched), or given up: kept again.
    s = { ...base, state: 'running', pid: 4041 };
    alive.add(4041);
    await w.get();
    await w.get();
    expect(w.reads).toBe(5);
    s = { ...base, state: 'degraded', pid: null, serviceRestart: { attempt: 5, lastExit: null, reason: null, gaveUp: true } };
    w.invalidate();
    await w.get();
    await w.get();
    expect(w.reads).toBe(6);
    w.close();
  });

  it('reads again when the network follower\'s PID is gone (kill -9 leaves its pidfile: no directory event, walk5 M3)', async () => {
    let s: HostDnsStatus = { ...base, state: 'running', pid: 4242, follower: { running: true, pid: 5150 } };
    const { alive, w } = setUp(() => s);
    alive.add(4242).add(5150);
    await w.get();
    await w.get();
    expect(w.reads).toBe(1);
    alive.delete(5150);
    s = { ...s, follower: { running: false, pid: null } };
    expect((await w.get()).follower).toEqual({ running: false, pid: null });
    expect(w.reads).toBe(2);
    await w.get();
    expect(w.reads).toBe(2); // kept again: no PID to watch
    w.close();
  });
});
