/**
 * Where stop ends the network follower: on systemd inside the proxy's one `systemctl stop`, after
 * the resolver is restored (the lock it holds makes the follower's look `busy` meanwhile); on the
 * supervised path, and for uninstall, before anything is restored.
 */
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

  it('supervised: stopped before the restore', async () => {
    const { h, seen } = await startedHost('supervised');
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(seen).toEqual(['follower stop: proxy', 'proxy stop: restored']);
  });

  it('systemd uninstall: stopped before the restore, unlinked with the proxy', async () => {
    const { h, seen } = await startedHost('systemd');
    expect((await uninstallDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(seen[0]).toBe('follower stop (unlink with proxy): proxy');
    expect(seen).toContain('proxy stop: restored');
  });
});
