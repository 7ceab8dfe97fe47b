/**
 * Where stop ends the network follower: on systemd inside the proxy's one `systemctl stop`, after
 * the resolver is restored (the lock it holds makes the follower's look `busy` meanwhile); on the
 * supervised path asked to stop before the restore and waited for alongside it, gone before the
 * lock goes; for uninstall, before anything is restored.
 */
import { readFileSync } from 'node:fs';
import { lockHolderNote } from './lock';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { stopDns, uninstallDns } from './stop';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\n';

/** A started host whose follower and service stop record, in order, what the resolver held then. */
async function startedHost(kind: 'systemd' | 'supervised') {
  const h = await newHost(ORIGINAL);
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  const seen: string[] = [];
  const resolver = async () => ((await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')) === ORIGINAL ? 'restored' : 'proxy');
  const stop = h.deps.services.stop.bind(h.deps.services);
  Object.assign(h.deps.services, { kind, stop: async () => (seen.push(`proxy stop: ${await resolver()}`), stop()) });
  h.deps.follower = { argv: ['node', 'k2s-dns.mjs', 'follow-watch'], manager: { start: async () => undefined, stop: async (o?: { unlinkWithProxy?: boolean }) => void seen.push(`follower stop${o?.unlinkWithProxy ? ' (unlink with proxy)' : ''}: ${await resolver()}`) } };
  return { h, seen };
}

describe('stop and the network follower', () => {
  it('systemd: no stop of its own; the proxy\'s stop job (which names its unit) runs after the restore', async () => {
    const { h, seen } = await startedHost('systemd');
    const r = await stopDns(h.deps, {}, () => undefined);
    expect([r.ok, r.exitCode]).toEqual([true, 0]);
    expect(seen).toEqual(['proxy stop: restored']);
  });

  it('supervised: asked to stop before the restore, its exit waited for alongside it and before the lock goes', async () => {
    const { h, seen } = await startedHost('supervised');
    const resolverNow = () => (readFileSync(join(h.root, 'etc/resolv.conf'), 'utf8') === ORIGINAL ? 'restored' : 'proxy');
    let exit: () => void = () => undefined;
    h.deps.follower!.manager.stop = async () => {
      // As a follower takes its SIGTERM: asked now, gone a moment later (after the restore here).
      seen.push(`follower asked: ${resolverNow()}`);
      // Gone at the proxy's stop, or after 2 s should nothing come (a stop that waits for it first).
      await new Promise<void>((resolve) => {
        exit = resolve;
        setTimeout(resolve, 2000);
      });
      seen.push(`follower gone: ${resolverNow()}, lock held by ${(await lockHolderNote(h.deps.fs)) === process.pid ? 'this stop' : 'nobody'}`);
    };
    const services = h.deps.services;
    const proxyStop = services.stop.bind(services);
    services.stop = async (o) => {
      await proxyStop(o);
      exit();
    };
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(seen).toEqual(['follower asked: proxy', 'proxy stop: restored', 'follower gone: restored, lock held by this stop']);
  });

  it('supervised: a follower slow to end is waited for: the stop returns only once it is gone', async () => {
    const { h } = await startedHost('supervised');
    let ended = false;
    h.deps.follower!.manager.stop = async () => {
      await new Promise((r) => setTimeout(r, 200));
      ended = true;
    };
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(ended).toBe(true);
  });

  it('systemd uninstall: stopped before the restore, unlinked with the proxy', async () => {
    const { h, seen } = await startedHost('systemd');
    expect((await uninstallDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(seen[0]).toBe('follower stop (unlink with proxy): proxy');
    expect(seen).toContain('proxy stop: restored');
  });

  it('supervised: the capture\'s stop begins alongside the proxy\'s and signals only once the proxy has stopped; after a failed proxy stop it signals nothing', async () => {
    const { h } = await startedHost('supervised');
    const seen: string[] = [];
    const services = h.deps.services;
    const proxyStop = services.stop.bind(services);
    let fail = false;
    services.stop = async (o) => {
      await proxyStop(o);
      // A moment later than the capture's reads (a fake capture reads at once).
      await new Promise((r) => setTimeout(r, 20));
      if (fail) throw new Error('the proxy did not stop');
      seen.push('proxy stopped');
    };
    h.deps.capture = {
      argv: ['node', 'k2s-dns.mjs', 'capture-watch'],
      tcpdump: '/usr/bin/tcpdump',
      manager: {
        start: async () => undefined,
        stop: async (o) => {
          seen.push('capture read');
          if (o?.after && !(await o.after.then(() => true, () => false))) return;
          seen.push('capture signalled');
        },
      },
    };
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(seen).toEqual(['capture read', 'proxy stopped', 'capture signalled']);
    // Started again, the proxy's stop fails: the step fails and the capture is left as it was.
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    seen.length = 0;
    fail = true;
    const r = await stopDns(h.deps, {}, () => undefined);
    expect(r.ok).toBe(false);
    expect(seen).toEqual(['capture read']);
  });
});
