/**
 * A systemd stop whose one `systemctl stop` fails (no bus, a fork failure) after the restore: the
 * follower, which that job was to stop (stop.ts), is stopped on its own then, so its next look
 * cannot take the restored original for a new network file and point the host at the proxy again.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork } from './follow';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\n';

describe('systemd stop whose service stop fails', () => {
  it('ends the follower, so its next look leaves the restored original alone', async () => {
    const h = await newHost(ORIGINAL);
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const followerStops: string[] = [];
    Object.assign(h.deps.services, {
      kind: 'systemd',
      stop: async () => {
        throw new Error('systemctl stop k2s-dnsproxy.service failed (Failed to connect to bus)');
      },
    });
    h.deps.follower = { argv: ['node', 'k2s-dns.mjs', 'follow-watch'], manager: { start: async () => undefined, stop: async () => void followerStops.push('stopped') } };
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(false);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
    // The follower, unless stopped, looks again once the lock is free:
    expect(followerStops).toEqual(['stopped']);
    const look = followerStops.length ? null : await followNetwork(h.deps);
    expect(look?.kind ?? 'stopped').not.toBe('followed');
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
  });
});
