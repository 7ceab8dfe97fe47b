/**
 * The network follower starts once the host points at the proxy, alongside verify (start.ts
 * startFollower): a verify that fails rolls it back like every other change — stopped, after a
 * start still in flight has settled — and a start that succeeds started it exactly once. A held
 * follower (hosts without systemd) is let go after verify instead, and dropped when verify fails.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const quiet = () => undefined;
const ARGV = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'follow-watch'];

/** A host with a follower that logs its calls; its start settles when `release` is called (at once without `slow`). */
async function hostWithFollower(slow = false) {
  const h = await newHost();
  const log: string[] = [];
  let release: () => void = () => undefined;
  const gate = slow ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  h.deps.follower = {
    argv: ARGV,
    manager: {
      start: async (argv) => {
        log.push(`follower start ${argv.at(-1)}`);
        await gate;
        log.push('follower started');
      },
      stop: async () => void log.push('follower stop'),
    },
  };
  return { h, log, release: () => release() };
}

describe('start: the network follower alongside verify', () => {
  it('a start that verifies starts the follower once and never stops it', async () => {
    const { h, log } = await hostWithFollower();
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(log).toEqual(['follower start follow-watch', 'follower started']);
  });

  it('verify fails (no cluster name through the host resolver): the follower is stopped by rollback, the resolver is back', async () => {
    const { h, log } = await hostWithFollower();
    h.world.systemAnswer = null;
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 1 });
    expect(log).toEqual(['follower start follow-watch', 'follower started', 'follower stop']);
    expect((await h.deps.fs.readFile('/etc/resolv.conf')).toString()).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  }, 10_000);

  it('verify fails while the follower\'s start is still in flight: rollback waits for it, then stops it', async () => {
    const { h, log, release } = await hostWithFollower(true);
    h.world.systemAnswer = null;
    // When verify has failed, the follower's start is still held: nothing is stopped yet; let it go then.
    let atVerifyFailed: string[] | null = null;
    const r = await startDns(h.deps, TEST_START_OPTS, (e) => {
      if (e.type === 'step' && e.step === 'verify' && e.status === 'failed') {
        atVerifyFailed = [...log];
        release();
      }
    });
    expect(atVerifyFailed).toEqual(['follower start follow-watch']);
    expect(r).toMatchObject({ ok: false, exitCode: 1 });
    expect(log).toEqual(['follower start follow-watch', 'follower started', 'follower stop']);
  }, 10_000);

  it('--on-network-change keep: no follower starts, one left running is stopped', async () => {
    const { h, log } = await hostWithFollower();
    const r = await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, quiet);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(log).toEqual(['follower stop']);
  });

  /** A host whose follower is held (hosts without systemd: prepare, then startHeld) and logs each call and the steps' ends. */
  async function hostWithHeldFollower() {
    const h = await newHost();
    const log: string[] = [];
    let let_go = false;
    h.deps.follower = {
      argv: ARGV,
      manager: {
        start: async () => void log.push('follower start'),
        stop: async () => void log.push('follower stop'),
        prepare: async () => {
          log.push('follower prepared');
          return { pid: 4242, exited: () => false, drop: () => void (let_go || log.push('follower dropped')), letGo: () => void (let_go = true) };
        },
        startHeld: async (held) => {
          held.letGo('go');
          log.push('follower let go');
        },
      },
    };
    const sink = (e: { type: string; step?: string; status?: string }) => {
      if (e.type === 'step' && (e.step === 'verify' || e.step === 'ready') && e.status !== 'running') log.push(`${e.step} ${e.status}`);
    };
    return { h, log, sink };
  }

  // Its Node start-up (~100 ms of CPU) alongside verify slowed verify's queries; the let-go is a pidfile write.
  it('a held follower is let go after verify, before ready, once', async () => {
    const { h, log, sink } = await hostWithHeldFollower();
    const r = await startDns(h.deps, TEST_START_OPTS, sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(log).toEqual(['follower prepared', 'verify done', 'follower let go', 'ready done']);
  });

  it('verify fails: the held follower is dropped, never let go nor stopped, the resolver is back', async () => {
    const { h, log, sink } = await hostWithHeldFollower();
    h.world.systemAnswer = null;
    const r = await startDns(h.deps, TEST_START_OPTS, sink);
    expect(r).toMatchObject({ ok: false, exitCode: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['follower prepared', 'verify failed', 'follower dropped']);
    expect((await h.deps.fs.readFile('/etc/resolv.conf')).toString()).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  }, 10_000);
});
