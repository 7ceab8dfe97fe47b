/**
 * A start while K2s DNS runs does not change it: asked for other upstreams or another
 * network-change policy (the fix the degraded verdict offered), it used to say "already running;
 * nothing changed" with exit 0 while the dead upstream stayed (second new-user walk, high). Now
 * it is refused, naming what differs and the way (stop, then start).
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { otherOptions, startDns } from './start';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

describe('start while running with other options', () => {
  it('--upstream and --on-network-change keep while running with the discovered upstream and follow: RUNNING_OTHER_OPTIONS, exit 3, nothing changed', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const managed = await readFile(join(h.root, 'etc/resolv.conf'));
    const r = await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.54'], onNetworkChange: 'keep' }, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
    expect(r.message).toBe('K2s DNS is already running with other options (upstreams 192.0.2.54 asked, 192.0.2.53 running; network changes: keep asked, follow running); nothing changed. A start does not change a running K2s DNS: stop it, then start with these options.');
    expect(await readFile(join(h.root, 'etc/resolv.conf'))).toEqual(managed);
    // The same options as running: still the plain "nothing changed", exit 0.
    expect(await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }, () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
  });

  it('otherOptions: nothing asked, or no state, is nothing other', () => {
    expect(otherOptions({}, null)).toEqual([]);
    expect(otherOptions({ upstreams: ['192.0.2.54'] }, null)).toEqual([]);
  });
});
