/**
 * Rollback does not wait for the capture to open: a start of the exact query log's companion
 * still waiting for its ready file is told to give up (its abort signal), then stopped. Found on
 * the booted Debian 13 host (e2e/debian-host-capture-rollback.e2e.test.ts): a proxy that exited
 * before the capture opened had rollback stop both units, then wait out the capture's whole
 * ready timeout (12 s, capture-companion.ts READY_TIMEOUT_MS) for a file that could not come.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { FIXTURE_DISCOVERY, trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const quiet = () => undefined;
const BASE = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'capture-watch'];

/** A host whose capture never opens (its unit stopped, or tcpdump stuck): each start logs itself and ends only when its abort signal fires. */
async function hostWithStuckCapture() {
  const h = await newHost();
  const log: string[] = [];
  h.deps.capture = {
    argv: BASE,
    tcpdump: '/usr/bin/tcpdump',
    manager: {
      start: (argv, _held, abort) =>
        new Promise<void>((_resolve, reject) => {
          log.push(`capture ${argv.slice(BASE.length).join(' ')}`);
          if (!abort) return;
          const give = () => (log.push('capture wait aborted'), reject(new Error('given up')));
          if (abort.aborted) give();
          else abort.addEventListener('abort', give, { once: true });
        }),
      stop: async () => void log.push('capture stop'),
    },
  };
  return { h, log };
}

describe('start: rollback of a capture that has not opened yet', () => {
  it('a zone\'s port restarts the capture after its first start settles; the proxy fails first: both waits end, the second start never begins, it is stopped', async () => {
    const { h, log } = await hostWithStuckCapture();
    h.world.discovery = { ...FIXTURE_DISCOVERY, zones: [...FIXTURE_DISCOVERY.zones, { zone: 'corp.internal', upstream: '172.21.0.20:5353', source: 'corefile', reason: 'Corefile server block "corp.internal:53"', clusterDomain: false, reverse: false }] };
    h.deps.services.start = async () => {
      throw new Error('k2s-dnsproxy exited right after start');
    };
    const r = await startDns(h.deps, { ...TEST_START_OPTS, allowZones: ['corp.internal'] }, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 1 });
    expect(log.filter((l) => l.startsWith('capture --'))).toEqual(['capture --listen 127.0.0.1:53 --port 53']);
    expect(log.at(-1)).toBe('capture stop');
    expect((await h.deps.fs.readFile('/etc/resolv.conf')).toString()).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  }, 10_000);

  it('a failed discover aborts the capture start\'s wait for its ready file, then stops it', async () => {
    const { h, log } = await hostWithStuckCapture();
    h.world.discovery = new Error('the API server did not answer');
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(log).toEqual(['capture --listen 127.0.0.1:53 --port 53', 'capture wait aborted', 'capture stop']);
    expect((await h.deps.fs.readFile('/etc/resolv.conf')).toString()).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  }, 10_000);
});
