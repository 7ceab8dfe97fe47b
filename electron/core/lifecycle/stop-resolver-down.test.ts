/**
 * Breaker 10 M3: stop's exit status is the one `k2s-dns status` gives right after (README, exit
 * statuses). A kept file `nameserver 127.0.0.1` + an unreachable nameserver, or a restored file
 * whose only nameserver is unreachable, leaves no name resolving: stop warns RESOLVER_DOWN and
 * exits 5, as status then does; a kept file whose nameserver answers stays exit 0.
 */
import { describe, expect, it } from 'vitest';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { statusWithHealth } from '../health/status-with-health';
import { healthProbes } from '../health/probes';
import { statusExitCode } from '../../../shared/status-exit';
import type { LifecycleDeps } from './deps';

const newHost = trackedHosts();
const sink = () => undefined;
const DEAD = '192.0.2.99';

/** From now on `DEAD` is unreachable (ENETUNREACH, as the bed's TEST-NET address) and getaddrinfo resolves nothing. */
function deadNameserver(h: { deps: LifecycleDeps; world: { systemAnswer: string | null } }): void {
  const query = h.deps.query;
  h.deps.query = async (q) => (q.server.startsWith(DEAD) ? { name: q.name, type: q.type, server: q.server, transport: 'udp', rcode: 'ERROR', answers: [], latencyMs: 0, error: 'connect ENETUNREACH' } : query(q));
  h.world.systemAnswer = null;
}

async function statusExit(deps: LifecycleDeps): Promise<number> {
  return statusExitCode(await statusWithHealth(healthProbes(deps), 'cli'));
}

describe('stop exits as status right after when the file left names no nameserver that answers', () => {
  it('--on-drift keep of "nameserver 127.0.0.1" + an unreachable nameserver: RESOLVER_DOWN, exit 5, status 5', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    const theirs = `# lo2\nnameserver 127.0.0.1\nnameserver ${DEAD}\n`;
    await writeFile(join(h.root, 'etc/rc.x'), theirs);
    await rename(join(h.root, 'etc/rc.x'), join(h.root, 'etc/resolv.conf'));
    deadNameserver(h);
    const r = await stopDns(h.deps, { onDrift: 'keep' }, sink);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(theirs);
    expect(r).toMatchObject({ ok: true, exitCode: 5 });
    expect(r.warnings).toEqual([
      {
        code: 'RESOLVER_DOWN',
        message: `No names resolve on this host: none of the nameservers in /etc/resolv.conf answers (${DEAD}:53: network unreachable (ENETUNREACH: this host has no route to it)); K2s DNS is stopped, so this is the host's own resolver (checked right after this stop, as npx k2s-dns status checks); put a nameserver that answers into /etc/resolv.conf (reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as \`nameserver 192.0.2.1\`, your router's or company DNS's IP address in place of 192.0.2.1; exit status 5, as npx k2s-dns status gives now).`,
      },
    ]);
    expect(await statusExit(h.deps)).toBe(5);
  });

  it('a plain stop that restores start\'s own original asks no nameserver (README: start verified them; status tells if they have gone since)', async () => {
    const h = await newHost(`nameserver ${DEAD}\n`);
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    deadNameserver(h);
    const r = await stopDns(h.deps, {}, sink);
    expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(`nameserver ${DEAD}\n`);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toBeUndefined();
    expect(await statusExit(h.deps)).toBe(5);
  });

  it('--on-drift keep of a file whose nameserver answers: exit 0, no warning, status 0', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
    await writeFile(join(h.root, 'etc/resolv.conf'), 'nameserver 127.0.0.1\nnameserver 198.51.100.9\n');
    deadNameserver(h);
    const r = await stopDns(h.deps, { onDrift: 'keep' }, sink);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toBeUndefined();
    expect(await statusExit(h.deps)).toBe(0);
  });
});
