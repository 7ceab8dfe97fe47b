/**
 * A start while the network follower takes a look (it holds the lifecycle lock for a moment, as
 * right after a start): waited for, not refused BUSY; another holder is BUSY at once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockAfterFollowerLook } from './companions';
import { LOCK_PATH, type HeldLock } from './lock';
import { refused, LifecycleError } from './errors';
import type { LifecycleDeps } from './deps';

const root = mkdtempSync(join(tmpdir(), 'k2s-start-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, dirname(LOCK_PATH)), { recursive: true });
const note = (pid: string) => writeFileSync(join(root, LOCK_PATH), pid);

/** deps with a temp root and a follower whose pid is `follower` (null: none runs). */
const depsWith = (follower: number | null) => ({ fs: { real: (p: string) => join(root, p) }, follower: { manager: { pid: async () => follower } } }) as unknown as LifecycleDeps;
const lock: HeldLock = { release: async () => undefined, withoutLock: null };
/** A take that is BUSY `n` times, then locks. */
const busyTimes = (n: number) => {
  let calls = 0;
  const take = async () => {
    calls++;
    if (calls <= n) throw refused('BUSY', 'Another k2s-dns operation is running');
    return lock;
  };
  return { take, calls: () => calls };
};

describe('lockAfterFollowerLook', () => {
  it('waits while the running follower is the holder, then locks', async () => {
    note('4242\n');
    const t = busyTimes(3);
    expect(await lockAfterFollowerLook(depsWith(4242), t.take)).toBe(lock);
    expect(t.calls()).toBe(4);
  });

  it('an empty note while the follower runs (it has just locked) is looked at again', async () => {
    note('');
    const t = busyTimes(2);
    expect(await lockAfterFollowerLook(depsWith(4242), t.take)).toBe(lock);
    expect(t.calls()).toBe(3);
  });

  it('another holder is BUSY at once', async () => {
    note('777\n');
    const t = busyTimes(1);
    const err = await lockAfterFollowerLook(depsWith(4242), t.take).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LifecycleError);
    expect((err as LifecycleError).code).toBe('BUSY');
    expect(t.calls()).toBe(1);
  });

  it('no follower running: BUSY at once', async () => {
    note('');
    const t = busyTimes(1);
    expect(((await lockAfterFollowerLook(depsWith(null), t.take).catch((e: unknown) => e)) as LifecycleError).code).toBe('BUSY');
    expect(t.calls()).toBe(1);
  });

  it('another error is thrown as it is', async () => {
    const boom = new Error('flock(1) failed');
    await expect(lockAfterFollowerLook(depsWith(4242), async () => Promise.reject(boom))).rejects.toBe(boom);
  });
});
