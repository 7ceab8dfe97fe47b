import { describe, expect, it } from 'vitest';
import { READY_POLL_FAST, readyPollWait, waitForListeners } from './service-ready';
import type { LifecycleDeps } from './deps';
import type { ProxyPlan } from '../../../shared/types';

/** ms from the first poll to the first poll at or after `t` ms, with wait `wait(attempt)` between polls. */
function foundAt(t: number, wait: (attempt: number) => number): number {
  let at = 0;
  for (let attempt = 0; at < t; attempt++) at += wait(attempt);
  return at;
}

describe('readyPollWait', () => {
  it('polls after 1, 2, then every 4 ms up to 127 ms, then 128 and 200 ms apart', () => {
    const waits = Array.from({ length: READY_POLL_FAST + 4 }, (_, i) => readyPollWait(i));
    expect(waits.slice(0, 5)).toEqual([1, 2, 4, 4, 4]);
    expect(waits.slice(READY_POLL_FAST - 1)).toEqual([4, 128, 200, 200, 200]);
    expect(waits.slice(0, READY_POLL_FAST).reduce((a, b) => a + b, 0)).toBe(127);
  });

  it('finds a proxy that binds at any time within 20 s no later than the plain doubling from 1 ms did, and within 4 ms in the first 127 ms', () => {
    const doubling = (attempt: number) => Math.min(200, 2 ** attempt);
    for (let t = 1; t <= 20_000; t += 1) {
      expect(foundAt(t, readyPollWait)).toBeLessThanOrEqual(foundAt(t, doubling));
      if (t <= 127) expect(foundAt(t, readyPollWait) - t).toBeLessThan(4);
    }
  });
});

describe('waitForListeners', () => {
  /** Deps whose service status is recorded, and whose listener answers from poll `upAt` on (0-based). */
  function deps(running: boolean, upAt: number) {
    let polls = 0;
    const statusReads: number[] = [];
    const d = {
      now: () => 0,
      sleep: async () => undefined,
      services: { status: async () => (statusReads.push(polls), { running, pid: running ? 4242 : null }) },
      tcpListening: async () => polls++ >= upAt,
      fs: { readFile: async () => Buffer.from('level=error msg="listen udp 127.0.0.1:53: bind: permission denied"\n') },
      portHolder: async () => null,
    } as unknown as LifecycleDeps;
    return { d, statusReads };
  }
  const plan = { listeners: [{ address: '127.0.0.1', port: 53 }] } as unknown as ProxyPlan;

  it('reads no status before the first poll of a service its start saw running; reads it before every later poll', async () => {
    const seen = deps(true, 2);
    await waitForListeners(seen.d, plan, 1000, { running: true });
    expect(seen.statusReads).toEqual([1, 2]);
    const unseen = deps(true, 0);
    await waitForListeners(unseen.d, plan, 1000);
    expect(unseen.statusReads).toEqual([0]);
  });

  it('reads no status while the main process its start saw still runs (/proc); once it is gone, the status read judges', async () => {
    const seen = deps(true, 3);
    const asked: number[] = [];
    let alive = true;
    seen.d.processRunning = async (pid) => (asked.push(pid), alive);
    await waitForListeners(seen.d, plan, 1000, { running: true, pid: 4242 });
    expect(seen.statusReads).toEqual([]);
    expect(asked).toEqual([4242, 4242, 4242]);
    // The process gone (an exit, or systemd's restart gave it a new pid): the service manager is asked.
    const gone = deps(false, 5);
    alive = false;
    gone.d.processRunning = async () => alive;
    await expect(waitForListeners(gone.d, plan, 1000, { running: true, pid: 4242 })).rejects.toMatchObject({ code: 'SERVICE_EXITED' });
    expect(gone.statusReads).toEqual([1]);
    // No pid known: every later poll reads the status, as before.
    const nopid = deps(true, 2);
    nopid.d.processRunning = async () => true;
    await waitForListeners(nopid.d, plan, 1000, { running: true, pid: null });
    expect(nopid.statusReads).toEqual([1, 2]);
  });

  it('a service that is not running at a later poll fails SERVICE_EXITED with the log\'s last error', async () => {
    await expect(waitForListeners(deps(false, 5).d, plan, 1000, { running: true })).rejects.toMatchObject({ code: 'SERVICE_EXITED', message: expect.stringContaining('bind: permission denied') });
  });
});
